/**
 * The values in Chinese words of the blind sets the reader of such values learns from
 * (HAN_READ_SETS in scripts/eval/credentials.mjs): three to ten Han characters, each once.
 */
import hanA from "../fixtures/privacy/credentials-read-han-a.jsonl?raw";
import hanB from "../fixtures/privacy/credentials-read-han-b.jsonl?raw";
import hanC from "../fixtures/privacy/credentials-read-han-c.jsonl?raw";
import hanD from "../fixtures/privacy/credentials-read-han-d.jsonl?raw";
import hanE from "../fixtures/privacy/credentials-read-han-e.jsonl?raw";
import hanF from "../fixtures/privacy/credentials-read-han-f.jsonl?raw";
import hanI from "../fixtures/privacy/credentials-read-han-i.jsonl?raw";
import hanJ from "../fixtures/privacy/credentials-read-han-j.jsonl?raw";
import lookalikes from "../fixtures/privacy/credentials-read-han-lookalikes.jsonl?raw";
import security4 from "../fixtures/privacy/credentials-read-security-4.jsonl?raw";
import security5 from "../fixtures/privacy/credentials-read-security-5.jsonl?raw";
import { jsonLines } from "./json-lines";

type Line = {
  readonly label: string;
  readonly secret?: string;
  readonly text?: string;
  readonly messages?: unknown;
};

export const HAN_READ_SECRETS: readonly string[] = [
  ...new Set(
    [hanA, hanB, hanC, hanD, hanE, hanF, hanI, hanJ, lookalikes, security4, security5]
      .flatMap((text) => jsonLines<Line>(text))
      .flatMap((l) =>
        l.label !== "none" && /^\p{Script=Han}{3,10}$/u.test(l.secret ?? "") ? [l.secret as string] : [],
      ),
  ),
];

/** The messages of the Chinese-word sets (a to j) that hold a value, each with its value. */
export const HAN_READ_LINES: readonly { readonly text: string; readonly secret: string }[] = [
  hanA,
  hanB,
  hanC,
  hanD,
  hanE,
  hanF,
  hanI,
  hanJ,
]
  .flatMap((text) => jsonLines<Line>(text))
  .flatMap((l) =>
    l.label !== "none" && l.secret && l.text && !l.messages ? [{ text: l.text, secret: l.secret }] : [],
  );
