/**
 * Whether a logged message stays in the chat where it was said (docs/sessions.md#marked-messages):
 * the speaker's privacy request in their own words (src/domain/privacy/privacy-request.ts, which
 * leaves someone else's quoted request alone) marks the message, and the same speaker's messages
 * of the window on either side of it: people ask after ("我下个月离职" then "这个别外传") and ahead
 * ("跟你们说个事，别外传啊" then "我下个月离职"). The triggers of migrations/0290 and 0480 apply
 * the window, whichever message reaches the log first.
 * Readers of another chat's log never see a marked message (src/adapters/d1/d1-message-gate.ts).
 */
import { isBarePrivacyRequest, privacyRequest } from "../privacy/privacy-request";

/**
 * 0 = nothing asked; 1 = marked by a request near it (or, in rows logged before migration 0480, a
 * request); 2 = a bare request; 3 = a request with what it is about. 2 and 3 mark their speaker's
 * messages of the window on either side; 1 marks nothing more, so a mark never spreads further.
 */
export type PrivacyMark = 0 | 1 | 2 | 3;

/**
 * How far a request reaches: ten minutes of its speaker's messages on either side. Dreaming
 * applies a bare request to the speaker's previous turn and bounds the whole run by any request;
 * the log, read by other chats, errs wider. The migrations' triggers hold the same number (600000).
 */
export const PRIVACY_MARK_WINDOW_MS = 10 * 60 * 1000;

/** The mark an inbound message's text gives it, by its speaker's own words. */
export function privacyMarkOf(text: string): PrivacyMark {
  if (privacyRequest(text) === null) return 0;
  return isBarePrivacyRequest(text) ? 2 : 3;
}
