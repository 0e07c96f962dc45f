/**
 * A pure, deterministic content hash (no Web Crypto, so the domain stays free of runtime
 * types): two independent 53-bit cyrb53 lanes over the UTF-16 code units, 106 bits in all,
 * as 28 hex digits. Used to skip unchanged documents, to key the embeddings cache and to
 * derive stable node ids — not for security.
 */

/** cyrb53 with a seed: a fast 53-bit string hash (also the per-chat FTS namespaces and memory ids). */
export function cyrb53(text: string, seed = 0): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

function bytesHash(bytes: Uint8Array, seed: number): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i] ?? 0;
    h1 = Math.imul(h1 ^ b, 2654435761);
    h2 = Math.imul(h2 ^ b, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0) + bytes.length;
}

const hex14 = (n: number): string => n.toString(16).padStart(14, "0");

/** 28 hex digits identifying `text`. */
export function contentHash(text: string): string {
  return hex14(cyrb53(text, 0)) + hex14(cyrb53(text, 0x9e3779b9));
}

/** 28 hex digits identifying a file's bytes. */
export function bytesContentHash(bytes: Uint8Array): string {
  return hex14(bytesHash(bytes, 0)) + hex14(bytesHash(bytes, 0x9e3779b9));
}
