/**
 * The labelled privacy-request corpus (tests/fixtures/privacy/requests.jsonl, described in its
 * README): messages in which a person asks, or does not ask, that what they said stay where
 * they said it. Beside it, the requests written blind as QQ groups type them
 * (requests-wild.jsonl).
 */
import text from "../fixtures/privacy/requests.jsonl?raw";
import wild from "../fixtures/privacy/requests-wild.jsonl?raw";
import { jsonLines } from "./json-lines";

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

export const PRIVACY_REQUESTS: readonly LabelledRequest[] = jsonLines(text);

/** A group message written blind: `lang` adds `yue` and `dialect` to the corpus's languages. */
export type WildRequest = {
  readonly text: string;
  readonly label: "request" | "none";
  readonly lang: string;
};

export const WILD_REQUESTS: readonly WildRequest[] = jsonLines(wild);
