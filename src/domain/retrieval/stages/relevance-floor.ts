/**
 * The relevance floor, part of the coverage stage (docs/retrieval.md#pipeline): when the asking
 * turn names identifiers — Latin-script words of three letters or more: API, option and library
 * names — that carry a fair share of the question's IDF weight, and no candidate holds
 * `coverage.relevanceFloor` of their weight, the collection does not document what is asked
 * about and nothing is returned. Unlike descriptive words, names are not paraphrased.
 */
import { searchTokens } from "../../text/search-tokens";
import { type Fielded, fieldCoverage, partsOf } from "../field-score";
import type { RankedNode } from "../retrieved-item";
import { evidenceTokens } from "./read-query";

/**
 * The identifiers the asking turn names — Latin-script words of three letters or more: API,
 * option and library names — with their IDF weights. Unlike descriptive words they are not
 * paraphrased: a collection that documents the thing asked about holds its name.
 */
export function identifierWeights(turn: string, weights: ReadonlyMap<string, number>): Map<string, number> {
  const out = new Map<string, number>();
  for (const t of evidenceTokens(turn)) {
    const w = weights.get(t);
    if (w !== undefined && IDENTIFIER.test(t)) out.set(t, w);
  }
  return out;
}

const IDENTIFIER = /^[a-z][a-z0-9_.$-]{2,}$/;

/**
 * Share of the query's weight its identifiers must carry for the floor to judge it. A question
 * about a library names it and its API and says little else ("Pinia 的 storeToRefs 怎么用？");
 * a problem described at length may name things in passing — the asker's own component, an
 * acronym, the DOM call they tried — that no documentation holds, and is still answered
 * (docs/decisions/0010-relevance-floor-judges-identifiers.md).
 */
export const FLOOR_NAME_SHARE = 0.25;

/** The identifiers the floor judges: those of the asking turn, when they carry FLOOR_NAME_SHARE. */
export function floorNames(turn: string, weights: ReadonlyMap<string, number>): Map<string, number> {
  const names = identifierWeights(turn, weights);
  let all = 0;
  for (const w of weights.values()) all += w;
  let named = 0;
  for (const w of names.values()) named += w;
  return all > 0 && named / all >= FLOOR_NAME_SHARE ? names : new Map();
}

const EMPTY_FIELDS: Fielded = { heading: new Map(), body: new Map() };

/**
 * False when the floor empties the answer: it judges the question, not each hit — some
 * candidate must hold `floor` of the named identifiers' weight. Questions without identifiers
 * pass: their descriptive words are paraphrased too often to tell a miss from an answer.
 */
export function holdsFloor(
  candidates: readonly RankedNode[],
  names: ReadonlyMap<string, number> | null,
  fields: ReadonlyMap<string, Fielded> | null,
  floor: number,
): boolean {
  if (!names || names.size === 0 || !fields) return true;
  const best = Math.max(
    0,
    ...candidates.map((x) => fieldCoverage(names, fields.get(x.node.nodeId) ?? EMPTY_FIELDS)),
  );
  return best >= floor;
}

/** Share of the query's IDF weight whose tokens occur in the text. */
export function weightedCoverage(weights: ReadonlyMap<string, number>, text: string): number {
  let total = 0;
  let found = 0;
  const tokens = new Set(searchTokens(text));
  for (const [t, w] of weights) {
    total += w;
    const parts = partsOf(t);
    if (tokens.has(t) || (parts.length > 1 && parts.slice(1).every((p) => tokens.has(p)))) found += w;
  }
  return total > 0 ? found / total : 0;
}
