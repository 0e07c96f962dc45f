import { type ChainedPage, chainedPage, type PageAsk } from "@src/domain/kernel/chained-pages";
import { describe, it } from "vitest";

/** A source of `rows`, finding the ones that end in "!", which records every ask it is given. */
function source(rows: readonly string[], asks: PageAsk[]) {
  return async (ask: PageAsk) => {
    asks.push(ask);
    const read = rows.slice(ask.offset, ask.offset + ask.limit);
    return { scanned: read.length, found: read.filter((r) => r.endsWith("!")), total: rows.length };
  };
}

/** Every page of the sources, `limit` rows a page. */
async function allPages(lists: readonly (readonly string[])[], limit: number) {
  const asks: PageAsk[][] = lists.map(() => []);
  const sources = lists.map((rows, i) => source(rows, asks[i] as PageAsk[]));
  const pages: ChainedPage<string>[] = [];
  for (let offset: number | null = 0; offset !== null; ) {
    const page: ChainedPage<string> = await chainedPage(sources, { limit, offset });
    pages.push(page);
    offset = page.nextOffset;
  }
  return { pages, asks };
}

describe("a page across sources in turn", () => {
  it("reads every row once, in order, across the sources' seams", async ({ expect }) => {
    const lists = [["a!", "b", "c!"], [], ["d", "e!"], ["f!"]];
    for (const limit of [1, 2, 3, 4, 10]) {
      const { pages } = await allPages(lists, limit);
      expect(pages.flatMap((p) => p.found)).toEqual(["a!", "c!", "e!", "f!"]);
      expect(pages.reduce((n, p) => n + p.scanned, 0)).toBe(6);
      expect(pages.every((p) => p.total === 6)).toBe(true);
      expect(pages.length).toBe(Math.ceil(6 / limit));
    }
  });

  it("asks a source past the page for no rows, and one before it from its own start", async ({ expect }) => {
    const { asks } = await allPages(
      [
        ["a", "b", "c"],
        ["d", "e"],
      ],
      2,
    );
    expect(asks[0]).toEqual([
      { limit: 2, offset: 0 },
      { limit: 2, offset: 2 },
      { limit: 2, offset: 4 },
    ]);
    expect(asks[1]).toEqual([
      { limit: 0, offset: 0 },
      { limit: 1, offset: 0 },
      { limit: 2, offset: 1 },
    ]);
  });

  it("ends at once when every source is empty", async ({ expect }) => {
    const { pages } = await allPages([[], []], 5);
    expect(pages).toEqual([{ scanned: 0, total: 0, nextOffset: null, found: [] }]);
  });
});
