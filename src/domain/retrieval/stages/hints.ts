/**
 * The hint list, fused in the fuse stage where the ranking is not fielded
 * (docs/retrieval.md#pipeline): hits whose source title or heading the query names rank up,
 * each by how strongly it is named — the share of the asking turn the name covers, or how rare
 * (IDF) the name is in the readable scopes — so a short generic heading that merely occurs in a
 * long question barely moves, while the title a question asks about still ranks first.
 */
import { queryTokens } from "../../text/search-tokens";
import type { ContextNode } from "../context-node";
import type { Candidate, KeywordIndex, StoreFilter } from "../ports";
import { QUESTION_WORDS } from "../question-words";
import type { FuseOptions } from "../retrieval-options";
import { queryTurns } from "./read-query";

/**
 * Each named candidate's share of the hint list: hinted hits form one more RRF list (ranked in
 * the order of `ranking`), each entry weighted by its strength — at strength 1 a named title
 * outranks every unnamed hit, as a plain hint list would.
 */
export async function hintBoosts(
  keywords: KeywordIndex,
  filter: StoreFilter,
  text: string,
  ranking: readonly Candidate[],
  visible: ReadonlyMap<string, ContextNode>,
  options: FuseOptions,
): Promise<Map<string, number>> {
  const hintTurns = queryTurns(text).map(hintTurn);
  const named = ranking.flatMap((c) => {
    const node = visible.get(c.nodeId);
    const perTurn = node ? hintTurns.map((t) => namedInTurn(t, node)) : [];
    return perTurn.some((n) => n.names.length > 0) ? [{ c, perTurn }] : [];
  });
  const { weight, sharpness } = options.hints;
  const specificity =
    sharpness > 0
      ? await nameSpecificity(
          keywords,
          filter,
          named.flatMap((x) => x.perTurn.flatMap((n) => n.names)),
        )
      : () => 1;
  return new Map(
    named.map((x, i) => [
      x.c.nodeId,
      (weight * hintStrength(x.perTurn, specificity, sharpness)) / (options.rrfK + i + 1),
    ]),
  );
}

const norm = (s: string) => s.normalize("NFKC").toLowerCase().replace(/\s+/g, "");

const HINT_NOISE = /[\p{P}\p{S}\s]/gu;

/** Specificity of each name in [0, 1]: the IDF of its rarest token over the largest possible. */
async function nameSpecificity(
  keywords: KeywordIndex,
  filter: StoreFilter,
  names: readonly string[],
): Promise<(name: string) => number> {
  const unique = [...new Set(names)];
  const tokens = [...new Set(unique.flatMap((name) => queryTokens(name, 8)))];
  if (!keywords.frequencies || tokens.length === 0) return () => 1; // unknown: a plain hint
  const f = await keywords.frequencies({ ...filter, tokens });
  const idf = (df: number) => Math.log(1 + (f.rows - df + 0.5) / (df + 0.5));
  const top = idf(0);
  return (name) => {
    // Tokens the index did not count (beyond its batch) say nothing about the name.
    const dfs = queryTokens(name, 8).flatMap((t) => {
      const df = f.df.get(t);
      return df === undefined ? [] : [Math.min(df, f.rows)];
    });
    return dfs.length > 0 ? idf(Math.min(...dfs)) / top : 0;
  };
}

/** Weight of a turn one step further back than the next (the latest turn weighs 1). */
const EARLIER_TURN_WEIGHT = 0.5;

/**
 * How strongly a node is named, in [0, 1]: per turn, the larger of the share of the turn its
 * names cover and their specificity, halved per turn further back (a heading named in the
 * latest turn outweighs one named earlier), raised to `sharpness`; the best turn counts.
 * Sharpness 0 gives 1 for any named node (a plain hint list).
 */
export function hintStrength(
  perTurn: readonly { share: number; names: readonly string[] }[],
  specificity: (name: string) => number,
  sharpness: number,
): number {
  let best = 0;
  perTurn.forEach((n, i) => {
    if (n.names.length === 0) return;
    const spec = Math.max(...n.names.map(specificity));
    const strength = Math.max(n.share, spec) * EARLIER_TURN_WEIGHT ** (perTurn.length - 1 - i);
    best = Math.max(best, strength ** sharpness);
  });
  return best;
}

/**
 * The node's source title and headings (≥ 2 characters, disambiguation in brackets aside) that
 * the text names, and the share of the text's characters (punctuation and question words
 * aside) the longest of them covers.
 */
export function namedIn(text: string, node: ContextNode): { share: number; names: string[] } {
  return namedInTurn(hintTurn(text), node);
}

/** A turn's side of `namedIn`, worked out once per turn rather than once per candidate. */
type HintTurn = { readonly q: string; readonly contentLength: number };

function hintTurn(text: string): HintTurn {
  const q = norm(text);
  let content = q.replace(HINT_NOISE, "");
  for (const w of QUESTION_WORDS) content = content.replaceAll(w, "");
  return { q, contentLength: content.length };
}

function namedInTurn({ q, contentLength }: HintTurn, node: ContextNode): { share: number; names: string[] } {
  const names: string[] = [];
  let longest = 0;
  for (const name of [node.title, ...node.path]) {
    if (typeof name !== "string") continue;
    const n = norm(name.replace(/[（(][^）)]*[）)]/g, ""));
    if (n.length < 2 || !q.includes(n)) continue;
    names.push(n);
    longest = Math.max(longest, n.replace(HINT_NOISE, "").length);
  }
  return { share: longest === 0 ? 0 : Math.min(1, longest / Math.max(1, contentLength)), names };
}

/** True when the query names the node's source title or one of its headings (≥ 2 characters). */
export function namesSource(query: string, node: ContextNode): boolean {
  return namedIn(query, node).names.length > 0;
}
