/**
 * Importing files into a collection (docs/retrieval.md#import-and-chunking). Each file is converted, planned into
 * document → section → passage nodes and written in one transaction that replaces the
 * previous version of the same source; a file whose bytes are unchanged is skipped. A batch
 * gives one result per file and never rolls back the files that succeeded.
 */
import { bytesContentHash } from "../kernel/content-hash";
import type { DomainError, Result } from "../kernel/result";
import { err, ok } from "../kernel/result";
import { containsSensitiveData, maskCredentials } from "../privacy/credentials";
import { visibleText } from "../text/visible-text";
import type { CollectionInfo } from "./collection";
import {
  type DocumentFormat,
  detectFormat,
  type ParsedDocument,
  type SourceFile,
  titleFromFileName,
} from "./document";
import { planDocument } from "./document-plan";
import type { KnowledgeStore, Removed } from "./knowledge-store";

export const IMPORT_LIMITS = { maxFiles: 20, maxFileBytes: 25 * 1024 * 1024 } as const;

/** `too-large` and `too-deep`: the file inflates or nests past a converter's limit, named in the message. */
export type ConvertError = {
  readonly kind: "corrupt" | "unsupported" | "too-large" | "too-deep";
  readonly message: string;
};

export interface DocumentConverter {
  /** Parses a file of a known format; unreadable content is an error value, never a throw. */
  convert(format: DocumentFormat, file: SourceFile): Promise<Result<ParsedDocument, ConvertError>>;
}

export type FileError = {
  readonly kind: "unsupported" | "too-large" | "too-deep" | "corrupt" | "empty" | "invalid" | "failed";
  readonly message: string;
};

export type FileResult =
  | {
      readonly file: string;
      readonly status: "imported" | "replaced" | "unchanged";
      readonly documentId: string;
      readonly format: DocumentFormat;
      readonly sections: number;
      readonly passages: number;
    }
  | { readonly file: string; readonly status: "failed"; readonly error: FileError };

export type ImportDeps = {
  readonly store: KnowledgeStore;
  readonly converter: DocumentConverter;
  readonly now: () => number;
  /** Called after nodes were removed or replaced: delete their vectors and unreferenced embeddings. */
  readonly afterRemoval: (removed: Removed) => Promise<void>;
};

const MAX_SOURCE_ID = 512;

/** Imports one file into an existing collection. Never throws for bad input. */
export async function importFile(
  deps: ImportDeps,
  collection: CollectionInfo,
  file: SourceFile,
): Promise<FileResult> {
  const failed = (kind: FileError["kind"], message: string): FileResult => ({
    file: file.name,
    status: "failed",
    error: { kind, message },
  });
  // The name is the document's id and title source: stored as it is seen (visible-text.ts).
  const sourceId = visibleText(file.name);
  if (sourceId === "" || sourceId.length > MAX_SOURCE_ID)
    return failed("invalid", `file name must be 1–${MAX_SOURCE_ID} characters`);
  // The name is stored and shown as the passage's source: it holds no secret or personal number.
  if (containsSensitiveData(sourceId))
    return failed(
      "invalid",
      "file name looks like it holds a password, key or personal number; rename the file",
    );
  const size = Math.max(file.size ?? 0, file.bytes.byteLength);
  if (size > IMPORT_LIMITS.maxFileBytes)
    return failed("too-large", `file is ${size} bytes; the limit is ${IMPORT_LIMITS.maxFileBytes}`);
  if (file.bytes.byteLength === 0) return failed("empty", "file is empty");
  const format = detectFormat(file.name, file.contentType);
  if (!format)
    return failed(
      "unsupported",
      "unsupported file type; use .md, .txt, .html, .pdf, .docx, .csv, .tsv, .json or .jsonl (convert .doc to .docx first)",
    );

  const fileHash = bytesContentHash(file.bytes);
  const existing = await deps.store.findDocument(collection.name, sourceId);
  const settingsTag = `${collection.chunkSize}/${collection.chunkOverlap}`;
  const versionHash = `${fileHash}:${settingsTag}`;
  if (existing && existing.sourceHash === versionHash) {
    return {
      file: file.name,
      status: "unchanged",
      documentId: existing.documentId,
      format,
      sections: 0,
      passages: existing.passages,
    };
  }

  let parsed: Result<ParsedDocument, ConvertError>;
  try {
    parsed = await deps.converter.convert(format, file);
  } catch (e) {
    parsed = err({ kind: "corrupt", message: e instanceof Error ? e.message : String(e) });
  }
  if (!parsed.ok) return failed(parsed.error.kind, `cannot read ${format}: ${parsed.error.message}`);
  if (!parsed.value.blocks.some((b) => b.kind === "text" && b.text.trim() !== ""))
    return failed("empty", `no text found in this ${format} file (scanned PDFs need OCR first)`);

  const clean = withoutCredentials(parsed.value);
  const plan = planDocument({
    collection: collection.name,
    sourceId,
    fileHash: versionHash,
    format,
    title: clean.title?.trim() || titleFromFileName(sourceId),
    parsed: clean,
    chunk: { size: collection.chunkSize, overlap: collection.chunkOverlap },
  });
  const removed = await deps.store.replaceDocument(collection.name, sourceId, plan, deps.now());
  if (removed.nodeIds.length > 0) await deps.afterRemoval(removed);
  return {
    file: file.name,
    status: existing ? "replaced" : "imported",
    documentId: plan.documentId,
    format,
    sections: plan.counts.sections,
    passages: plan.counts.passages,
  };
}

