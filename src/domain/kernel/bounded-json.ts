/**
 * JSON from outside (request bodies, webhook payloads, imported files) parsed with a cap on
 * how deeply arrays and objects nest. `JSON.parse` itself copes with any depth, but every
 * recursive reader after it (schema validation, settings merges, converters) overflows the
 * stack on a few thousand levels and the request ends in a 500. Real documents nest a handful
 * of levels; the cap leaves room for far more (docs/invariants.md#hostile-input-changes-nothing).
 */

/** The deepest nesting of arrays and objects accepted; deeper JSON is refused before parsing. */
export const MAX_JSON_DEPTH = 64;

export const jsonTooDeep = (limit = MAX_JSON_DEPTH) =>
  `nests arrays or objects deeper than ${limit} levels (the limit)`;

/**
 * Whether the text nests brackets deeper than `limit`, by one pass over it: strings are
 * skipped (a bracket inside quotes is text), nothing is built. Malformed text is measured the
 * same way; JSON.parse refuses it afterwards.
 */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 0x5c)
        i++; // backslash: the next character is escaped
      else if (ch === 0x22) inString = false;
    } else if (ch === 0x22) inString = true;
    else if (ch === 0x5b || ch === 0x7b) {
      if (++depth > limit) return true;
    } else if (ch === 0x5d || ch === 0x7d) depth--;
  }
  return false;
}

export type BoundedJson =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly tooDeep: true; readonly reason: string }
  | { readonly ok: false; readonly tooDeep: false; readonly syntax: string };

/**
 * JSON.parse behind the depth cap. A refusal is either the depth (`reason`, ready to show) or
 * the syntax (`syntax`, JSON.parse's message, for the caller's own wording).
 */
export function parseBoundedJson(text: string, limit = MAX_JSON_DEPTH): BoundedJson {
  if (nestsDeeperThan(text, limit)) return { ok: false, tooDeep: true, reason: jsonTooDeep(limit) };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (e) {
    return { ok: false, tooDeep: false, syntax: (e as Error).message };
  }
}
