import { maskSensitiveData } from "@src/domain/privacy/credentials";
import { describe, it } from "vitest";
import { CREDENTIAL_SAMPLES, type CredentialSample } from "../../support/credential-corpus";
import { throughCredentialCues } from "../../support/credential-cues";

const positives = CREDENTIAL_SAMPLES.filter((s) => s.label === "credential");
const negatives = CREDENTIAL_SAMPLES.filter((s) => s.label === "none");

/** What the log keeps of a sample: each message masked on arrival, then read with the sender's cues. */
function kept(sample: CredentialSample): string {
  if (!sample.messages) return maskSensitiveData(sample.text);
  return throughCredentialCues(sample.messages.map((text) => maskSensitiveData(text))).join(" / ");
}

describe("the credential corpus", () => {
  it("holds at least 400 positives and 300 near misses across the classes, split dev and held", ({
    expect,
  }) => {
    expect(positives.length).toBeGreaterThanOrEqual(400);
    expect(negatives.length).toBeGreaterThanOrEqual(300);
    const classes = new Set(positives.map((p) => p.class));
    for (const c of [
      "password-zh-hant",
      "value-first",
      "login-pair",
      "disguised",
      "slang-pinyin",
      "code",
      "announced",
      "seed-phrase",
      "cn-id",
      "bank-card",
      "cn-mobile",
      "header-url",
      "value-words",
      "far-value",
      "bare-key",
      "short-forms",
      "described",
      "command-line",
      "travel-document",
    ])
      expect(classes).toContain(c);
    expect(new Set(CREDENTIAL_SAMPLES.map((s) => s.split))).toEqual(new Set(["dev", "held"]));
  });

  it.for(positives.map((p) => [p.class, p.text, p] as const))("masks [%s] %s", ([, , sample], { expect }) => {
    const out = kept(sample);
    if (sample.words) {
      expect(sample.words.filter((w) => new RegExp(`\\b${w}\\b`, "i").test(out)).length).toBeLessThanOrEqual(
        2,
      );
    } else expect(out).not.toContain(sample.secret);
  });

  it.for(negatives.map((n) => [n.class, n.text, n] as const))(
    "leaves alone [%s] %s",
    ([, , sample], { expect }) => {
      expect(kept(sample)).toBe(sample.messages ? sample.messages.join(" / ") : sample.text);
    },
  );
});
