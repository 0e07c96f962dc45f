/**
 * What the local-only dev wing (src/workers/dev) uses of the adapters, chosen here like every
 * other adapter (the `adapters-only-through-composition` rule): the platforms' signing, so the
 * dev console can post webhooks the real gate accepts; the eval's direct writes of a planned
 * conversation and its plain-text paragraphs; the memory store's content hash for the memory
 * bench's seeded items, the memory store the memory evaluation writes and recalls through, and
 * the person profiles the profile bench reads.
 */
import { jsonChunks } from "../../adapters/d1/d1-json-chunks";
import { D1MemoryStore } from "../../adapters/d1/d1-memory-store";
import { insertEdgesStatements, insertNodesStatements } from "../../adapters/d1/d1-node-writes";
import { D1ProfileStore } from "../../adapters/d1/d1-profile-store";
import { memoryContentHash } from "../../adapters/d1/memory-content-hash";
import { paragraphs } from "../../adapters/documents/text-decoding";
import { signOneBotBody } from "../../adapters/onebot/onebot-signature";
import { signQqMessage } from "../../adapters/qq/qq-signature";
import type { MemoryIndex, MemoryStore } from "../../domain/memory/memory-store";
import type { ProfileStore } from "../../domain/memory/profile-store";

export const webhookSigning = { qq: signQqMessage, oneBot: signOneBotBody } as const;

/** The D1 statements that write planned nodes and edges (the eval's seeded conversations). */
export const nodeWrites = { nodes: insertNodesStatements, edges: insertEdgesStatements } as const;

export { jsonChunks, memoryContentHash, paragraphs };

/** The memory store and index over the Worker's D1 (the memory evaluation, eval-memory.routes.ts). */
export function memoryStore(env: Env): MemoryStore & MemoryIndex {
  return new D1MemoryStore(env.DB);
}

/** The person profiles over the Worker's D1 (the profile bench, profile-bench.routes.ts). */
export function profileStore(env: Env): ProfileStore {
  return new D1ProfileStore(env.DB);
}
