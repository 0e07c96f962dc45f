/**
 * The text privacy requests are read on, by the phrase rules (privacy-request.ts) and by the
 * trained reader (request-reader.ts) alike: the detection text (detection-text.ts: traditional
 * folded to simplified, full-width and invisible characters folded), lower-cased, with Cantonese
 * and Hokkien request words read as Mandarin (request-dialects.ts) and the typos of request words
 * fixed (request-typos.ts).
 */
import { type DetectionText, detectionText } from "../text/detection-text";
import { foldRequestDialects } from "./request-dialects";
import { fixRequestTypos } from "./request-typos";

/** Quoted speech: “…”, "…", 「…」, 『…』, 《…》, and '…' after a verb of saying. */
const QUOTED =
  /“[^”]*”|"[^"]*"|「[^」]*」|『[^』]*』|《[^》]*》|(?<=(?:said|says|say|told\s+me)\s+)'[^']*'/giu;

function lowered(t: DetectionText): DetectionText {
  const lower = t.text.toLowerCase();
  return lower.length === t.text.length ? { ...t, text: lower } : t;
}

/** `text` as privacy requests are read, each character still mapped to the original. */
export function requestText(text: string): DetectionText {
  return fixRequestTypos(foldRequestDialects(lowered(detectionText(text))));
}

/**
 * The text with quoted speech blanked, same length: someone else's request quoted
 * ("他说「别告诉别人」") is not the speaker's.
 */
export function blankQuotes(text: string): string {
  return text.replace(QUOTED, (q) => "_".repeat(q.length));
}
