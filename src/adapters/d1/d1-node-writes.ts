/**
 * Bulk node and edge inserts for D1: rows bound as JSON arrays (see d1-json-chunks.ts), so a
 * document of any size takes a handful of statements, each far below the 100-parameter and
 * 100 KB limits. The FTS rows and the collection's token counts follow from the insert
 * triggers (migrations 0002, 0200).
 */
import type { NewEdge, NewNode } from "../../domain/retrieval/context-node";
import { wideChars } from "../../domain/text/token-estimate";
import { jsonChunks } from "./d1-json-chunks";

const NODE_COLUMNS = [
  "node_id",
  "parent_id",
  "root_id",
  "path",
  "position",
  "node_type",
  "source_type",
  "source_id",
  "scope_type",
  "scope_id",
  "collection",
  "title",
  "raw_text",
  "retrieval_text",
  "retrieval_tokens",
  "metadata",
  "provenance",
  "importance",
  "sensitivity",
  "portable",
  "status",
  "content_hash",
  // Lets the search bound a family's token estimate without its text (migration 0220).
  "wide_chars",
] as const;

const column = (name: (typeof NODE_COLUMNS)[number]) => `value ->> '$[${NODE_COLUMNS.indexOf(name)}]'`;

/**
 * A collection's rows carry its FTS namespace (migration 0200): their tokens are indexed
 * under it, so a search of one collection reads only that collection's postings.
 */
const FTS_NAMESPACE = `(SELECT c.fts_ns FROM kb_collections c
  WHERE ${column("scope_type")} = 'collection' AND c.name = ${column("scope_id")})`;

const INSERT_NODES = `INSERT INTO nodes (${NODE_COLUMNS.join(", ")}, fts_ns, created_at, updated_at)
  SELECT ${NODE_COLUMNS.map(column).join(", ")}, ${FTS_NAMESPACE}, ?2, ?2 FROM json_each(?1)`;

function nodeRow(n: NewNode): unknown[] {
  return [
    n.nodeId,
    n.parentId,
    n.rootId,
    JSON.stringify(n.path),
    n.position,
    n.nodeType,
    n.sourceType,
    n.sourceId,
    n.scopeType,
    n.scopeId,
    n.collection,
    n.title,
    n.rawText,
    n.retrievalText,
    n.retrievalTokens,
    JSON.stringify(n.metadata),
    JSON.stringify(n.provenance),
    n.importance ?? 0.5,
    n.sensitivity ?? "public",
    n.portable === false ? 0 : 1,
    n.status ?? "active",
    n.contentHash,
    wideChars(n.rawText),
  ];
}

export function insertNodesStatements(
  db: D1Database,
  nodes: readonly NewNode[],
  now: number,
): D1PreparedStatement[] {
  return jsonChunks(nodes.map(nodeRow)).map((chunk) => db.prepare(INSERT_NODES).bind(chunk, now));
}

export function insertEdgesStatements(
  db: D1Database,
  edges: readonly NewEdge[],
  now: number,
): D1PreparedStatement[] {
  return jsonChunks(edges.map((e) => [e.src, e.dst, e.type])).map((chunk) =>
    db
      .prepare(
        `INSERT OR IGNORE INTO edges (src_id, dst_id, edge_type, created_at)
         SELECT value ->> '$[0]', value ->> '$[1]', value ->> '$[2]', ?2 FROM json_each(?1)`,
      )
      .bind(chunk, now),
  );
}
