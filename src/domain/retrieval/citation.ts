/** Stable citations {collection, source, path, node_id} and their one-line rendering. */
import type { ContextNode } from "./context-node";

export type Citation = {
  readonly collection: string | null;
  readonly source: string | null;
  readonly path: readonly string[];
  readonly node_id: string;
};

export function citationOf(node: ContextNode): Citation {
  return { collection: node.collection, source: node.sourceId, path: node.path, node_id: node.nodeId };
}

/** `genshin/阿贝多.md › 阿贝多 > 角色故事 > 角色故事 5 #n_…` */
export function formatCitation(c: Citation): string {
  const where = [c.collection, c.source].filter(Boolean).join("/");
  const path = c.path.length > 0 ? ` › ${c.path.join(" > ")}` : "";
  return `${where}${path} #${c.node_id}`;
}
