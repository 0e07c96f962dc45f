/** The content hash of a memory or summary node (`nodes.content_hash`). */

import { normalizeMemoryText } from "../../domain/memory/memory";

const encoder = new TextEncoder();

/** The node's content hash: SHA-256 of the normalized text (de-duplication, embeddings cache). */
export async function memoryContentHash(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", encoder.encode(normalizeMemoryText(text)));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}
