/** Hostile files for import tests: decompression bombs and deep nesting, built small and fast. */
import { strToU8, Zip, ZipDeflate, ZipPassThrough } from "fflate";
import { onePageObjects, pdfOf } from "./documents";

const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';

/** A Markdown list nested `levels` deep, each level indented two columns more (9 MB at 3,000). */
export function deepMarkdownList(levels: number): string {
  return Array.from({ length: levels }, (_, i) => `${" ".repeat(2 * i)}- level ${i + 1}`).join("\n");
}

/** The entries of a minimal DOCX besides its main document, stored. */
function frame(zip: Zip) {
  const parts: Record<string, string> = {
    "[Content_Types].xml": `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`,
    "_rels/.rels": `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`,
  };
  for (const [name, text] of Object.entries(parts)) {
    const entry = new ZipPassThrough(name);
    zip.add(entry);
    entry.push(strToU8(text), true);
  }
}

function collect(build: (zip: Zip) => void): Uint8Array {
  const chunks: Uint8Array[] = [];
  const zip = new Zip((error, data) => {
    if (error) throw error;
    chunks.push(data);
  });
  build(zip);
  zip.end();
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.length;
  }
  return out;
}

/**
 * A DOCX whose word/document.xml inflates to about `inflatedBytes` of one-megabyte paragraphs,
 * streamed through the compressor a megabyte at a time (120 MB gives a file of about 120 KB).
 */
export function docxBomb(inflatedBytes: number): Uint8Array {
  const made = bombs.get(inflatedBytes) ?? makeBomb(inflatedBytes);
  bombs.set(inflatedBytes, made);
  return made.slice();
}

/** Compressing 120 MB takes seconds: each size is made once per test file. */
const bombs = new Map<number, Uint8Array>();

function makeBomb(inflatedBytes: number): Uint8Array {
  return collect((zip) => {
    frame(zip);
    const doc = new ZipDeflate("word/document.xml", { level: 9 });
    zip.add(doc);
    doc.push(strToU8(`<?xml version="1.0" encoding="UTF-8"?><w:document ${W}><w:body>`));
    // One letter repeated: the most a deflate stream inflates per byte (about 1,000 times).
    const block = strToU8(`<w:p><w:r><w:t>${"a".repeat(1024 * 1024)}</w:t></w:r></w:p>`);
    for (let written = 0; written < inflatedBytes; written += block.length) doc.push(block);
    doc.push(strToU8("</w:body></w:document>"), true);
  });
}

/** A DOCX whose body nests `levels` tables inside one another. */
export function deepDocx(levels: number): Uint8Array {
  return collect((zip) => {
    frame(zip);
    const doc = new ZipDeflate("word/document.xml", { level: 6 });
    zip.add(doc);
    const cell = "<w:p><w:r><w:t>x</w:t></w:r></w:p>";
    doc.push(
      strToU8(
        `<?xml version="1.0" encoding="UTF-8"?><w:document ${W}><w:body>${"<w:tbl><w:tr><w:tc>".repeat(levels)}${cell}${"</w:tc></w:tr></w:tbl>".repeat(levels)}</w:body></w:document>`,
      ),
      true,
    );
  });
}

/**
 * The bomb with its central directory lying: every entry declares `declared` bytes
 * uncompressed, so only inflating (and counting) finds out what it really holds.
 */
export function lyingDocxBomb(inflatedBytes: number, declared = 1000): Uint8Array {
  const bytes = docxBomb(inflatedBytes);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let at = 0; at + 46 <= bytes.length; at++) {
    if (view.getUint32(at, true) !== 0x02014b50) continue; // central directory file header
    view.setUint32(at + 24, declared, true); // uncompressed size
    at += 45 + view.getUint16(at + 28, true) + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
  }
  return bytes;
}

/** A PDF of a few kilobytes whose page tree names its one page `pages` times. */
export function repeatedPagePdf(pages: number): Uint8Array {
  return pdfOf(onePageObjects("BT /F1 12 Tf 72 720 Td (page) Tj ET", pages));
}
