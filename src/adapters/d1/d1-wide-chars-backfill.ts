/**
 * The cron's count of wide characters (`nodes.wide_chars`, migration 0220) for knowledge rows
 * written before the import kept it, in bounded steps through the partial index of the rows
 * still missing it (migration 0221). Until a row is counted the search uses the character
 * bound, so the backfill only makes searches cheaper; it never changes what they return.
 */
import { wideChars } from "../../domain/text/token-estimate";
import { jsonChunks } from "./d1-json-chunks";

/** Rows counted per step: their texts cross to the Worker and back once. */
export const WIDE_CHARS_STEP_ROWS = 500;

export type WideCharsStep = {
  /** Rows read, and of them counted. */
  readonly rows: number;
  readonly counted: number;
  /** The last seq read: the next step starts after it. */
  readonly last: number;
  readonly done: boolean;
};

/** One step: counts up to `limit` of the rows still missing their count, after seq `after`. */
export async function wideCharsStep(
  db: D1Database,
  after = 0,
  limit = WIDE_CHARS_STEP_ROWS,
): Promise<WideCharsStep> {
  const { results } = await db
    .prepare(
      `SELECT seq, raw_text FROM nodes INDEXED BY nodes_wide_chars_missing
       WHERE wide_chars IS NULL AND scope_type = 'collection' AND seq > ?1 ORDER BY seq LIMIT ?2`,
    )
    .bind(after, limit)
    .all<{ seq: number; raw_text: string }>();
  const last = results.at(-1)?.seq ?? after;
  if (results.length === 0) return { rows: 0, counted: 0, last, done: true };
  // The text goes back with its count: a row whose text changed since it was read keeps NULL
  // and is counted by a later step, so no count ever belongs to another text.
  const rows = results.map((r) => [r.seq, r.raw_text, wideChars(r.raw_text)]);
  const written = await db.batch(
    jsonChunks(rows).map((chunk) =>
      db
        .prepare(
          `UPDATE nodes SET wide_chars = j.value ->> '$[2]' FROM json_each(?1) AS j
           WHERE nodes.seq = j.value ->> '$[0]' AND nodes.wide_chars IS NULL
             AND nodes.raw_text = j.value ->> '$[1]'`,
        )
        .bind(chunk),
    ),
  );
  const counted = written.reduce((n, w) => n + (w.meta.changes ?? 0), 0);
  return { rows: results.length, counted, last, done: results.length < limit };
}

/**
 * Steps until no row is left after the cursor or `maxSteps` ran; each run starts from the
 * beginning of what is left, and within it the cursor moves past a row whose count did not
 * land (its text changed meanwhile), so no row can hold the backfill in place.
 */
export async function runWideCharsBackfill(
  db: D1Database,
  maxSteps: number,
  limit = WIDE_CHARS_STEP_ROWS,
): Promise<{ counted: number; steps: number; done: boolean }> {
  let counted = 0;
  let after = 0;
  for (let steps = 1; steps <= maxSteps; steps++) {
    const r = await wideCharsStep(db, after, limit);
    counted += r.counted;
    after = r.last;
    if (r.done || steps === maxSteps) return { counted, steps, done: r.done };
  }
  return { counted, steps: 0, done: false };
}
