/**
 * A DOCX is a ZIP whose XML parts mammoth inflates whole and parses into a DOM, at roughly
 * thirty bytes of heap per byte of XML: a 188 KB file whose XML inflates to 120 MB exhausts the
 * heap of the whole runtime. So before mammoth sees a file (limits measured in
 * docs/decisions/0140-document-conversion-limits.md):
 *
 * 1. the central directory, read by fflate without inflating anything, must declare no more
 *    than `maxDeclaredBytes` in all and `maxTextBytes` for the parts mammoth parses;
 * 2. those parts are inflated here, streaming, counting the real output and stopping at
 *    `maxTextBytes` (a central directory can lie about sizes);
 * 3. their XML may nest at most `maxXmlDepth` elements (mammoth's reader recurses per level);
 * 4. mammoth gets a new ZIP of exactly those parts, stored: what it parses is what was
 *    measured. Media and every other part are never inflated (the knowledge base keeps text).
 */
import { Unzip, UnzipInflate, unzipSync, zipSync } from "fflate";
import { Parser } from "htmlparser2";
import { ConversionLimit } from "./conversion-limit";

const MIB = 1024 * 1024;

export const DOCX_LIMITS = {
  /** Everything the archive declares, media included: more is a ZIP bomb whatever it holds. */
  maxDeclaredBytes: 256 * MIB,
  /** The XML mammoth parses, inflated. */
  maxTextBytes: 2 * MIB,
  /** Element nesting in any of those parts. */
  maxXmlDepth: 256,
} as const;

/** Compressed bytes handed to the inflater at a time: one push inflates to at most ~1,000×. */
const PUSH_BYTES = 4 * 1024;

/**
 * The parts mammoth reads: XML and relationships in the package root, `_rels/`, `word/` and
 * `word/_rels/`. Charts, embedded objects, media, themes, custom XML and document properties
 * live elsewhere and are never read.
 */
export function isTextPart(name: string): boolean {
  const lower = name.toLowerCase();
  if (!lower.endsWith(".xml") && !lower.endsWith(".rels")) return false;
  const slash = lower.lastIndexOf("/");
  const folder = slash < 0 ? "" : lower.slice(0, slash);
  return folder === "" || folder === "_rels" || folder === "word" || folder === "word/_rels";
}

const mib = (bytes: number) => `${(bytes / MIB).toFixed(1)} MiB`;

/** Step 1: the sizes the central directory declares. Throws fflate's error for a non-ZIP. */
function checkDeclared(bytes: Uint8Array): void {
  let all = 0;
  let text = 0;
  unzipSync(bytes, {
    filter: (entry) => {
      all += entry.originalSize;
      if (isTextPart(entry.name)) text += entry.originalSize;
      return false; // nothing is inflated here
    },
  });
  if (all > DOCX_LIMITS.maxDeclaredBytes)
    throw new ConversionLimit(
      "too-large",
      `the archive declares ${mib(all)} uncompressed; the limit is ${mib(DOCX_LIMITS.maxDeclaredBytes)}`,
    );
  if (text > DOCX_LIMITS.maxTextBytes)
    throw new ConversionLimit(
      "too-large",
      `the document's text (XML) inflates to ${mib(text)}; the limit is ${mib(DOCX_LIMITS.maxTextBytes)}: split it into smaller files`,
    );
}

/** Step 2: the text parts inflated, counting what really comes out. */
function inflateTextParts(bytes: Uint8Array): Record<string, Uint8Array> {
  const chunks = new Map<string, Uint8Array[]>();
  let total = 0;
  const unzip = new Unzip((file) => {
    if (!isTextPart(file.name)) return; // never started: never inflated
    const parts: Uint8Array[] = [];
    chunks.set(file.name, parts);
    file.ondata = (error, data) => {
      if (error) throw error;
      total += data.length;
      if (total > DOCX_LIMITS.maxTextBytes)
        throw new ConversionLimit(
          "too-large",
          `the document's text (XML) inflates to more than ${mib(DOCX_LIMITS.maxTextBytes)} (the limit), more than the archive declares`,
        );
      parts.push(data);
    };
    file.start();
  });
  unzip.register(UnzipInflate);
  for (let at = 0; at < bytes.length; at += PUSH_BYTES)
    unzip.push(bytes.subarray(at, at + PUSH_BYTES), at + PUSH_BYTES >= bytes.length);
  const out: Record<string, Uint8Array> = {};
  for (const [name, parts] of chunks) {
    const joined = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let offset = 0;
    for (const p of parts) {
      joined.set(p, offset);
      offset += p.length;
    }
    out[name] = joined;
  }
  return out;
}

/** Step 3: element nesting, by a streaming XML tokenizer that stops at the limit. */
function checkXmlDepth(name: string, xml: Uint8Array): void {
  let depth = 0;
  const parser = new Parser(
    {
      onopentag() {
        if (++depth > DOCX_LIMITS.maxXmlDepth)
          throw new ConversionLimit(
            "too-deep",
            `${name} nests elements deeper than ${DOCX_LIMITS.maxXmlDepth} levels (the limit)`,
          );
      },
      onclosetag() {
        depth--;
      },
    },
    { xmlMode: true },
  );
  parser.end(new TextDecoder().decode(xml));
}

/**
 * The DOCX rebuilt from its measured text parts, ready for mammoth. Throws ConversionLimit
 * past a limit, and fflate's error for a damaged archive.
 */
export function boundedDocx(bytes: Uint8Array): Uint8Array {
  checkDeclared(bytes);
  const parts = inflateTextParts(bytes);
  for (const [name, xml] of Object.entries(parts)) checkXmlDepth(name, xml);
  return zipSync(parts, { level: 0 });
}
