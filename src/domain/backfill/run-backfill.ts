/**
 * The OneBot backfill (docs/sessions.md#onebot-backfill), run by the cron, never on the webhook path.
 * Which groups: every followed OneBot group without a finished record — the follow list's
 * explicit `onebot:group:<id>` keys, and with "*" every OneBot group the chat registry has
 * seen. Deciding from state rather than from a "became followed" event means no change can be
 * missed: a settings edit, a first message, a failed run all end in the same check next run.
 *
 * Each page: fetch the messages older than the record's cursor, mask them and write them
 * through the message log's idempotent insert (unique on transport, chat, message id and
 * time, the same key live messages use, so a message seen live is not stored twice), then
 * advance the record. Rows are written before the record moves, so an interrupted run
 * repeats at most one page, which the unique key absorbs. A failed page is recorded with its
 * error and moves nothing. Bounded per group (`maxMessages`, `maxPages`) and per run
 * (`pagesPerRun`).
 */
import { parseChatKey } from "../chat/chat-address";
import { isStored, retentionDays, type Settings } from "../config/settings";
import type { MessageLog } from "../history/message-log";
import { inboundRecord, type MessageRecord } from "../history/message-record";
import { mergeObservations, observationOf } from "../identity/account-observation";
import type { AccountObservation } from "../identity/identity-directory";
import type { InboundEvent } from "../inbound/inbound-event";
import { maskInboundEvent } from "../inbound/mask-inbound-event";
import type { Logger } from "../kernel/logger";
import { applyCredentialCues, type CredentialCues } from "../privacy/announced-credential";
import { isLeftOut } from "../privacy/left-out";
import { maskNamedInOrder } from "../privacy/named-afterwards";
import { type BackfillProgress, type BackfillProgressStore, newProgress } from "./backfill-progress";
import type { GroupHistorySource, HistoryEntry } from "./group-history-source";

const GROUP_PREFIX = "onebot:group:";
const DAY_MS = 86_400_000;

export type BackfillReport = {
  readonly configured: boolean;
  readonly pages: number;
  readonly stored: number;
  readonly failures: number;
  readonly finished: readonly string[];
  /** Groups that still have work after this run. */
  readonly waiting: number;
  /** Groups whose page failed in this run, with the failure's kind (a notice to the owner). */
  readonly failed: readonly { readonly chatKey: string; readonly cause: string }[];
};

/** Followed OneBot groups, in chat-key order. */
export async function followedOneBotGroups(
  settings: Settings,
  store: Pick<BackfillProgressStore, "knownOneBotGroups">,
): Promise<string[]> {
  const entries = settings.follow.groups;
  const keys = new Set(entries.filter((e) => e.startsWith(GROUP_PREFIX)));
  if (entries.includes("*")) for (const k of await store.knownOneBotGroups()) keys.add(k);
  return [...keys].filter((k) => isStored(settings, k, "group")).sort();
}

export async function runBackfill(
  settings: Settings,
  deps: {
    readonly source: GroupHistorySource | null;
    readonly progress: BackfillProgressStore;
    readonly log: MessageLog;
    readonly logger: Logger;
    readonly now: () => number;
  },
): Promise<BackfillReport> {
  const cfg = settings.backfill;
  const report = { configured: deps.source !== null && cfg.enabled, pages: 0, stored: 0, failures: 0 };
  const finished: string[] = [];
  const failed: { chatKey: string; cause: string }[] = [];
  if (!deps.source || !cfg.enabled) return { ...report, finished, waiting: 0, failed };
  const records = new Map((await deps.progress.list()).map((p) => [p.chatKey, p] as const));
  const todo = (await followedOneBotGroups(settings, deps.progress))
    .map((chatKey) => records.get(chatKey) ?? newProgress(chatKey, deps.now()))
    .filter((p) => p.status === "running");
  let budget = cfg.pagesPerRun;
  for (let p of todo) {
    while (budget > 0 && p.status === "running") {
      budget--;
      report.pages++;
      const next = await backfillPage(p, settings, deps.source, deps);
      p = next.progress;
      report.stored += next.stored;
      if (next.failed) {
        report.failures++;
        failed.push({ chatKey: p.chatKey, cause: next.cause ?? "failed" });
      }
      await deps.progress.save(p);
      if (p.status !== "running") finished.push(p.chatKey);
      // A failing implementation is not asked again in this run; the next run retries.
      if (next.failed) break;
    }
    if (budget <= 0) break;
  }
  const waiting = todo.length - finished.length;
  return { ...report, finished, waiting, failed };
}

