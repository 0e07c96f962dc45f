/**
 * The labelled share-marker corpus (tests/fixtures/privacy/shares.jsonl, described in its
 * README): private-chat messages that do, or do not, give permission to repeat them in groups.
 */
import text from "../fixtures/privacy/shares.jsonl?raw";
import { jsonLines } from "./json-lines";

export type LabelledShare = {
  readonly text: string;
  readonly label: "share" | "none";
  readonly lang: "zh-Hans" | "zh-Hant" | "en" | "mixed";
  readonly split: "dev" | "held";
};

export const SHARE_LINES: readonly LabelledShare[] = jsonLines(text);
