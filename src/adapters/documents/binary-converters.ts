/**
 * PDF (unpdf: PDF.js built for serverless runtimes) and DOCX (mammoth: Word styles →
 * semantic HTML, so "Heading 1" stays a heading) → blocks. Both libraries run in Workers
 * without Node built-ins beyond nodejs_compat. PDF text comes per page, its hard-wrapped
 * lines joined back into paragraphs; scanned PDFs have no text layer and are refused as empty.
 */
import { Buffer } from "node:buffer";
import mammoth from "mammoth";
import { extractText, getDocumentProxy } from "unpdf";
import type { Block, ParsedDocument } from "../../domain/knowledge/document";
import { boundedDocx } from "./docx-package";
import { convertHtml } from "./html-converter";

const SENTENCE_END = /[。！？；.!?;:：」』”）)]$/;
const CJK_EDGE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}，、。]/u;

/** Joins a page's lines into paragraphs: a line ending a sentence (or a blank line) ends one. */
export function pageParagraphs(pageText: string): string[] {
  const out: string[] = [];
  let current = "";
  for (const raw of pageText.replace(/\r\n?/g, "\n").split("\n")) {
    const line = raw.trim();
    if (line === "") {
      if (current) out.push(current);
      current = "";
      continue;
    }
    if (current === "") current = line;
    else {
      const cjkJoin = CJK_EDGE.test(current.at(-1) ?? "") || CJK_EDGE.test(line[0] ?? "");
      current += cjkJoin ? line : ` ${line}`;
    }
    if (SENTENCE_END.test(line) && line.length < 60) {
      out.push(current);
      current = "";
    }
  }
  if (current) out.push(current);
  return out;
}

export async function convertPdf(bytes: Uint8Array): Promise<ParsedDocument> {
  // PDF.js may detach the buffer it is given; hand it a copy.
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  try {
    const { text } = await extractText(pdf, { mergePages: false });
    let title: string | null = null;
    try {
      const meta = await pdf.getMetadata();
      const info = meta.info as { Title?: unknown } | undefined;
      if (typeof info?.Title === "string" && info.Title.trim()) title = info.Title.trim();
    } catch {
      // metadata is optional
    }
    const blocks: Block[] = text.flatMap((page, i) =>
      pageParagraphs(page).map((p): Block => ({ kind: "text", text: p, role: "paragraph", page: i + 1 })),
    );
    return { title, aliases: [], blocks };
  } finally {
    await pdf.cleanup();
  }
}

/** Throws ConversionLimit for a file past the limits of docx-package.ts. */
export async function convertDocx(bytes: Uint8Array): Promise<ParsedDocument> {
  // mammoth parses only the measured text parts, never the uploaded archive itself.
  const checked = boundedDocx(bytes);
  // mammoth's Node entry reads `buffer`, its browser entry `arrayBuffer`; bundlers pick either.
  const arrayBuffer = checked.slice().buffer;
  const input = { buffer: Buffer.from(arrayBuffer), arrayBuffer } as unknown as { arrayBuffer: ArrayBuffer };
  const result = await mammoth.convertToHtml(input, {
    // Images would be inlined as base64; the knowledge base keeps text only.
    convertImage: mammoth.images.imgElement(async () => ({ src: "" })),
    externalFileAccess: false,
  });
  return convertHtml(result.value);
}
