/**
 * The chat model's rewrites of the person profiles this chat's turns read in the items' own
 * words (src/domain/memory/profile-rewrite.ts), run from the alarm after the turns and
 * dreaming — never on a turn's path. Spend-gated like dreaming: over the day's cap nothing is
 * asked (the extractive text stays, and a later turn asks again). Each call's usage row goes
 * to the outbox with the chat's other model calls.
 */
import type { ChatObjectServices } from "../composition/chat-object/chat-object-door";
import type { Settings } from "../domain/config/settings";
import { rewriteProfile } from "../domain/memory/profile-rewrite";
import type { UsageRecord } from "../domain/model/chat-model";
import { chatSpendGate } from "./chat-spend-gate";
import type { Outbox } from "./outbox";

/** Rewrites per alarm: each is one model call, and the chat's next message waits behind them. */
const PER_ALARM = 2;

export async function rewriteWaitingProfiles(
  d: { outbox: Outbox; storage: DurableObjectStorage },
  chatKey: string | null,
  settings: Settings,
  services: ChatObjectServices,
): Promise<void> {
  const queue = services.memory.rewrites;
  if (!queue || queue.size === 0) return;
  const keys = queue.take(PER_ALARM);
  if (!chatKey || services.model.provider === "offline" || !settings.memory.profiles.rewriteWithModel) return;
  const gate = chatSpendGate(chatKey, settings, services, d.storage);
  const spent: UsageRecord[] = [];
  for (const key of keys) {
    if (!(await gate.check(spent)).allowed) return;
    try {
      const { outcome, usage } = await rewriteProfile(
        { profiles: services.memory.profiles, store: services.memory.store, model: services.model },
        key,
        chatKey,
        () => services.clock.now(),
      );
      if (usage) {
        spent.push(usage);
        const dedupeKey = `profile:${key.audience}:${key.subject}:${usage.at}`;
        d.outbox.push({ kind: "usage", body: { ...usage, dedupeKey } }, Date.now());
      }
      services.logger.info("profile rewrite", { chat: chatKey, audience: key.audience, ...outcome });
    } catch (e) {
      services.logger.error("profile rewrite failed", { chat: chatKey, error: String(e) });
    }
  }
}
