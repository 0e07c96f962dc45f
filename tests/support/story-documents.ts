// Generated 稻妻 story documents for the knowledge-search tests against D1, and the D1 index and
// store they are searched through.
import { env } from "cloudflare:workers";
import { D1ContextStore } from "@src/adapters/d1/d1-context-store";
import { D1KeywordIndex } from "@src/adapters/d1/d1-keyword-index";
import type { NodeType } from "@src/domain/retrieval/context-node";
import { seededCollection } from "./knowledge-api";

export const index = new D1KeywordIndex(env.DB);
export const store = new D1ContextStore(env.DB);
export const PARENT_TYPES: NodeType[] = ["document", "section", "episode"];

const TOPICS = ["雷电将军", "鸣神大社", "影向山", "稻妻城", "天守阁", "神樱树"];
/** The i-th topic, round the list. */
export const topic = (i: number) => TOPICS[i % TOPICS.length];

/** Document d: `# 稻妻第d+1篇` and three sections, each a `##` heading and its passages. */
export const storyDoc = (d: number, section: (s: number) => { heading: string; passages: string[] }) =>
  [
    `# 稻妻第${d + 1}篇`,
    ...[0, 1, 2].flatMap((s) => {
      const { heading, passages } = section(s);
      return [`## ${heading}`, ...passages];
    }),
  ].join("\n\n");

/** A new collection (`prefix-…`, cut in `chunkSize` pieces) of `count` documents doc-0.md, doc-1.md, … written by `doc`. */
export const storyCollection = (
  prefix: string,
  chunkSize: number,
  count: number,
  doc: (d: number) => string,
) =>
  seededCollection(
    prefix,
    chunkSize,
    Array.from({ length: count }, (_, d) => ({ name: `doc-${d}.md`, content: doc(d) })),
  );
