/**
 * The table test of security answers: each message with the answers that must be found and
 * masked, and near misses in which none may be found.
 */
import { findSecurityAnswers } from "@src/domain/privacy/credential-security-answers";
import { maskCredentials } from "@src/domain/privacy/credentials";
import { describe, it } from "vitest";

const values = (text: string) => findSecurityAnswers(text).map((f) => text.slice(f.start, f.end));

export function describeAnswers(
  title: string,
  answered: Readonly<Record<string, readonly string[]>>,
  notAnswered: readonly string[],
): void {
  describe(title, () => {
    it.for(Object.entries(answered))("reads %j", ([text, answers], { expect }) => {
      const found = values(text);
      for (const answer of answers) {
        expect(found.some((v) => v.includes(answer))).toBe(true);
        expect(maskCredentials(text)).not.toContain(answer);
      }
    });
    it.for(notAnswered)("finds no answer in %j", (text, { expect }) => {
      expect(values(text)).toEqual([]);
    });
  });
}
