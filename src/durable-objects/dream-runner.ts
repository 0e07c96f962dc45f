/**
 * Runs dreaming for one chat object from its alarm: picks the waiting journal rows, resolves
 * their senders, calls the domain's `dream` and removes the rows once the run committed.
 * A run's rows and id are recorded before the model is called, so a retried run reads the
 * same rows under the same id and its commit, if the first attempt landed, is refused by
 * `memory_runs` — a retried alarm never duplicates memory.
 */

import type { ChatObjectServices } from "../composition/chat-object/chat-object-door";
import { type AccountKey, isOneToOneKey } from "../domain/chat/chat-address";
import type { Settings } from "../domain/config/settings";
import { PRIVACY_MARK_WINDOW_MS } from "../domain/history/privacy-mark";
import type { SenderIdentity } from "../domain/identity/sender-identity";
import { type DreamTurn, dream, nextDreamAt } from "../domain/memory/dreaming";
import { stricter } from "../domain/memory/sensitivity";
import { withoutLeftOut } from "../domain/privacy/left-out";
import { NAMING_WAIT_MS } from "../domain/privacy/named-afterwards";
import type { ChatMeta } from "./chat-meta";
import type { DreamJournal, JournalRow } from "./dream-journal";
import { afterSpendDeferral, deferDreamForSpend } from "./dream-spend";
import { markedMessageIds } from "./log-marks";
import type { Outbox } from "./outbox";

/** After this many failed model runs in a row, the rule-based extractor takes the batch. */
const MODEL_ATTEMPTS = 3;

type DreamState = { failures: number; lastFailureAt: number | null };
type PendingRun = { runId: string; upTo: number };

export type ChatInfo = { key: string; channel: string; targetType: string; targetId: string };

/**
 * The run's user turns that the chat's own log has marked since they were journaled
 * (docs/sessions.md#marked-messages): a request of their speaker within ten minutes on either
 * side, said in another run ("跟你们说个事，别外传啊" ends one run, "我下个月离职" opens the next)
 * or logged after the turn was journaled. Such a turn is dreamed as private at least (a floor,
 * never lowering what its words hold). A one-to-one chat's turns are private by origin already.
 */
function markedInLog(sql: SqlStorage, chatKey: string, turns: DreamTurn[]): void {
  if (isOneToOneKey(chatKey)) return;
  const said = turns.flatMap((t) =>
    t.role === "user" && t.messageId ? [{ messageId: t.messageId, ts: t.ts }] : [],
  );
  if (said.length === 0) return;
  const marked = markedMessageIds(sql, chatKey, said);
  turns.forEach((t, i) => {
    if (!t.messageId || !marked.has(t.messageId)) return;
    turns[i] = { ...t, floor: t.floor ? stricter(t.floor, "private") : "private" };
  });
}

/**
 * How old a turn must be before it is dreamed: in a shared chat, the privacy window, so that a
 * request its speaker makes after it ("刚才那个别外传", up to ten minutes on) has marked it before
 * a run reads it (docs/decisions/0610-dreams-wait-for-the-privacy-window.md); a one-to-one
 * chat's turns are private by origin and wait only for a naming: a value sent alone is masked
 * where it was stored when its sender names it a secret within NAMING_WAIT_MS, and a run must
 * not have read it before (docs/decisions/0910-dreams-wait-for-a-naming.md). A shared chat waits
 * for both.
 */
const settleMsOf = (chatKey: string): number =>
  isOneToOneKey(chatKey) ? NAMING_WAIT_MS : Math.max(PRIVACY_MARK_WINDOW_MS, NAMING_WAIT_MS);

export class DreamRunner {
  readonly #meta: ChatMeta;
  readonly #journal: DreamJournal;
  readonly #outbox: Outbox;
  readonly #storage: DurableObjectStorage;

  constructor(deps: {
    meta: ChatMeta;
    journal: DreamJournal;
    outbox: Outbox;
    storage: DurableObjectStorage;
  }) {
    this.#meta = deps.meta;
    this.#journal = deps.journal;
    this.#outbox = deps.outbox;
    this.#storage = deps.storage;
  }

  #parts() {
    return { meta: this.#meta, outbox: this.#outbox, storage: this.#storage };
  }

