/** The DocumentConverter port over the format converters of this folder. */

import { err, ok, type Result } from "../../domain/kernel/result";
import type { DocumentFormat, ParsedDocument, SourceFile } from "../../domain/knowledge/document";
import type { ConvertError, DocumentConverter } from "../../domain/knowledge/import-documents";
import { convertDocx, convertPdf } from "./binary-converters";
import { ConversionLimit } from "./conversion-limit";
import { convertHtml } from "./html-converter";
import { convertMarkdown } from "./markdown-converter";
import { convertCsv, convertJson, convertText } from "./structured-converters";
import { decodeText } from "./text-decoding";

const PDF_MAGIC = [0x25, 0x50, 0x44, 0x46]; // %PDF
const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04]; // PK\3\4

const startsWith = (bytes: Uint8Array, magic: readonly number[]) => magic.every((b, i) => bytes[i] === b);

/**
 * The largest text file (Markdown, HTML, plain text, CSV, JSON) converted. The lexers build a
 * token or DOM object per construct: 4 MB of ordinary Markdown exhausts a Worker-sized heap
 * (docs/decisions/0140-document-conversion-limits.md). PDF and DOCX have their own limits.
 */
export const MAX_TEXT_FILE_BYTES = 2 * 1024 * 1024;

export class LibraryDocumentConverter implements DocumentConverter {
  /** A file past a conversion limit is refused naming the limit; any other failure is `corrupt`. */
  async convert(format: DocumentFormat, file: SourceFile): Promise<Result<ParsedDocument, ConvertError>> {
    try {
      return await this.#convert(format, file);
    } catch (e) {
      if (e instanceof ConversionLimit) return err({ kind: e.kind, message: e.message });
      return err({ kind: "corrupt", message: e instanceof Error ? e.message : String(e) });
    }
  }

  async #convert(format: DocumentFormat, file: SourceFile): Promise<Result<ParsedDocument, ConvertError>> {
    const corrupt = (message: string) => err<ConvertError>({ kind: "corrupt", message });
    if (format === "pdf") {
      if (!startsWith(file.bytes, PDF_MAGIC)) return corrupt("not a PDF file (no %PDF header)");
      try {
        return ok(await convertPdf(file.bytes));
      } catch (e) {
        if (e instanceof ConversionLimit) throw e;
        return corrupt(`damaged or encrypted PDF (${(e as Error).message})`);
      }
    }
    if (format === "docx") {
      if (!startsWith(file.bytes, ZIP_MAGIC))
        return corrupt("not a DOCX file (not a ZIP container; .doc must be converted to .docx)");
      try {
        return ok(await convertDocx(file.bytes));
      } catch (e) {
        if (e instanceof ConversionLimit) throw e;
        return corrupt(`damaged DOCX (${(e as Error).message})`);
      }
    }
    if (file.bytes.byteLength > MAX_TEXT_FILE_BYTES)
      throw new ConversionLimit(
        "too-large",
        `the file is ${(file.bytes.byteLength / 1024 / 1024).toFixed(1)} MiB of text; text formats are limited to ${MAX_TEXT_FILE_BYTES / 1024 / 1024} MiB: split it into smaller files`,
      );
    const decoded = decodeText(file.bytes);
    if (!decoded.ok) return corrupt(decoded.message);
    const text = decoded.text;
    switch (format) {
      case "markdown":
        return ok(convertMarkdown(text));
      case "html":
        return ok(convertHtml(text));
      case "text":
        return ok(convertText(text));
      case "csv": {
        const r = convertCsv(text, /\.tsv$/i.test(file.name) ? "\t" : undefined);
        return r.ok ? ok(r.doc) : corrupt(r.message);
      }
      case "json": {
        const r = convertJson(text, /\.(jsonl|ndjson)$/i.test(file.name));
        return r.ok ? ok(r.doc) : corrupt(r.message);
      }
    }
  }
}
