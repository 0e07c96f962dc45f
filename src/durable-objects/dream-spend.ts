/**
 * Dreaming over a spend cap waits for the next day: the journal is kept, the deferral is
 * remembered in `meta` until the next local midnight (so the alarm does not re-read the spend
 * in between) and the refusal is audited once per chat and day.
 */
import type { ChatObjectServices } from "../composition/chat-object/chat-object-door";
import type { Settings } from "../domain/config/settings";
import type { ChatMeta } from "./chat-meta";
import { chatSpendGate } from "./chat-spend-gate";
import type { Outbox } from "./outbox";

const KEY = "dream_spend_deferred";

type Deferral = { until: number; day: string };

/** True when the day's cap stops this pass: it is deferred to the next day. */
export async function deferDreamForSpend(
  d: { meta: ChatMeta; outbox: Outbox; storage: DurableObjectStorage },
  chatKey: string,
  settings: Settings,
  services: ChatObjectServices,
): Promise<boolean> {
  const verdict = await chatSpendGate(chatKey, settings, services, d.storage).check([]);
  if (verdict.allowed) {
    d.meta.delete(KEY);
    return false;
  }
  const now = services.clock.now();
  d.storage.transactionSync(() => {
    d.meta.set(KEY, { until: verdict.day.end, day: verdict.day.day } satisfies Deferral);
    d.outbox.push(
      {
        kind: "audit",
        body: {
          dedupeKey: `${chatKey}:spend.capped:dream:${verdict.day.day}`,
          at: now,
          actor: null,
          action: "spend.capped",
          chatKey,
          target: verdict.scope === "chat" ? chatKey : "global",
          detail: {
            outcome: "refused",
            purpose: "dream",
            scope: verdict.scope,
            used: verdict.used,
            cap: verdict.cap,
            day: verdict.day.day,
          },
        },
      },
      now,
    );
  });
  services.logger.info("dreaming deferred: spend cap", {
    chat: chatKey,
    scope: verdict.scope,
    used: verdict.used,
    cap: verdict.cap,
    until: verdict.day.end,
  });
  return true;
}

/** A due time no earlier than a pending spend deferral. */
export function afterSpendDeferral(meta: ChatMeta, due: number | null, now: number): number | null {
  const deferral = meta.get<Deferral>(KEY);
  if (due === null || !deferral || deferral.until <= now) return due;
  return Math.max(due, deferral.until);
}
