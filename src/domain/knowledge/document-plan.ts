/**
 * Turns one converted document into the nodes and edges of its tree (docs/retrieval.md#context-store):
 * document → section (one per heading, nested) → passage (chunks of a section's own text),
 * with parent_of edges down the tree and adjacent_to edges between consecutive passages of
 * one parent. Ids derive from the collection, the source and the file's hash, so an
 * unchanged document keeps its ids and a changed one gets new ones (stable citations).
 */

import { contentHash } from "../kernel/content-hash";
import type { NewEdge, NewNode, NodeType } from "../retrieval/context-node";
import { collectionScope } from "../retrieval/scope-key";
import { indexText } from "../text/search-tokens";
import { type ChunkOptions, chunkBlocks } from "./chunking";
import type { DocumentFormat, ParsedDocument, TextBlock } from "./document";
import { buildOutline, type OutlineSection } from "./outline";
import { buildRetrievalText } from "./retrieval-text";

export type DocumentPlanInput = {
  readonly collection: string;
  readonly sourceId: string;
  readonly fileHash: string;
  readonly format: DocumentFormat;
  readonly title: string;
  readonly parsed: ParsedDocument;
  readonly chunk: ChunkOptions;
};

export type DocumentPlan = {
  readonly documentId: string;
  /** Document first, then depth-first: every parent precedes its children. */
  readonly nodes: readonly NewNode[];
  readonly edges: readonly NewEdge[];
  readonly counts: { readonly sections: number; readonly passages: number };
};

/** Characters of a section's leading text that its own retrieval text carries (navigation). */
const LEAD_CHARS = 300;
const OUTLINE_CHARS = 1500;

export function planDocument(input: DocumentPlanInput): DocumentPlan {
  const { collection, sourceId, fileHash, title } = input;
  const aliases = input.parsed.aliases;
  const scope = collectionScope(collection);
  const scopeId = scope.slice("collection:".length);
  const documentId = `d_${contentHash(`${collection}\u0000${sourceId}\u0000${fileHash}`).slice(0, 24)}`;
  const outline = buildOutline(input.parsed.blocks);
  const nodes: NewNode[] = [];
  const edges: NewEdge[] = [];
  let ordinal = 0;
  let sections = 0;
  let passages = 0;

  const nextId = () => `n_${contentHash(`${documentId}\u0000${ordinal++}`).slice(0, 24)}`;
  const base = (nodeType: NodeType) =>
    ({
      nodeType,
      sourceType: "document",
      sourceId,
      scopeType: "collection",
      scopeId,
      collection,
      rootId: documentId,
    }) as const;
  const provenance = (path: readonly string[], page?: number) => ({
    kind: "document",
    file: sourceId,
    version: fileHash,
    format: input.format,
    ...(path.length > 0 ? { section: path.join(" > ") } : {}),
    ...(page ? { page } : {}),
  });
  const node = (n: Omit<NewNode, "retrievalTokens" | "contentHash">): NewNode => ({
    ...n,
    contentHash: contentHash(n.retrievalText),
    retrievalTokens: indexText(n.retrievalText),
  });

  const addPassages = (parentId: string, path: readonly string[], blocks: readonly TextBlock[]): number => {
    const chunks = chunkBlocks(blocks, input.chunk);
    let previous: string | null = null;
    chunks.forEach((chunk, position) => {
      const nodeId = nextId();
      nodes.push(
        node({
          ...base("passage"),
          nodeId,
          parentId,
          path,
          position,
          title: chunk.title ?? path.at(-1) ?? title,
          rawText: chunk.text,
          retrievalText: buildRetrievalText({
            sourceTitle: title,
            path,
            aliases,
            localTitle: chunk.title ?? null,
            text: chunk.text,
          }),
          metadata: chunk.page ? { page: chunk.page } : {},
          provenance: provenance(path, chunk.page),
        }),
      );
      edges.push({ src: parentId, dst: nodeId, type: "parent_of" });
      if (previous) edges.push({ src: previous, dst: nodeId, type: "adjacent_to" });
      previous = nodeId;
      passages++;
    });
    return chunks.length;
  };

  const lead = (blocks: readonly TextBlock[]) =>
    blocks
      .map((b) => b.text)
      .join("\n")
      .slice(0, LEAD_CHARS);

  const addSection = (section: OutlineSection, parentId: string, position: number) => {
    const nodeId = nextId();
    sections++;
    nodes.push(
      node({
        ...base("section"),
        nodeId,
        parentId,
        path: section.path,
        position,
        title: section.title,
        rawText: section.title,
        retrievalText: buildRetrievalText({
          sourceTitle: title,
          path: section.path,
          aliases,
          text: [section.children.map((c) => c.title).join("、"), lead(section.blocks)]
            .filter(Boolean)
            .join("\n"),
        }),
        metadata: section.anchor
          ? { anchor: section.anchor, level: section.level }
          : { level: section.level },
        provenance: provenance(section.path),
      }),
    );
    edges.push({ src: parentId, dst: nodeId, type: "parent_of" });
    const own = addPassages(nodeId, section.path, section.blocks);
    section.children.forEach((child, i) => {
      addSection(child, nodeId, own + i);
    });
  };

  const outlineText = flattenTitles(outline.sections).join("、").slice(0, OUTLINE_CHARS);
  nodes.push(
    node({
      ...base("document"),
      nodeId: documentId,
      parentId: null,
      path: [],
      position: 0,
      title,
      rawText: title,
      retrievalText: buildRetrievalText({
        sourceTitle: title,
        path: [],
        aliases,
        text: [outlineText, lead(outline.blocks.length > 0 ? outline.blocks : firstBlocks(outline.sections))]
          .filter(Boolean)
          .join("\n"),
      }),
      metadata: { source_hash: fileHash, format: input.format, aliases: [...aliases] },
      provenance: provenance([]),
    }),
  );
  const own = addPassages(documentId, [], outline.blocks);
  outline.sections.forEach((s, i) => {
    addSection(s, documentId, own + i);
  });
  return { documentId, nodes, edges, counts: { sections, passages } };
}

function flattenTitles(sections: readonly OutlineSection[]): string[] {
  return sections.flatMap((s) => [s.title, ...flattenTitles(s.children)]);
}

function firstBlocks(sections: readonly OutlineSection[]): readonly TextBlock[] {
  for (const s of sections) {
    if (s.blocks.length > 0) return s.blocks;
    const inner = firstBlocks(s.children);
    if (inner.length > 0) return inner;
  }
  return [];
}
