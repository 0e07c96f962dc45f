/** The per-group progress record of a backfill (D1 `backfill_progress`) and its store. */

export type BackfillStatus = "running" | "done" | "failed";

export type BackfillProgress = {
  readonly chatKey: string;
  readonly status: BackfillStatus;
  /** The oldest message_seq seen so far: the next page ends before it. Null = start from the newest. */
  readonly cursor: number | null;
  readonly pages: number;
  readonly fetched: number;
  readonly stored: number;
  readonly skipped: number;
  readonly errors: number;
  readonly lastError: string | null;
  readonly doneReason: string | null;
  /** Times an admin restarted the record after it failed. */
  readonly restarts: number;
  /** `pages` at the last restart: the page bound counts the pages since. */
  readonly restartPages: number;
  readonly startedAt: number;
  readonly updatedAt: number;
};

export function newProgress(chatKey: string, at: number): BackfillProgress {
  return {
    chatKey,
    status: "running",
    cursor: null,
    pages: 0,
    fetched: 0,
    stored: 0,
    skipped: 0,
    errors: 0,
    lastError: null,
    doneReason: null,
    restarts: 0,
    restartPages: 0,
    startedAt: at,
    updatedAt: at,
  };
}

export interface BackfillProgressStore {
  /** Every record, newest update first. */
  list(): Promise<BackfillProgress[]>;
  /** One group's record; null before the cron first reached it. */
  get(chatKey: string): Promise<BackfillProgress | null>;
  save(progress: BackfillProgress): Promise<void>;
  /** OneBot group chats the registry knows (seen at least once), for a follow list of "*". */
  knownOneBotGroups(): Promise<string[]>;
}