async function backfillPage(
  p: BackfillProgress,
  settings: Settings,
  source: GroupHistorySource,
  deps: { readonly log: MessageLog; readonly logger: Logger; readonly now: () => number },
): Promise<{ progress: BackfillProgress; stored: number; failed: boolean; cause?: string }> {
  const cfg = settings.backfill;
  const parsed = parseChatKey(p.chatKey);
  const at = deps.now();
  const bounded = (q: BackfillProgress, lastFailed: boolean): BackfillProgress =>
    q.status === "running" && q.pages - q.restartPages >= cfg.maxPages
      ? { ...q, status: lastFailed ? "failed" : "done", doneReason: "page bound" }
      : q;
  if (!parsed.ok || parsed.value.channel !== "onebot" || parsed.value.targetType !== "group") {
    return {
      progress: { ...p, status: "failed", lastError: "not a OneBot group", updatedAt: at },
      stored: 0,
      failed: true,
      cause: "not-a-group",
    };
  }
  const page = await source.page(parsed.value.targetId, p.cursor, cfg.pageSize);
  if (!page.ok) {
    deps.logger.warn("backfill page failed", { chat: p.chatKey, kind: page.error.kind });
    const failed = {
      ...p,
      pages: p.pages + 1,
      errors: p.errors + 1,
      lastError: `${page.error.kind}: ${page.error.message}`.slice(0, 300),
      updatedAt: at,
    };
    return { progress: bounded(failed, true), stored: 0, failed: true, cause: page.error.kind };
  }
  const cursor = p.cursor;
  const older = page.value.filter((e) => cursor === null || e.seq < cursor).sort((a, b) => b.seq - a.seq);
  if (older.length === 0) {
    return {
      progress: {
        ...p,
        pages: p.pages + 1,
        status: "done",
        doneReason: "beginning of history",
        updatedAt: at,
      },
      stored: 0,
      failed: false,
    };
  }
  // Newest first, so the message bound keeps the most recent history. Messages older than the
  // group retention would be deleted by the next retention sweep: the backfill stops there.
  const room = Math.max(0, cfg.maxMessages - p.stored);
  const cutoff = at - retentionDays(settings, "group", null) * DAY_MS;
  const { records, sightings, pastRetention } = pageRows(older, p.chatKey, settings, {
    cutoff,
    room,
    now: deps.now(),
  });
  if (records.length > 0) {
    await deps.log.flush({
      messages: records,
      recalls: [],
      chats: [],
      usage: [],
      audit: [],
      observations: sightings,
    });
  }
  const oldest = older.at(-1)?.seq ?? cursor;
  const stored = p.stored + records.length;
  const next: BackfillProgress = {
    ...p,
    cursor: oldest,
    pages: p.pages + 1,
    fetched: p.fetched + older.length,
    stored,
    skipped: p.skipped + older.filter((e) => !e.event).length,
    updatedAt: at,
    ...(stored >= cfg.maxMessages
      ? { status: "done" as const, doneReason: "message bound" }
      : pastRetention
        ? { status: "done" as const, doneReason: "retention window" }
        : {}),
  };
  return { progress: bounded(next, false), stored: records.length, failed: false };
}

/**
 * The page's messages to log, newest first within the message bound, and their senders as seen
 * in this chat (a live message records the same sighting): a person's forget finds the chats
 * holding their words by these sightings, now that each chat's log lives in its own object.
 * Masked as live events are on arrival (the record masks once more); a left-out person's history
 * is not fetched into the log (privacy.doNotRecord); what is past the group retention is not kept.
 */
function pageRows(
  older: readonly HistoryEntry[],
  chatKey: string,
  settings: Settings,
  bound: { readonly cutoff: number; readonly room: number; readonly now: number },
): { records: MessageRecord[]; sightings: AccountObservation[]; pastRetention: boolean } {
  const records: MessageRecord[] = [];
  const sightings = new Map<string, AccountObservation>();
  const maskedEvents = maskedInOrder(older);
  let pastRetention = false;
  for (const e of older) {
    if (e.event?.message && e.event.message.ts < bound.cutoff) {
      pastRetention = true;
      continue;
    }
    if (records.length >= bound.room || !e.event || e.event.chat.key !== chatKey) continue;
    if (isLeftOut(settings, e.event.sender?.account)) continue;
    const masked = maskedEvents.get(e) ?? maskInboundEvent(e.event);
    const record = inboundRecord(masked);
    if (!record) continue;
    records.push(record);
    const seen = observationOf(masked, bound.now);
    if (seen) {
      const prior = sightings.get(seen.account);
      sightings.set(seen.account, prior ? mergeObservations(prior, seen) : seen);
    }
  }
  return { records, sightings: [...sightings.values()], pastRetention };
}

/**
 * The page's events masked as the chat object masks live ones, read oldest first so that a
 * value sent right after its sender's "密码是" is masked whole (announced-credential.ts); each
 * message's own time stands for "now", and a value its sender named afterwards is masked too
 * (named-afterwards.ts). A value whose announcement is on the next, older page, or whose naming
 * is on the previous, newer one, was stored with that page's neighbour already.
 */
function maskedInOrder(page: readonly HistoryEntry[]): Map<HistoryEntry, InboundEvent> {
  const byTime = page.flatMap((e) => (e.event ? [{ entry: e, event: e.event }] : []));
  byTime.sort((a, b) => (a.event.message?.ts ?? 0) - (b.event.message?.ts ?? 0));
  let cues: CredentialCues = {};
  const applied = byTime.map(({ event }) => {
    const next = applyCredentialCues(maskInboundEvent(event), cues, event.message?.ts ?? 0);
    cues = next.cues;
    return next.event;
  });
  // A value its sender named afterwards ("Lx20240915", then "↑wifi密码"), as the holds do live.
  const named = maskNamedInOrder(applied);
  return new Map(byTime.map(({ entry, event }, i) => [entry, named[i] ?? event]));
}
