/** The cron's count of wide characters for knowledge rows written before the import kept it. */
import { runWideCharsBackfill } from "../../adapters/d1/d1-wide-chars-backfill";

/** Steps of one cron run (500 rows each at most); the next run continues with what is left. */
const STEPS_PER_RUN = 20;

export function wideCharsBackfillJob(env: Env) {
  return runWideCharsBackfill(env.DB, STEPS_PER_RUN);
}