  #state(): DreamState {
    return this.#meta.get<DreamState>("dream_state") ?? { failures: 0, lastFailureAt: null };
  }

  /** When the next run is due, or null when nothing waits (or the chat is unknown). */
  dueAt(settings: Settings, now: number): number | null {
    const chat = this.#meta.get<ChatInfo>("chat");
    if (!chat) return null;
    const state = this.#state();
    const stats = this.#journal.stats();
    const due = nextDreamAt({ ...stats, ...state }, settings.memory.dreaming, now, settleMsOf(chat.key));
    return afterSpendDeferral(this.#meta, due, now);
  }

  /** Runs one dreaming pass if one is due. Never throws: failures back off. */
  async runIfDue(settings: Settings, services: ChatObjectServices): Promise<void> {
    const now = services.clock.now();
    const due = this.dueAt(settings, now);
    const chat = this.#meta.get<ChatInfo>("chat");
    if (due === null || due > now || !chat) return;
    const state = this.#state();
    const pending = this.#meta.get<PendingRun>("dream_run");
    const settle = settleMsOf(chat.key);
    const settled = settle > 0 ? now - settle : undefined;
    const taken = this.#journal.take(settings.memory.dreaming.maxTurnsPerRun, pending?.upTo, settled);
    const first = taken[0];
    const last = taken.at(-1);
    // Journaled before their account joined privacy.doNotRecord: never dreamed, consumed with the run.
    const rows = withoutLeftOut(settings, taken);
    if (!first || !last) {
      this.#meta.delete("dream_run");
      return;
    }
    const run: PendingRun = pending ?? {
      runId: `dream:${chat.key}:${first.seq}-${last.seq}`,
      upTo: last.seq,
    };
    if (!pending) this.#meta.set("dream_run", run);
    if (!rows.some((r) => r.role === "user")) {
      // Only left-out people's turns: nothing to dream; they leave the journal unread.
      this.#storage.transactionSync(() => {
        this.#journal.consume(run.upTo);
        this.#meta.delete("dream_run");
      });
      return;
    }
    const useModel = services.model.provider !== "offline" && state.failures < MODEL_ATTEMPTS;
    if (useModel && (await deferDreamForSpend(this.#parts(), chat.key, settings, services))) return;
    try {
      const turns = await dreamTurns(rows, chat.key, services);
      markedInLog(this.#storage.sql, chat.key, turns);
      // A request of the minutes after the run's turns may still wait in the journal, untaken.
      const waiting = this.#journal.after(run.upTo, last.ts + PRIVACY_MARK_WINDOW_MS);
      const later = withoutLeftOut(settings, waiting).map((r) => dreamTurnOf(r, null));
      const outcome = await dream(
        { runId: run.runId, session: chat.key, turns, later, now, useModel },
        {
          model: services.model,
          store: services.memory.store,
          logger: services.logger,
          now: Date.now,
          restatements: services.memory.restatements?.(settings.knowledge) ?? null,
        },
      );
      const usage = outcome.ok ? outcome.value.usage : outcome.error.usage;
      this.#storage.transactionSync(() => {
        if (usage) {
          this.#outbox.push(
            { kind: "usage", body: { ...usage, dedupeKey: `${run.runId}:${state.failures}` } },
            Date.now(),
          );
        }
        if (outcome.ok) {
          this.#journal.consume(run.upTo);
          this.#meta.delete("dream_run");
          this.#meta.set("dream_state", { failures: 0, lastFailureAt: null });
        } else {
          this.#meta.set("dream_state", { failures: state.failures + 1, lastFailureAt: Date.now() });
        }
      });
      await reportDream(outcome, { chat: chat.key, run: run.runId, useModel }, services);
    } catch (e) {
      services.logger.error("dreaming failed; will retry", {
        chat: chat.key,
        run: run.runId,
        error: String(e),
      });
      this.#meta.set("dream_state", { failures: state.failures + 1, lastFailureAt: Date.now() });
    }
  }
}

/**
 * What a finished run tells: the log line of a run done, and — for a failed model run — a count
 * toward the owner's "model errors" notice like a failed turn (facts only: provider and kind,
 * never the reason's words).
 */
async function reportDream(
  outcome: Awaited<ReturnType<typeof dream>>,
  at: { chat: string; run: string; useModel: boolean },
  services: ChatObjectServices,
): Promise<void> {
  if (!outcome.ok) {
    if (at.useModel)
      await services.notices.raise({
        kind: "model-errors",
        provider: services.model.provider,
        errorKind: outcome.error.kind === "model" ? outcome.error.reason : "bad-response",
      });
    return;
  }
  const v = outcome.value;
  services.logger.info("dreaming done", {
    chat: at.chat,
    run: at.run,
    extractor: v.extractor,
    candidates: v.candidates,
    inserted: v.inserted,
    superseded: v.superseded,
    archived: v.archived,
    alreadyApplied: v.alreadyApplied,
  });
}

/** A journal row as a dream turn, with its sender's identity. */
function dreamTurnOf(r: JournalRow, identity: SenderIdentity | null): DreamTurn {
  return {
    seq: r.seq,
    role: r.role,
    name: r.name,
    account: r.account,
    messageId: r.messageId,
    text: r.text,
    ts: r.ts,
    explicitSensitivity: r.explicitSensitivity,
    identity,
  };
}

/** The run's rows as dream turns, each user turn with its sender's identity resolved once. */
async function dreamTurns(
  rows: readonly JournalRow[],
  chatKey: string,
  services: ChatObjectServices,
): Promise<DreamTurn[]> {
  const identities = new Map<string, SenderIdentity>();
  for (const r of rows) {
    if (r.role !== "user" || !r.account || identities.has(r.account)) continue;
    identities.set(
      r.account,
      await services.identity.resolve({ account: r.account as AccountKey, chatKey, unionId: r.unionId }),
    );
  }
  return rows.map((r) => dreamTurnOf(r, r.account ? (identities.get(r.account) ?? null) : null));
}
