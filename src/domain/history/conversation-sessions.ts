/**
 * How the live message log is cut into conversation sessions (the session → turn trees of
 * history search): a session ends when a chat is silent for longer than the gap. The rule is
 * the one the database triggers of the log apply (migrations/0180_conversation_sessions.sql,
 * which spells the gap out in milliseconds); the backfill of older messages segments with this
 * module, and a test holds both to the same sessions.
 *
 * Why a gap and not the local day: LoCoMo's sessions (hours to weeks apart, turns seconds
 * apart) come out the same for any gap between a minute and a day, so the evaluation cannot
 * pick the value; a chat that runs past midnight is one conversation, and 30 minutes of
 * silence is where group chats change topic (docs/decisions/0008-conversation-sessions-and-turn-windows.md).
 */

/** Silence that ends a conversation session. */
export const CONVERSATION_GAP_MS = 30 * 60 * 1000;

/** A message as segmentation reads it: its position in reading order (ts, then seq). */
export type SessionPoint = { readonly seq: number; readonly ts: number };

export type SessionSpan = {
  readonly firstSeq: number;
  readonly lastSeq: number;
  readonly firstTs: number;
  readonly lastTs: number;
  readonly messages: number;
};

/**
 * One chat's messages, in reading order, as consecutive sessions: a message more than the gap
 * after the one before it opens a new session.
 */
export function segmentSessions(points: readonly SessionPoint[]): SessionSpan[] {
  const out: SessionSpan[] = [];
  for (const p of points) {
    const current = out.at(-1);
    if (current && p.ts - current.lastTs <= CONVERSATION_GAP_MS) {
      out[out.length - 1] = { ...current, lastSeq: p.seq, lastTs: p.ts, messages: current.messages + 1 };
    } else {
      out.push({ firstSeq: p.seq, lastSeq: p.seq, firstTs: p.ts, lastTs: p.ts, messages: 1 });
    }
  }
  return out;
}
