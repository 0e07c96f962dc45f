/**
 * The memory store and index over the Worker's D1, for the local-only memory evaluation
 * (src/workers/dev/eval-memory.routes.ts); chat turns build theirs in chat-session-services.ts.
 */
import { D1MemoryStore } from "../adapters/d1/d1-memory-store";
import type { MemoryIndex, MemoryStore } from "../domain/memory/memory-store";

export function memoryStore(env: Env): MemoryStore & MemoryIndex {
  return new D1MemoryStore(env.DB);
}
