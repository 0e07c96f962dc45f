/**
 * Whether a logged message stays in the chat where it was said (docs/sessions.md#marked-messages):
 * the speaker's privacy request in their own words (src/domain/privacy/privacy-request.ts, which
 * leaves someone else's quoted request alone) marks the message; a message that is only such a
 * request ("这个别外传") marks itself and the same speaker's messages of the window before it —
 * the D1 triggers of migrations/0290 apply that part, whichever message reaches the log first.
 * Readers of another chat's log never see a marked message (src/adapters/d1/d1-message-gate.ts).
 */
import { isBarePrivacyRequest, privacyRequest } from "../privacy/privacy-request";

/** 0 = nothing asked, 1 = marked, 2 = a bare request: marked, and it marks what came before it. */
export type PrivacyMark = 0 | 1 | 2;

/**
 * How far back a bare request reaches: ten minutes of its speaker's messages. Dreaming applies a
 * bare request to the speaker's previous turn; the log, read by other chats, errs wider. The
 * migration's triggers hold the same number (600000).
 */
export const PRIVACY_MARK_WINDOW_MS = 10 * 60 * 1000;

/** The mark an inbound message's text gives it, by its speaker's own words. */
export function privacyMarkOf(text: string): PrivacyMark {
  if (privacyRequest(text) === null) return 0;
  return isBarePrivacyRequest(text) ? 2 : 1;
}
