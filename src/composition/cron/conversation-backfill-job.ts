/** The cron's backfill of conversation sessions and turn windows for messages logged before the log kept them. */
import { D1ConversationBackfill, runConversationBackfill } from "../../adapters/d1/d1-conversation-backfill";

/** Steps of one cron run (1,000 messages each at most); the next run continues from the cursor. */
const STEPS_PER_RUN = 20;

export function conversationBackfillJob(env: Env) {
  return runConversationBackfill(new D1ConversationBackfill(env.DB), STEPS_PER_RUN);
}
