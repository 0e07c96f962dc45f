/**
 * A converted document, independent of its file format: a title and a flat sequence of
 * blocks (headings and text) in reading order. Converters (src/adapters/documents) produce
 * it from Markdown, HTML, PDF, DOCX, CSV, JSON and plain text; the outline and chunking
 * steps turn it into document → section → passage nodes.
 */

export const DOCUMENT_FORMATS = ["markdown", "text", "html", "pdf", "docx", "csv", "json"] as const;
export type DocumentFormat = (typeof DOCUMENT_FORMATS)[number];

export type HeadingBlock = {
  readonly kind: "heading";
  /** 1 = top level. */
  readonly level: number;
  readonly text: string;
  /** Explicit anchor (`{#id}` in Markdown, `id` in HTML), when the source gives one. */
  readonly anchor?: string;
};

export type TextBlock = {
  readonly kind: "text";
  /** The block's source text, verbatim (Markdown source for Markdown). */
  readonly text: string;
  /** code blocks and tables are never split at sentence boundaries, only by lines. */
  readonly role: "paragraph" | "code" | "table" | "list" | "quote" | "record";
  /** 1-based page of paged formats (PDF). */
  readonly page?: number;
  /** A local title for passages made from this block (a CSV row's or JSON record's name). */
  readonly title?: string;
};

export type Block = HeadingBlock | TextBlock;

export type ParsedDocument = {
  /** From the document itself (front matter, first H1, <title>, DOCX title); null = use the file name. */
  readonly title: string | null;
  readonly aliases: readonly string[];
  readonly blocks: readonly Block[];
};

/** A file as it arrives for import. */
export type SourceFile = {
  /** File name as uploaded; it is the document's source id within its collection. */
  readonly name: string;
  readonly bytes: Uint8Array;
  readonly contentType?: string | null;
  /** Declared size when the bytes were not read because the file is over the limit. */
  readonly size?: number;
};

const EXTENSIONS: Record<string, DocumentFormat> = {
  md: "markdown",
  markdown: "markdown",
  mdx: "markdown",
  txt: "text",
  text: "text",
  htm: "html",
  html: "html",
  xhtml: "html",
  pdf: "pdf",
  docx: "docx",
  csv: "csv",
  tsv: "csv",
  json: "json",
  jsonl: "json",
  ndjson: "json",
};

const MIME: Record<string, DocumentFormat> = {
  "text/markdown": "markdown",
  "text/x-markdown": "markdown",
  "text/plain": "text",
  "text/html": "html",
  "application/xhtml+xml": "html",
  "application/pdf": "pdf",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document": "docx",
  "text/csv": "csv",
  "text/tab-separated-values": "csv",
  "application/json": "json",
  "application/x-ndjson": "json",
};

/** The format by file extension, else by content type; null when neither is known. */
export function detectFormat(name: string, contentType?: string | null): DocumentFormat | null {
  const ext = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase();
  if (ext && EXTENSIONS[ext]) return EXTENSIONS[ext];
  const mime = contentType?.split(";")[0]?.trim().toLowerCase();
  return (mime && MIME[mime]) || null;
}

/** The file name without directories and extension: the fallback title. */
export function titleFromFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? name;
  return base.replace(/\.[a-z0-9]+$/i, "").trim() || base;
}
