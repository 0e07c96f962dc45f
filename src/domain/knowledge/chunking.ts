/**
 * Chunking (docs/retrieval.md#chunking): the text blocks of one section become passages of at most
 * `size` characters (UTF-16 units) — a hard cap. Blocks are packed whole while they fit;
 * a longer block splits at sentence boundaries (code, tables, lists and records by line), a
 * sentence still too long by window. Passages cut from one block carry an overlap of the
 * previous passage's last sentences, capped at a quarter of `size` and never past the cap.
 */
import type { TextBlock } from "./document";
import { splitSentences, windowSplit } from "./sentences";

export type ChunkOptions = { readonly size: number; readonly overlap: number };

export type Chunk = {
  readonly text: string;
  readonly page?: number;
  readonly title?: string;
};

type Piece = { text: string; block: number; page?: number; title?: string };

const BLOCK_SEPARATOR = "\n\n";

/** The overlap actually used: at most a quarter of the chunk size. */
export function effectiveOverlap(options: ChunkOptions): number {
  return Math.max(0, Math.min(options.overlap, Math.floor(options.size / 4)));
}

function piecesOf(block: TextBlock, index: number, size: number): Piece[] {
  const base = {
    block: index,
    ...(block.page ? { page: block.page } : {}),
    ...(block.title ? { title: block.title } : {}),
  };
  const text = block.text.trim();
  if (text.length === 0) return [];
  if (text.length <= size) return [{ ...base, text }];
  const parts =
    block.role === "paragraph" || block.role === "quote" ? splitSentences(text) : text.split(/(?<=\n)/);
  return parts.flatMap((p) => windowSplit(p, size)).map((p) => ({ ...base, text: p }));
}

/** Packs a section's blocks into passages no longer than `options.size`. */
export function chunkBlocks(blocks: readonly TextBlock[], options: ChunkOptions): Chunk[] {
  const size = Math.max(2, Math.floor(options.size));
  const overlap = effectiveOverlap({ size, overlap: options.overlap });
  const pieces = blocks.flatMap((b, i) => piecesOf(b, i, size));
  const chunks: Chunk[] = [];
  let current: Piece[] = [];
  let length = 0;

  const textOf = (ps: readonly Piece[]) =>
    ps.map((p, i) => (i > 0 && ps[i - 1]?.block !== p.block ? BLOCK_SEPARATOR : "") + p.text).join("");

  const flush = () => {
    const text = textOf(current).trim();
    const first = current[0];
    if (text.length > 0 && first) {
      chunks.push({
        text,
        ...(first.page ? { page: first.page } : {}),
        ...(first.title ? { title: first.title } : {}),
      });
    }
  };

  for (const piece of pieces) {
    const last = current.at(-1);
    const joined =
      length + (last && last.block !== piece.block ? BLOCK_SEPARATOR.length : 0) + piece.text.length;
    if (last && joined > size) {
      flush();
      // Overlap only inside a block that had to be split: whole blocks need no carried context.
      const carried: Piece[] = [];
      if (last.block === piece.block && overlap > 0) {
        let carriedLength = 0;
        for (let i = current.length - 1; i >= 0; i--) {
          const p = current[i];
          if (!p || p.block !== piece.block) break;
          if (
            carriedLength + p.text.length > overlap ||
            carriedLength + p.text.length + piece.text.length > size
          )
            break;
          carried.unshift(p);
          carriedLength += p.text.length;
        }
      }
      current = carried;
      length = carried.reduce((n, p) => n + p.text.length, 0);
    }
    const prev = current.at(-1);
    length += (prev && prev.block !== piece.block ? BLOCK_SEPARATOR.length : 0) + piece.text.length;
    current.push(piece);
  }
  flush();
  return chunks;
}
