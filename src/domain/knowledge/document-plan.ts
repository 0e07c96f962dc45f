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
  const documentId = `d_${contentHash(`${collection}\u0000${sourceId}\u0000${fileHash}`).slice(0, 24)}`;
  const outline = buildOutline(input.parsed.blocks);
  const tree = new TreeBuilder(input, documentId);
  const outlineText = flattenTitles(outline.sections).join("、").slice(0, OUTLINE_CHARS);
  tree.nodes.push(
    tree.node({
      ...tree.base("document"),
      nodeId: documentId,
      parentId: null,
      path: [],
      position: 0,
      title,
      rawText: title,
      retrievalText: buildRetrievalText({
        sourceTitle: title,
        path: [],
        aliases: input.parsed.aliases,
        text: [outlineText, lead(outline.blocks.length > 0 ? outline.blocks : firstBlocks(outline.sections))]
          .filter(Boolean)
          .join("\n"),
      }),
      metadata: { source_hash: fileHash, format: input.format, aliases: [...input.parsed.aliases] },
      provenance: tree.provenance([]),
    }),
  );
  const own = tree.addPassages(documentId, [], outline.blocks);
  outline.sections.forEach((s, i) => {
    tree.addSection(s, documentId, own + i);
  });
  return { documentId, nodes: tree.nodes, edges: tree.edges, counts: tree.counts };
}

/**
 * The nodes and edges of one document as they are added, depth-first: node ids follow the order
 * nodes are created in, so an unchanged document gets the same ids.
 */
class TreeBuilder {
  readonly nodes: NewNode[] = [];
  readonly edges: NewEdge[] = [];
  readonly counts = { sections: 0, passages: 0 };
  #ordinal = 0;
  readonly #scopeId: string;

  constructor(
    private readonly input: DocumentPlanInput,
    private readonly documentId: string,
  ) {
    this.#scopeId = collectionScope(input.collection).slice("collection:".length);
  }

  nextId(): string {
    return `n_${contentHash(`${this.documentId}\u0000${this.#ordinal++}`).slice(0, 24)}`;
  }

  base(nodeType: NodeType) {
    const { sourceId, collection } = this.input;
    return {
      nodeType,
      sourceType: "document",
      sourceId,
      scopeType: "collection",
      scopeId: this.#scopeId,
      collection,
      rootId: this.documentId,
    } as const;
  }

  provenance(path: readonly string[], page?: number) {
    return {
      kind: "document",
      file: this.input.sourceId,
      version: this.input.fileHash,
      format: this.input.format,
      ...(path.length > 0 ? { section: path.join(" > ") } : {}),
      ...(page ? { page } : {}),
    };
  }

  node(n: Omit<NewNode, "retrievalTokens" | "contentHash">): NewNode {
    return { ...n, contentHash: contentHash(n.retrievalText), retrievalTokens: indexText(n.retrievalText) };
  }

  /** The chunks of `blocks` as passages under `parentId`, chained by adjacency; returns how many. */
  addPassages(parentId: string, path: readonly string[], blocks: readonly TextBlock[]): number {
    const { title, parsed } = this.input;
    const chunks = chunkBlocks(blocks, this.input.chunk);
    let previous: string | null = null;
    chunks.forEach((chunk, position) => {
      const nodeId = this.nextId();
      this.nodes.push(
        this.node({
          ...this.base("passage"),
          nodeId,
          parentId,
          path,
          position,
          title: chunk.title ?? path.at(-1) ?? title,
          rawText: chunk.text,
          retrievalText: buildRetrievalText({
            sourceTitle: title,
            path,
            aliases: parsed.aliases,
            localTitle: chunk.title ?? null,
            text: chunk.text,
          }),
          metadata: chunk.page ? { page: chunk.page } : {},
          provenance: this.provenance(path, chunk.page),
        }),
      );
      this.edges.push({ src: parentId, dst: nodeId, type: "parent_of" });
      if (previous) this.edges.push({ src: previous, dst: nodeId, type: "adjacent_to" });
      previous = nodeId;
      this.counts.passages++;
    });
    return chunks.length;
  }

  /** A section node, its own passages, then its subsections, all under `parentId`. */
  addSection(section: OutlineSection, parentId: string, position: number): void {
    const nodeId = this.nextId();
    this.counts.sections++;
    this.nodes.push(
      this.node({
        ...this.base("section"),
        nodeId,
        parentId,
        path: section.path,
        position,
        title: section.title,
        rawText: section.title,
        retrievalText: buildRetrievalText({
          sourceTitle: this.input.title,
          path: section.path,
          aliases: this.input.parsed.aliases,
          text: [section.children.map((c) => c.title).join("、"), lead(section.blocks)]
            .filter(Boolean)
            .join("\n"),
        }),
        metadata: section.anchor
          ? { anchor: section.anchor, level: section.level }
          : { level: section.level },
        provenance: this.provenance(section.path),
      }),
    );
    this.edges.push({ src: parentId, dst: nodeId, type: "parent_of" });
    const own = this.addPassages(nodeId, section.path, section.blocks);
    section.children.forEach((child, i) => {
      this.addSection(child, nodeId, own + i);
    });
  }
}

const lead = (blocks: readonly TextBlock[]) =>
  blocks
    .map((b) => b.text)
    .join("\n")
    .slice(0, LEAD_CHARS);

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
