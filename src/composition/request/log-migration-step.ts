/**
 * One bounded step of the owner's copy of each chat's D1 log into its object
 * (docs/storage.md#moving-the-log-into-the-chat-objects). Per chat: pages of D1 rows in seq
 * order go to the chat's object, which writes each row once; the cursor in `log_migration` moves
 * only after the object took the page; at the end the object compares its count with D1's and
 * only then reads its own log. Every write is idempotent and the cursor moves after the write it
 * records, so a step cut off anywhere is finished by the next one: a page sent twice is written
 * once, and no page is skipped.
 */
import type {
  D1LogMigrationLedger,
  D1LogPages,
  D1LogRow,
  LogMigrationRecord,
  LogMigrationTotals,
} from "../../adapters/d1/d1-log-migration";
import type { MessageLogRow } from "../../domain/history/message-log-row";

/** What the job asks of a chat's object (ChatSession's migration methods). */
export type ChatLogObject = {
  logHome(): Promise<"object" | "d1">;
  logCount(): Promise<number>;
  importLog(rows: MessageLogRow[]): Promise<{ ok: true } | { ok: false; reason: string }>;
  finishImport(
    expectedCount: number,
  ): Promise<
    | { verified: true }
    | { verified: false; count: number; expected: number; difference: number }
    | { verified: false; refused: string }
  >;
};

export type LogMigrationPorts = {
  readonly ledger: Pick<
    D1LogMigrationLedger,
    "discover" | "copying" | "advance" | "settle" | "totals" | "list"
  >;
  readonly pages: Pick<D1LogPages, "page" | "count">;
  readonly object: (chatKey: string) => ChatLogObject;
  readonly now: () => number;
};

export type StepBudget = {
  /** Rows per page sent to an object (one transaction there). */
  readonly pageSize: number;
  /** Rows a step sends at most; it stops after the page that reaches it. */
  readonly maxRows: number;
  /** Time a step starts new pages in; a page under way finishes. */
  readonly maxMs: number;
  /**
   * Chats a step works on at most: each costs a few D1 queries and object calls besides its
   * pages, and a request has a bounded number of those.
   */
  readonly maxChats: number;
};

export const DEFAULT_BUDGET: StepBudget = { pageSize: 500, maxRows: 5000, maxMs: 15_000, maxChats: 50 };

export type LogMigrationProgress = {
  chats: { total: number; copying: number; verified: number; mismatch: number; skipped: number };
  rows: { copied: number; total: number };
  /** Every chat with D1 messages is verified, skipped or a mismatch: nothing left to copy. */
  done: boolean;
  /** Chats that did not verify (at most 50), with why. */
  mismatches: { chatKey: string; detail: string | null }[];
};

export type StepReport = LogMigrationProgress & {
  step: { rows: number; settled: number; chats: number; ms: number };
};

const CHATS_PER_READ = 20;

/** Runs one step within `budget` and reports where the whole copy stands after it. */
export async function logMigrationStep(ports: LogMigrationPorts, budget: StepBudget): Promise<StepReport> {
  const started = ports.now();
  const spent = { rows: 0, settled: 0, chats: 0 };
  const left = () => spent.rows < budget.maxRows && ports.now() - started < budget.maxMs;
  let discovered = false;
  while (left()) {
    const chats = await ports.ledger.copying(CHATS_PER_READ);
    if (chats.length === 0) {
      // Chats whose D1 rows arrived since the last look (or the very first step) join the copy.
      if (discovered) break;
      discovered = true;
      if ((await ports.ledger.discover(ports.now())) === 0) break;
      continue;
    }
    const before = spent.rows + spent.settled;
    for (const chat of chats) {
      if (!left() || spent.chats >= budget.maxChats) break;
      spent.chats++;
      await copyChat(ports, chat, budget, spent, left);
    }
    // Every chat read was left to another step under way: this one has nothing to do.
    if (spent.rows + spent.settled === before || spent.chats >= budget.maxChats) break;
  }
  return { ...(await logMigrationProgress(ports.ledger)), step: { ...spent, ms: ports.now() - started } };
}

/** Where the copy stands, read from `log_migration` alone. */
export async function logMigrationProgress(
  ledger: Pick<D1LogMigrationLedger, "totals" | "list">,
): Promise<LogMigrationProgress> {
  const t: LogMigrationTotals = await ledger.totals();
  const listed = t.mismatch > 0 ? await ledger.list(50) : [];
  return {
    chats: {
      total: t.chats,
      copying: t.copying,
      verified: t.verified,
      mismatch: t.mismatch,
      skipped: t.skipped,
    },
    rows: { copied: t.copied, total: t.rows },
    done: t.chats > 0 && t.copying === 0,
    mismatches: listed
      .filter((r) => r.state === "mismatch")
      .map((r) => ({ chatKey: r.chatKey, detail: r.detail })),
  };
}

const withoutSeq = ({ seq: _seq, ...row }: D1LogRow): MessageLogRow => row;

/**
 * Copies one chat from its cursor while the budget lasts, and verifies it once D1 has no row
 * past the cursor. A chat whose object already reads its own log and holds as many rows as D1
 * (a chat first seen after the move) is skipped.
 */
async function copyChat(
  ports: LogMigrationPorts,
  chat: LogMigrationRecord,
  budget: StepBudget,
  spent: { rows: number; settled: number },
  left: () => boolean,
): Promise<void> {
  const key = chat.chatKey;
  const object = ports.object(key);
  if (chat.lastSeq === 0 && (await object.logHome()) === "object") {
    const [held, d1] = await Promise.all([object.logCount(), ports.pages.count(key)]);
    if (held >= d1) return settle(ports, spent, key, { state: "skipped", d1Count: d1, detail: null });
  }
  let cursor = chat.lastSeq;
  while (left()) {
    const page = await ports.pages.page(key, cursor, budget.pageSize);
    const last = page.at(-1);
    if (last) {
      const taken = await object.importLog(page.map(withoutSeq));
      if (!taken.ok)
        return settle(ports, spent, key, {
          state: "mismatch",
          d1Count: chat.d1Count,
          detail: `refused: ${taken.reason}`,
        });
      // Another step moved the cursor first: it counted this page; leave the chat to it.
      if (!(await ports.ledger.advance(key, cursor, last.seq, page.length, ports.now()))) return;
      cursor = last.seq;
      spent.rows += page.length;
    }
    if (page.length < budget.pageSize) return verify(ports, spent, key, object);
  }
}

async function verify(
  ports: LogMigrationPorts,
  spent: { settled: number },
  key: string,
  object: ChatLogObject,
): Promise<void> {
  const expected = await ports.pages.count(key);
  const f = await object.finishImport(expected);
  if (f.verified) return settle(ports, spent, key, { state: "verified", d1Count: expected, detail: null });
  const detail =
    "refused" in f
      ? `refused: ${f.refused}`
      : `object ${f.count}, D1 ${f.expected} (${f.difference > 0 ? "+" : ""}${f.difference})`;
  return settle(ports, spent, key, { state: "mismatch", d1Count: expected, detail });
}

async function settle(
  ports: LogMigrationPorts,
  spent: { settled: number },
  key: string,
  outcome: Parameters<LogMigrationPorts["ledger"]["settle"]>[1],
): Promise<void> {
  await ports.ledger.settle(key, outcome, ports.now());
  spent.settled++;
}
