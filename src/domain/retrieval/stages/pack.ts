/**
 * The pack stage (docs/retrieval.md#pipeline): the expanded hits, best first, under the token
 * budget and the item limit, cut where the budget ends rather than left unused.
 */
import { estimateTokens, truncateToTokens } from "../../text/token-estimate";
import { citationOf } from "../citation";
import type { ContextNode } from "../context-node";
import type { PackOptions } from "../retrieval-options";
import type { RetrievedItem } from "../retrieved-item";

/** Smallest remainder of the budget worth filling with a truncated item. */
const MIN_TRUNCATED_TOKENS = 64;

export type Packed = { readonly items: RetrievedItem[]; readonly tokens: number };

/** At most `limit` of `items` in order, their estimated tokens within the budget. */
export function pack(items: readonly RetrievedItem[], limit: number, options: PackOptions): Packed {
  const out: RetrievedItem[] = [];
  let tokens = 0;
  // Each later slot keeps a share of the budget, so one long parent cannot crowd out the
  // rest of the `limit` items: it is cut to what it may take instead.
  const reserve = options.shareBudget ? Math.floor(options.tokenBudget / (2 * limit)) : 0;
  for (const [i, it] of items.entries()) {
    if (out.length >= limit) break;
    const cost = estimateTokens(it.text);
    const later = Math.min(limit - out.length - 1, items.length - i - 1);
    const left = options.tokenBudget - tokens - reserve * Math.max(0, later);
    if (cost <= left) {
      out.push(it);
      tokens += cost;
    } else if (left >= MIN_TRUNCATED_TOKENS) {
      // The best remaining item, cut to what is left, beats leaving the budget unused.
      const text = truncateToTokens(it.text, left - 1);
      out.push({ ...it, text });
      tokens += estimateTokens(text);
      if (reserve === 0) break;
    }
  }
  return { items: out, tokens };
}

/** A set read whole: every node in reading order, as many as it holds, under the same budget. */
export function packWhole(nodes: readonly ContextNode[], limit: number, options: PackOptions): Packed {
  const items = nodes.map(
    (node): RetrievedItem => ({
      node,
      text: node.rawText,
      score: 1,
      via: "whole",
      coverage: 1,
      citation: citationOf(node),
    }),
  );
  return pack(items, Math.max(limit, nodes.length), options);
}