/**
 * The document with every credential masked — a runbook's root password, a key in a config
 * example: a collection's passages are read in every chat it serves, groups included, and
 * quoted back by the bot. Headings, titles and aliases too; anchors are ids and stay.
 */
function withoutCredentials(doc: ParsedDocument): ParsedDocument {
  return {
    title: doc.title === null ? null : maskCredentials(doc.title),
    aliases: doc.aliases.map(maskCredentials),
    blocks: doc.blocks.map((b) =>
      b.kind === "heading"
        ? { ...b, text: maskCredentials(b.text) }
        : {
            ...b,
            text: maskCredentials(b.text),
            ...(b.title === undefined ? {} : { title: maskCredentials(b.title) }),
          },
    ),
  };
}

/** Imports up to 20 files; one result per file, in order, whatever happens to the others. */
export async function importFiles(
  deps: ImportDeps,
  collectionName: string,
  files: readonly SourceFile[],
): Promise<Result<FileResult[], DomainError>> {
  if (files.length === 0) return err({ kind: "invalid", field: "files", reason: "no files given" });
  if (files.length > IMPORT_LIMITS.maxFiles)
    return err({
      kind: "invalid",
      field: "files",
      reason: `at most ${IMPORT_LIMITS.maxFiles} files per batch`,
    });
  // A document's identity is its path inside the import: two files of one batch under one
  // name would replace each other, so the batch is refused before anything is read.
  const names = files.map((f) => visibleText(f.name));
  const twice = [...new Set(names.filter((n, i) => names.indexOf(n) !== i))];
  if (twice.length > 0)
    return err({
      kind: "invalid",
      field: "files",
      reason: `two files are named ${twice.slice(0, 3).join(", ")}; send each document under its path inside the import (sub/readme.md, other/readme.md)`,
    });
  const collection = await deps.store.getCollection(collectionName);
  if (!collection)
    return err({
      kind: "not-found",
      what: `collection ${collectionName} (create it first: npm run akasha -- kb create ${collectionName}, or import with --create)`,
    });
  const results: FileResult[] = [];
  for (const file of files) {
    try {
      results.push(await importFile(deps, collection, file));
    } catch (e) {
      // A storage failure fails this file only; the files before it stay imported.
      results.push({
        file: file.name,
        status: "failed",
        error: { kind: "failed", message: e instanceof Error ? e.message : String(e) },
      });
    }
  }
  return ok(results);
}
