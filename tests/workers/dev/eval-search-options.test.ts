/**
 * The evaluation's `--options` reach the pipeline grouped by stage; a name that is no option
 * (a typo, or the flat names of the older shape) is refused rather than run as the defaults.
 */
import { exports } from "cloudflare:workers";
import { describe, it } from "vitest";

const search = (options: unknown) =>
  exports.default.fetch(
    new Request("https://bot.test/dev/eval/search", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        mode: "pipeline",
        limit: 5,
        options,
        queries: [{ id: "q", text: "风神", scopes: ["collection:eval-options"] }],
      }),
    }),
  );

describe("/dev/eval/search options", () => {
  it("refuses options that name no stage field, naming them", async ({ expect }) => {
    const res = await search({ parentTokens: 0, expand: { neighbour: 1 } });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: string; field: string; reason: string };
    expect(body).toMatchObject({ error: "invalid", field: "options" });
    expect(body.reason).toContain("parentTokens");
    expect(body.reason).toContain("expand.neighbour");
  });

  it("runs options grouped by stage", async ({ expect }) => {
    const res = await search({ expand: { parentTokens: 0 }, fuse: { weights: { vector: 0 } } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { results: { id: string; items: unknown[] }[] };
    expect(body.results.map((r) => [r.id, r.items.length])).toEqual([["q", 0]]);
  });
});
