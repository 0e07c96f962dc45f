/**
 * D1 allows 100 bound parameters and 100 KB of SQL per statement, but a bound string may be
 * ~2 MB. Bulk writes therefore bind rows as one JSON array and expand it with json_each;
 * this splits rows into arrays that stay well under the string limit.
 */

/** Bytes of one JSON-bound chunk; under D1's 2,000,000-byte string limit with margin. */
export const JSON_CHUNK_BYTES = 900_000;

const encoder = new TextEncoder();

export function jsonChunks(rows: readonly unknown[], maxBytes = JSON_CHUNK_BYTES): string[] {
  const chunks: string[] = [];
  let current: string[] = [];
  let bytes = 2;
  for (const row of rows) {
    const text = JSON.stringify(row);
    const size = encoder.encode(text).byteLength + 1;
    if (size + 2 > maxBytes) throw new RangeError(`one row is ${size} bytes; the limit is ${maxBytes}`);
    if (current.length > 0 && bytes + size > maxBytes) {
      chunks.push(`[${current.join(",")}]`);
      current = [];
      bytes = 2;
    }
    current.push(text);
    bytes += size;
  }
  if (current.length > 0) chunks.push(`[${current.join(",")}]`);
  return chunks;
}
