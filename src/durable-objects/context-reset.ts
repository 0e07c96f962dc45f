/**
 * ShortTermContext over the chat object's storage: `/reset` and `session_reset` clear the
 * recent turns — and nothing else — at most once per chat per minute. The reset, its meta
 * record and its audit row are one storage transaction; the audit row reaches D1 with the
 * next outbox flush.
 */
import { type LastReset, resetDecision, type ShortTermContext } from "../domain/agent/short-term-context";
import { err, ok } from "../domain/kernel/result";
import type { ChatMeta } from "./chat-meta";
import type { Outbox } from "./outbox";
import type { RecentTurns } from "./recent-turns";

const LAST_RESET = "last_reset";

export class ContextReset implements ShortTermContext {
  readonly #storage: DurableObjectStorage;
  readonly #meta: ChatMeta;
  readonly #recent: RecentTurns;
  readonly #outbox: Outbox;
  readonly #chatKey: () => string | null;
  readonly #now: () => number;

  constructor(deps: {
    storage: DurableObjectStorage;
    meta: ChatMeta;
    recent: RecentTurns;
    outbox: Outbox;
    chatKey: () => string | null;
    now: () => number;
  }) {
    this.#storage = deps.storage;
    this.#meta = deps.meta;
    this.#recent = deps.recent;
    this.#outbox = deps.outbox;
    this.#chatKey = deps.chatKey;
    this.#now = deps.now;
  }

  async reset(req: Parameters<ShortTermContext["reset"]>[0]) {
    return this.#storage.transactionSync(() => {
      const now = this.#now();
      const last = this.#meta.get<LastReset & { cleared: number }>(LAST_RESET);
      const decision = resetDecision(last, req.eventId, now);
      const chatKey = this.#chatKey();
      if (decision.kind === "repeat") return ok({ cleared: last?.cleared ?? 0, repeated: true });
      if (decision.kind === "rate-limited") {
        this.#outbox.push(
          {
            kind: "audit",
            body: {
              dedupeKey: `session_reset_refused:${chatKey}:${req.eventId}`,
              at: now,
              actor: req.actor,
              action: "session_reset_refused",
              chatKey,
              target: chatKey,
              detail: {
                via: req.via,
                retryAfterSeconds: decision.retryAfterSeconds,
                ...(req.from ? { from: req.from } : {}),
              },
            },
          },
          now,
        );
        return err({ kind: "rate-limited" as const, retryAfterSeconds: decision.retryAfterSeconds });
      }
      const cleared = this.#recent.clear();
      this.#meta.set(LAST_RESET, { at: now, eventId: req.eventId, cleared });
      this.#outbox.push(
        {
          kind: "audit",
          body: {
            dedupeKey: `session_reset:${chatKey}:${req.eventId}`,
            at: now,
            actor: req.actor,
            action: "session_reset",
            chatKey,
            target: chatKey,
            detail: {
              via: req.via,
              clearedTurns: cleared,
              memoryKept: true,
              ...(req.from ? { from: req.from } : {}),
            },
          },
        },
        now,
      );
      return ok({ cleared, repeated: false });
    });
  }
}
