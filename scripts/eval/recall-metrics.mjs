// The recall metrics every eval of this harness reports, in one place.

export const round = (x) => Math.round(x * 10000) / 10000;
export const mean = (xs) => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);

/**
 * `results`: question id → ranked items; `keysOf(item)` → the gold keys an item covers.
 * recall@k = the share of a question's gold keys among its top k items' keys; MRR@10 of the
 * first item with a gold key.
 */
export function recallMetrics(results, queries, gold, keysOf, ks) {
  const recall = Object.fromEntries(ks.map((k) => [k, []]));
  const rr = [];
  for (const q of queries) {
    const items = results.get(q.id) ?? [];
    const want = new Set(gold(q));
    for (const k of ks) {
      const got = new Set(
        items
          .slice(0, k)
          .flatMap(keysOf)
          .filter((x) => want.has(x)),
      );
      recall[k].push(got.size / want.size);
    }
    const first = items.slice(0, 10).findIndex((it) => keysOf(it).some((x) => want.has(x)));
    rr.push(first >= 0 ? 1 / (first + 1) : 0);
  }
  return {
    ...Object.fromEntries(ks.map((k) => [`recall@${k}`, round(mean(recall[k]))])),
    "MRR@10": round(mean(rr)),
  };
}
