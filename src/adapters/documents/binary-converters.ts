/**
 * PDF (unpdf: PDF.js built for serverless runtimes) and DOCX (mammoth: Word styles →
 * semantic HTML, so "Heading 1" stays a heading) → blocks. Both libraries run in Workers
 * without Node built-ins beyond nodejs_compat. PDF text comes per page, its hard-wrapped
 * lines joined back into paragraphs; scanned PDFs have no text layer and are refused as empty.
 */
import { Buffer } from "node:buffer";
import mammoth from "mammoth";
import { getDocumentProxy } from "unpdf";
import type { Block, ParsedDocument } from "../../domain/knowledge/document";
import { ConversionLimit } from "./conversion-limit";
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

/**
 * The most pages read. A page tree can name one page thousands of times in a few kilobytes;
 * every page read keeps some state in PDF.js, and unpdf's extractText reads them all at once:
 * 5,000 pages exhausted the heap (docs/decisions/0140-document-conversion-limits.md).
 */
export const MAX_PDF_PAGES = 2000;

type PDFDocumentProxy = Awaited<ReturnType<typeof getDocumentProxy>>;

/** Each page's text, one page at a time, releasing the page before the next. */
async function pageTexts(pdf: PDFDocumentProxy): Promise<string[]> {
  if (pdf.numPages > MAX_PDF_PAGES)
    throw new ConversionLimit(
      "too-large",
      `the PDF has ${pdf.numPages} pages; the limit is ${MAX_PDF_PAGES}: split it into smaller files`,
    );
  const texts: string[] = [];
  for (let n = 1; n <= pdf.numPages; n++) {
    const page = await pdf.getPage(n);
    const content = await page.getTextContent();
    // As unpdf's extractText joins a page: each item's text, a line break where it ends a line.
    texts.push(
      content.items.map((item) => ("str" in item ? item.str + (item.hasEOL ? "\n" : "") : "")).join(""),
    );
    page.cleanup();
  }
  return texts;
}

/** Throws ConversionLimit for a PDF of more than MAX_PDF_PAGES pages. */
export async function convertPdf(bytes: Uint8Array): Promise<ParsedDocument> {
  // PDF.js may detach the buffer it is given; hand it a copy.
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  try {
    const text = await pageTexts(pdf);
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
