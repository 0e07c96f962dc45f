/**
 * One page read across several sources in turn, as if they were one list: the offset runs over
 * the first source's rows, then the next's. Each source says how many rows it read (`scanned`),
 * what it found among them, and how many it holds; a source past the page is asked for none, but
 * still counted.
 */

export type PageAsk = { readonly limit: number; readonly offset: number };

export type SourcePage<T> = {
  readonly scanned: number;
  readonly found: readonly T[];
  readonly total: number;
};

export type ChainedPage<T> = {
  readonly scanned: number;
  readonly total: number;
  /** Where the next page starts, or null after the last row. */
  readonly nextOffset: number | null;
  readonly found: T[];
};

export async function chainedPage<T>(
  sources: readonly ((ask: PageAsk) => Promise<SourcePage<T>>)[],
  ask: PageAsk,
): Promise<ChainedPage<T>> {
  let before = 0;
  let scanned = 0;
  const found: T[] = [];
  for (const source of sources) {
    const page = await source({
      limit: Math.max(ask.limit - scanned, 0),
      offset: Math.max(ask.offset - before, 0),
    });
    scanned += page.scanned;
    found.push(...page.found);
    before += page.total;
  }
  const end = ask.offset + scanned;
  return { scanned, total: before, nextOffset: end < before && scanned > 0 ? end : null, found };
}
