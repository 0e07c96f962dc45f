/** Bytes → text for text formats: UTF-8 (BOM stripped), UTF-16 by BOM; invalid UTF-8 is an error. */
export function decodeText(bytes: Uint8Array): { ok: true; text: string } | { ok: false; message: string } {
  if (bytes[0] === 0xff && bytes[1] === 0xfe)
    return { ok: true, text: new TextDecoder("utf-16le").decode(bytes.subarray(2)) };
  if (bytes[0] === 0xfe && bytes[1] === 0xff)
    return { ok: true, text: new TextDecoder("utf-16be").decode(bytes.subarray(2)) };
  try {
    const text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
    if (text.includes("\u0000")) return { ok: false, message: "binary content (NUL bytes) in a text file" };
    return { ok: true, text };
  } catch {
    return { ok: false, message: "not valid UTF-8 text (save it as UTF-8)" };
  }
}

/** Blank-line separated paragraphs, each trimmed; CRLF normalized. */
export function paragraphs(text: string): string[] {
  return text
    .replace(/\r\n?/g, "\n")
    .split(/\n[ \t]*\n+/)
    .map((p) => p.trim())
    .filter((p) => p.length > 0);
}
