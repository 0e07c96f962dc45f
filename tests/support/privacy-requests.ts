/**
 * The labelled privacy-request corpus (tests/fixtures/privacy/requests.jsonl, described in its
 * README): messages in which a person asks, or does not ask, that what they said stay where
 * they said it.
 */
import text from "../fixtures/privacy/requests.jsonl?raw";

export type LabelledRequest = {
  readonly text: string;
  readonly label: "request" | "none";
  readonly lang: "zh-Hans" | "zh-Hant" | "en" | "mixed";
  readonly variant: "plain" | "slang" | "typo" | "next-message";
  readonly split: "dev" | "held";
  /** next-message: the same person's statement right before `text`, which `text` marks. */
  readonly previous?: string;
  /** next-message: the same person's message right after `text`, which marks `text`. */
  readonly next?: string;
};

export const PRIVACY_REQUESTS: readonly LabelledRequest[] = text
  .split("\n")
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l) as LabelledRequest);
