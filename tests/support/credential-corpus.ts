/**
 * The labelled credential corpus (tests/fixtures/privacy/credentials.jsonl, described in the
 * folder's README): messages that carry a secret or a personal number, by class, and near
 * misses of each class.
 */
import text from "../fixtures/privacy/credentials.jsonl?raw";
import { jsonLines } from "./json-lines";

export type CredentialSample = {
  readonly text: string;
  readonly label: "credential" | "none";
  readonly class: string;
  /** The value that must not survive masking (positives). */
  readonly secret?: string;
  /** Seed phrases: the words of the phrase. */
  readonly words?: readonly string[];
  /** Announced values: the sender's messages in order; the value comes last. */
  readonly messages?: readonly string[];
  readonly split: "dev" | "held";
};

export const CREDENTIAL_SAMPLES: readonly CredentialSample[] = jsonLines(text);

/** One positive of each class (the first in the file), for tests that drive every class through a path. */
export function onePerClass(): CredentialSample[] {
  const seen = new Map<string, CredentialSample>();
  for (const s of CREDENTIAL_SAMPLES) {
    if (s.label === "credential" && !s.messages && !seen.has(s.class)) seen.set(s.class, s);
  }
  return [...seen.values()];
}
