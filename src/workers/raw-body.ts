/**
 * Reads a request body as bytes with a hard size cap, before anything parses it: signatures
 * are computed over the raw bytes, and an oversized body must be refused without buffering
 * all of it.
 */
import { parseBoundedJson } from "../domain/kernel/bounded-json";

export type RawBody = { ok: true; bytes: Uint8Array } | { ok: false; status: 411 | 413; reason: string };

export async function readRawBody(request: Request, maxBytes: number): Promise<RawBody> {
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > maxBytes) {
    return { ok: false, status: 413, reason: `body larger than ${maxBytes} bytes` };
  }
  if (!request.body) return { ok: true, bytes: new Uint8Array(0) };
  // A declared length within the cap lets the runtime read the body natively; the count is
  // still checked, since a sender may send more than it declared.
  if (declared !== null && /^[0-9]+$/.test(declared)) {
    const bytes = new Uint8Array(await request.arrayBuffer());
    return bytes.byteLength > maxBytes
      ? { ok: false, status: 413, reason: `body larger than ${maxBytes} bytes` }
      : { ok: true, bytes };
  }
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      return { ok: false, status: 413, reason: `body larger than ${maxBytes} bytes` };
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { ok: true, bytes };
}

/**
 * Parses JSON from bytes: refused when the bytes are not UTF-8, not JSON, or nest deeper than
 * `MAX_JSON_DEPTH` (checked before parsing, so nothing deep is ever built).
 */
export function parseJsonBytes(
  bytes: Uint8Array,
): { ok: true; value: unknown } | { ok: false; reason: string } {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch (e) {
    return { ok: false, reason: `malformed JSON: ${(e as Error).message}` };
  }
  const parsed = parseBoundedJson(text);
  if (parsed.ok) return parsed;
  return { ok: false, reason: parsed.tooDeep ? parsed.reason : `malformed JSON: ${parsed.syntax}` };
}
