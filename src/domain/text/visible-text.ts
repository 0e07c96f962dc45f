/**
 * Names an admin enters or uploads (file names, collection titles, display names) as they are
 * seen. Unicode format characters draw nothing but change what is shown around them: a
 * right-to-left override makes `report\u202Etxt.exe` read as `reportexe.txt`, zero-width
 * characters make two names that look the same differ. They are removed before a name is
 * stored; control characters and line separators become a space. Nothing visible changes (one
 * cost: the zero-width non-joiner some scripts spell with is dropped too).
 */

/** Format characters: bidirectional controls and isolates, zero-width characters, BOM, tags. */
const FORMAT = /\p{Cf}/gu;
/** Control characters and line or paragraph separators. */
const BREAKING = /[\p{Cc}\p{Zl}\p{Zp}]+/gu;

export function visibleText(text: string): string {
  return text.replace(FORMAT, "").replace(BREAKING, " ").trim();
}

/** Longer text an admin enters (a description): format characters removed, lines kept. */
export function withoutFormatCharacters(text: string): string {
  return text.replace(FORMAT, "");
}

/** Whether the text holds anything visibleText would remove or replace. */
export function hasInvisibleControls(text: string): boolean {
  return /[\p{Cf}\p{Cc}\p{Zl}\p{Zp}]/u.test(text);
}
