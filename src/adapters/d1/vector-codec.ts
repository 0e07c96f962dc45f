/** Vectors in D1 BLOBs: float32 little-endian (migration 0002), written through hex + unhex(). */

export function vectorToHex(vector: readonly number[]): string {
  const bytes = new Uint8Array(new Float32Array(vector).buffer);
  let out = "";
  for (const b of bytes) out += b.toString(16).padStart(2, "0");
  return out;
}

/** hex(vector) as SQLite returns it → float32 values. */
export function hexToFloat32(hex: string): Float32Array {
  const bytes = new Uint8Array(hex.length >> 1);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(hex.substr(i * 2, 2), 16);
  return new Float32Array(bytes.buffer, 0, bytes.length >> 2);
}
