/**
 * Every message log read again by today's detectors, as the owner runs it (the admin API and
 * `akasha log credentials`; docs/decisions/0990-logs-kept-before-a-detector-read-them.md): each
 * chat's object in the order of the chat keys, a page of its log a call (credential-sweep.ts),
 * then D1's log (d1-log-sweep.ts). One bounded step at a time; the step hands back a cursor where
 * the next one starts, and the caller repeats until `done`. Without `mask` nothing is written and
 * the counts say what would be; with it, every row that holds a value is rewritten masked, and
 * the step is audited with its counts (never a value). A chat whose object fails is named and
 * passed; a re-run repeats the rest at no cost, since a masked row reads as clean.
 */
import { D1AuditLog } from "../../adapters/d1/d1-audit-log";
import { chatAfter, chatPosition, sweepD1LogPage } from "../../adapters/d1/d1-log-sweep";
import { chatKeyOf, parseChatKey } from "../../domain/chat/chat-address";
import { err, ok, type Result } from "../../domain/kernel/result";
import { chatObject } from "../common/chat-stub";
import type { AdminRequest } from "./admin-request";

/** Log rows one object call reads: its detectors take about a tenth of a millisecond a row. */
const OBJECT_ROWS = 2_000;
/** D1 rows one page reads and rewrites in one batch. */
const D1_ROWS = 500;
/**
 * Calls one step makes at most, each to a chat object or D1: a request's subrequests are counted
 * (1,000 on older plans), and a step over many small chats makes two a chat.
 */
const MAX_CALLS = 400;
/** A step's time when the caller names none: well inside a request's limits. */
export const DEFAULT_STEP_MS = 10_000;

/** Where a sweep stands: in a chat's object after a log row, or in D1's log after a row. */
type Cursor =
  | { readonly stage: "objects"; readonly chat: string; readonly seq: number }
  | { readonly stage: "d1"; readonly seq: number };

export type SweepStepReport = {
  readonly mask: boolean;
  readonly done: boolean;
  /** Where the next step starts; null when done. */
  readonly cursor: string | null;
  /** Chats whose objects are swept, of all chats; the D1 stage follows them. */
  readonly progress: {
    readonly stage: "objects" | "d1" | "done";
    readonly chatsBefore: number;
    readonly chats: number;
  };
  /** The chat objects' logs in this step: rows read and rows holding a value. */
  readonly log: { readonly read: number; readonly holding: number };
  /** Rows of short-term context, dream journals and reply plans holding a value. */
  readonly other: number;
  /** D1's log in this step. */
  readonly d1: { readonly read: number; readonly holding: number };
  /** Chats whose object failed in this step: not swept. */
  readonly unswept: readonly { readonly chat: string; readonly error: string }[];
};

/** `o:<seq>:<chat key>` or `d1:<seq>`; anything else is no cursor of this sweep. */
export function parseSweepCursor(raw: string): Cursor | null {
  const object = /^o:(\d{1,15}):(.{1,300})$/s.exec(raw);
  if (object) return { stage: "objects", chat: object[2] ?? "", seq: Number(object[1]) };
  const d1 = /^d1:(\d{1,15})$/.exec(raw);
  return d1 ? { stage: "d1", seq: Number(d1[1]) } : null;
}

const cursorText = (c: Cursor) => (c.stage === "objects" ? `o:${c.seq}:${c.chat}` : `d1:${c.seq}`);

export function credentialSweepService(env: Env, who: AdminRequest) {
  const nextChat = async (after: string | null): Promise<Cursor> => {
    const chat = await chatAfter(env.DB, after);
    return chat === null ? { stage: "d1", seq: 0 } : { stage: "objects", chat, seq: 0 };
  };
  return {
    async step(ask: {
      mask: boolean;
      cursor: string | null;
      maxMs?: number;
    }): Promise<Result<SweepStepReport, string>> {
      const given = ask.cursor === null ? null : parseSweepCursor(ask.cursor);
      if (ask.cursor !== null && given === null) return err("is not a cursor of this sweep");
      const deadline = Date.now() + (ask.maxMs ?? DEFAULT_STEP_MS);
      const totals = { log: { read: 0, holding: 0 }, other: 0, d1: { read: 0, holding: 0 } };
      const unswept: { chat: string; error: string }[] = [];
      let at: Cursor | null = given ?? (await nextChat(null));
      for (let calls = 0; at !== null && Date.now() < deadline && calls < MAX_CALLS; calls += 2) {
        if (at.stage === "d1") {
          const page = await sweepD1LogPage(env.DB, { mask: ask.mask, afterSeq: at.seq, maxRows: D1_ROWS });
          totals.d1.read += page.read;
          totals.d1.holding += page.holding;
          at = page.nextSeq === null ? null : { stage: "d1", seq: page.nextSeq };
          continue;
        }
        const chat: string = at.chat;
        const seq: number = at.seq;
        const address = parseChatKey(chat);
        // A key that names no chat has no object: D1's stage reads its rows.
        if (!address.ok) {
          at = await nextChat(chat);
          continue;
        }
        try {
          const page = await chatObject(env, chatKeyOf(address.value)).sweepCredentials({
            mask: ask.mask,
            afterSeq: seq,
            maxRows: OBJECT_ROWS,
          });
          totals.log.read += page.read;
          totals.log.holding += page.holding;
          totals.other += page.other;
          at = page.nextSeq === null ? await nextChat(chat) : { stage: "objects", chat, seq: page.nextSeq };
        } catch (e) {
          unswept.push({ chat, error: e instanceof Error ? e.message : String(e) });
          at = await nextChat(chat);
        }
      }
      const report = await reportOf(env.DB, ask.mask, at, totals, unswept);
      if (ask.mask && totals.log.holding + totals.other + totals.d1.holding > 0)
        await new D1AuditLog(env.DB).record({
          at: Date.now(),
          actor: who.actor,
          action: "log_credentials.mask",
          chatKey: null,
          target: "message_log",
          detail: { via: who.via, log: totals.log.holding, other: totals.other, d1: totals.d1.holding },
        });
      return ok(report);
    },
  };
}

async function reportOf(
  db: D1Database,
  mask: boolean,
  at: Cursor | null,
  totals: Pick<SweepStepReport, "log" | "other" | "d1">,
  unswept: SweepStepReport["unswept"],
): Promise<SweepStepReport> {
  const position = await chatPosition(db, at?.stage === "objects" ? at.chat : null);
  const chatsBefore = at?.stage === "objects" ? position.before : position.total;
  const stage = at === null ? "done" : at.stage;
  return {
    mask,
    done: at === null,
    cursor: at === null ? null : cursorText(at),
    progress: { stage, chatsBefore, chats: position.total },
    ...totals,
    unswept,
  };
}
