import type { Candidate } from "@src/domain/retrieval/ports";
import { DEFAULT_RETRIEVAL_OPTIONS, withOverrides } from "@src/domain/retrieval/retrieval-options";
import { retrieve } from "@src/domain/retrieval/retrieve";
import { fieldEvidence, fieldRanking } from "@src/domain/retrieval/stages/field-scores";
import { readQuery } from "@src/domain/retrieval/stages/read-query";
import { describe, it } from "vitest";
import { CountingKeywords, FakeStore, filter, node } from "../../../fakes/retrieval-ports";

describe("field evidence", () => {
  const under = (id: string, path: string[]) => node(id, "collection:vue", `${id} 缓存`, { path });
  const visibleOf = (...nodes: ReturnType<typeof node>[]) => new Map(nodes.map((n) => [n.nodeId, n]));
  const candidates = (ids: string[]): Candidate[] =>
    ids.map((nodeId, i) => ({ nodeId, score: 1 / (61 + i) }));
  const terms = new Map([["缓存", 1]]);
  const options = (headingWeight: number, relevanceFloor: number) =>
    withOverrides(DEFAULT_RETRIEVAL_OPTIONS, { fields: { headingWeight }, coverage: { relevanceFloor } });

  it("ranks by fields only where most candidates sit under headings, and only with counted terms", ({
    expect,
  }) => {
    const q = readQuery("缓存", options(3, 0));
    const sectioned = visibleOf(under("a", ["缓存"]), under("b", ["组件"]), under("c", []));
    const flat = visibleOf(under("a", []), under("b", []), under("c", ["缓存"]));
    const e = fieldEvidence(q, terms, candidates(["a", "b", "c"]), sectioned, options(3, 0));
    expect(e.fielded).toBe(true);
    expect([...(e.fields?.keys() ?? [])]).toEqual(["a", "b", "c"]);
    expect(fieldEvidence(q, terms, candidates(["a", "b", "c"]), flat, options(3, 0)).fielded).toBe(false);
    expect(fieldEvidence(q, null, candidates(["a", "b", "c"]), sectioned, options(3, 0))).toEqual({
      fielded: false,
      terms: null,
      names: null,
      fields: null,
    });
  });

  it("reads fields for the floor alone only when the asking turn names identifiers", ({ expect }) => {
    const visible = visibleOf(under("a", []), under("b", []));
    const named = fieldEvidence(
      readQuery("storetorefs", options(0, 0.5)),
      new Map([["storetorefs", 2]]),
      candidates(["a", "b"]),
      visible,
      options(0, 0.5),
    );
    expect(named.fielded).toBe(false);
    expect([...(named.names?.keys() ?? [])]).toEqual(["storetorefs"]);
    expect(named.fields?.size).toBe(2);
    const unnamed = fieldEvidence(
      readQuery("缓存", options(0, 0.5)),
      terms,
      candidates(["a"]),
      visible,
      options(0, 0.5),
    );
    expect(unnamed.names?.size).toBe(0);
    expect(unnamed.fields).toBeNull();
  });

  it("leaves the ranking to the hint list when it is not fielded", ({ expect }) => {
    const o = options(3, 0);
    const e = { fielded: false, terms, names: null, fields: null };
    expect(fieldRanking([], readQuery("缓存", o), e, new Map(), o.fields, 60)).toBeNull();
  });
});

describe("document evidence", () => {
  // One API entry that answers best on its own, and a guide page with three sections about
  // the same thing, each a little weaker.
  const section = (id: string, root: string, path: string[], text: string) =>
    node(id, "collection:vue", text, { rootId: root, parentId: `${id}-s`, path, title: root });
  const nodes = [
    section("api", "api", ["内置组件", "keepalive"], "keepalive include exclude max 缓存 组件实例"),
    section("g1", "guide", ["缓存", "基本用法"], "keepalive include 缓存 组件 切换"),
    section("g2", "guide", ["缓存", "最大缓存实例数"], "keepalive include 缓存 组件 数量"),
    section("g3", "guide", ["缓存", "生命周期"], "keepalive include 缓存 组件 激活"),
  ];
  const ask = (roots?: number) =>
    retrieve(
      { keywords: new CountingKeywords(nodes), store: new FakeStore(nodes) },
      {
        query: "keepalive include",
        filter: filter(["collection:vue"]),
        options: withOverrides(DEFAULT_RETRIEVAL_OPTIONS, {
          fields: { headingWeight: 3, weights: roots === undefined ? {} : { roots } },
        }),
      },
    );

  it("is off unless asked for: the entry that answers best alone ranks first", async ({ expect }) => {
    expect((await ask()).items[0]?.node.nodeId).toBe("api");
    expect((await ask(0)).items[0]?.node.nodeId).toBe("api");
  });

  it("when weighted, lifts the page with several matching sections", async ({ expect }) => {
    expect((await ask(1)).items[0]?.node.nodeId).toBe("g1");
  });
});
