/** Knowledge-base collections: names, chunking settings and what the store reports about them. */
import { err, ok, type Result } from "../kernel/result";

/** Letters (any script), digits, `_`, `-`, `.`; 1–64 characters; no ':' or spaces. */
const NAME = /^[\p{L}\p{N}_][\p{L}\p{N}_.-]{0,63}$/u;

export type CollectionSpec = {
  readonly name: string;
  readonly title: string | null;
  readonly description: string | null;
  readonly chunkSize: number;
  readonly chunkOverlap: number;
};

export type CollectionInfo = CollectionSpec & {
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly documents: number;
  readonly passages: number;
};

export type StoredDocument = {
  readonly documentId: string;
  readonly sourceId: string;
  readonly title: string | null;
  readonly sourceHash: string | null;
  readonly format: string | null;
  readonly passages: number;
  readonly updatedAt: number;
};

export const CHUNK_SIZE_RANGE = { min: 50, max: 8000 } as const;

export function validateCollectionName(
  name: unknown,
): Result<string, { kind: "invalid"; field: string; reason: string }> {
  if (typeof name !== "string" || !NAME.test(name)) {
    return err({
      kind: "invalid",
      field: "name",
      reason: "must be 1–64 letters, digits, '_', '-' or '.', starting with a letter, digit or '_'",
    });
  }
  return ok(name);
}
