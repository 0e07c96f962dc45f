/**
 * The chat object's steps that mark messages near a privacy request (docs/sessions.md#marked-messages),
 * read from D1's own migrations so that the two logs run the same triggers by construction:
 *
 * - 0470: the bot's replies within ten minutes on either side of a bare request, whichever reaches
 *   the log first ("我下个月去做手术", the reply that echoes it, then "这个别说出去哈");
 * - 0480: a request's window on either side for its speaker's messages and the bot's replies,
 *   for requests with words of their own too ("跟你们说个事，别外传啊", then "我下个月离职";
 *   decision 0590), and the same pass over messages already logged.
 *
 * Wrangler bundles `.sql` files as text; the schema parity test reads both logs back.
 */
import replyMarking from "../../migrations/0470_reply_marking.sql";
import marksAhead from "../../migrations/0480_privacy_request_marks_ahead.sql";

export const REPLY_MARKING_TRIGGERS: string = replyMarking;
export const MARKS_AHEAD_TRIGGERS: string = marksAhead;
