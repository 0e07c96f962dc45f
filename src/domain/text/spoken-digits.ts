/**
 * Digits as people read them out in Chinese: 零 and 〇 for zero, 一 for one, and the radio way,
 * 幺 for one and 洞 for zero ("幺洞洞幺"). Credential and personal-number rules read values said
 * this way (docs/decisions/0530-described-credential-values.md,
 * docs/decisions/0540-personal-numbers-as-people-write-them.md).
 */
const DIGIT_OF: Readonly<Record<string, string>> = {
  零: "0",
  〇: "0",
  洞: "0",
  幺: "1",
  一: "1",
  二: "2",
  三: "3",
  四: "4",
  五: "5",
  六: "6",
  七: "7",
  八: "8",
  九: "9",
};

/** The spoken digits, for a regular expression's character class. */
export const SPOKEN_DIGITS = Object.keys(DIGIT_OF).join("");

/** `text` with every spoken digit written as its ASCII digit; other characters as they were. */
export function asDigits(text: string): string {
  return [...text].map((c) => DIGIT_OF[c] ?? c).join("");
}
