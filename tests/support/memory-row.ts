/** Reads memory rows straight from D1: by a piece of their text, or which ids are still stored (integration tests). */
import { env } from "cloudflare:workers";

export type MemoryRow = { node_id: string; status: string; sensitivity: string; scope: string };

/** The memory row whose text holds `fragment`; throws when there is none. */
export async function memoryRowHolding(fragment: string): Promise<MemoryRow> {
  const row = await env.DB.prepare(
    "SELECT node_id, status, sensitivity, scope_type || ':' || scope_id AS scope FROM nodes WHERE node_type = 'memory' AND raw_text LIKE ?",
  )
    .bind(`%${fragment}%`)
    .first<MemoryRow>();
  if (!row) throw new Error(`no memory row holds ${fragment}`);
  return row;
}

/** Which of `ids` name a node still stored, in storage order. */
export const nodesStored = async (ids: readonly string[]) =>
  (
    await env.DB.prepare(`SELECT node_id FROM nodes WHERE node_id IN (${ids.map(() => "?").join(",")})`)
      .bind(...ids)
      .all<{ node_id: string }>()
  ).results.map((r) => r.node_id);
