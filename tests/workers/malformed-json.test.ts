/**
 * Every route that takes JSON answers a malformed or non-JSON body with 400 and changes
 * nothing: the admin API and the dev wing through the one validator (a `problem()` body naming
 * the field), the webhooks with an empty body.
 */
import { env, exports } from "cloudflare:workers";
import { signOneBotBody } from "@src/adapters/onebot/onebot-signature";
import { describe, it } from "vitest";
import { createCollection, uniqueName, upload } from "../support/knowledge-api";
import { TEST_APP_ID, TEST_SECRET } from "../support/qq-events";
import { signedQqRequest } from "../support/qq-signing";

const ADMIN = { authorization: "Bearer test-admin-token" };
const send = (path: string, body: string, headers: Record<string, string>, method = "POST") =>
  exports.default.fetch(new Request(`https://bot.test${path}`, { method, headers, body }));

const ADMIN_ROUTES: [string, string][] = [
  ["POST", "/api/kb/collections"],
  ["POST", "/api/kb/search"],
  ["POST", "/api/embeddings/rebuild"],
  ["POST", "/api/context/preview"],
  ["PUT", "/api/settings"],
];

const DEV_ROUTES = [
  "/dev/message",
  "/dev/bench/ingest",
  "/dev/bench/chat-work",
  "/dev/bench/memory/seed",
  "/dev/bench/memory/bare",
  "/dev/bench/memory/preview",
  "/dev/bench/memory/settings",
  "/dev/bench/kb-seed",
  "/dev/bench/kb-search",
  "/dev/eval/documents",
  "/dev/eval/conversation",
  "/dev/eval/refresh",
  "/dev/eval/baseline-index",
  "/dev/eval/search",
  "/dev/eval/stats",
  "/dev/eval/memory/items",
  "/dev/eval/memory/recall",
];

async function counts() {
  const row = await env.DB.prepare(
    `SELECT (SELECT count(*) FROM messages) AS messages, (SELECT count(*) FROM nodes) AS nodes,
            (SELECT count(*) FROM embeddings) AS embeddings, (SELECT count(*) FROM settings) AS settings,
            (SELECT count(*) FROM audit_log) AS audit`,
  ).first();
  return row;
}

describe("malformed JSON", () => {
  it.for(ADMIN_ROUTES)("%s %s answers 400 naming the body", async ([method, path], { expect }) => {
    const before = await counts();
    const res = await send(path, "{", { ...ADMIN, "content-type": "application/json" }, method);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: "invalid", field: "(body)" });
    expect(await counts()).toEqual(before);
  });

  it.for(ADMIN_ROUTES.filter(([m]) => m === "POST"))(
    "%s %s refuses a body that is not sent as JSON",
    async ([method, path], { expect }) => {
      const before = await counts();
      const res = await send(path, "{}", { ...ADMIN, "content-type": "text/plain" }, method);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error: "invalid", field: "content-type" });
      expect(await counts()).toEqual(before);
    },
  );

  it("POST /api/embeddings/rebuild with `{` starts no rebuild", async ({ expect }) => {
    const name = uniqueName();
    await createCollection(name);
    expect((await upload(name, [{ name: "a.txt", content: "第一段。\n\n第二段的内容。" }])).status).toBe(200);
    await env.DB.prepare("DELETE FROM embeddings").run();
    for (const type of ["application/json", "text/plain", undefined]) {
      const headers: Record<string, string> = { ...ADMIN, ...(type ? { "content-type": type } : {}) };
      expect((await send("/api/embeddings/rebuild", "{", headers)).status).toBe(400);
    }
    expect((await counts())?.embeddings).toBe(0);
    // The same route with a well-formed body does rebuild: the count above is a real observation.
    const ok = await send("/api/embeddings/rebuild", "{}", { ...ADMIN, "content-type": "application/json" });
    expect(ok.status).toBe(200);
    expect((await counts())?.embeddings).toBeGreaterThan(0);
  });

  it.for(DEV_ROUTES)("%s answers `{` and `[]` with 400, never 500", async (path, { expect }) => {
    const before = await counts();
    for (const body of ["{", "[]", '"x"']) {
      const res = await send(path, body, { "content-type": "application/json" });
      expect(res.status, body).toBe(400);
      expect(await res.json()).toMatchObject({ error: "invalid" });
    }
    expect(await counts()).toEqual(before);
  });

  it.for(DEV_ROUTES.filter((p) => p !== "/dev/bench/memory/settings"))(
    "%s answers an empty object with 400 naming a field",
    async (path, { expect }) => {
      const before = await counts();
      const res = await send(path, "{}", { "content-type": "application/json" });
      expect(res.status).toBe(400);
      const body = (await res.json()) as { error: string; field: string };
      expect(body.error).toBe("invalid");
      expect(body.field).not.toBe("(body)");
      expect(await counts()).toEqual(before);
    },
  );

  it("the QQ webhook answers a signed `{` with 400 and an empty body", async ({ expect }) => {
    const before = await counts();
    const res = await exports.default.fetch(
      await signedQqRequest("https://bot.test/webhook/qq", "{", { secret: TEST_SECRET, appId: TEST_APP_ID }),
    );
    expect(res.status).toBe(400);
    expect(await res.text()).toBe("");
    expect(await counts()).toEqual(before);
  });

  it("the OneBot webhook answers a signed `{` with 400 and an empty body", async ({ expect }) => {
    const before = await counts();
    const res = await send("/webhook/onebot", "{", {
      "content-type": "application/json",
      "x-signature": await signOneBotBody(env.ONEBOT_SECRET ?? "", "{"),
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toBe("");
    expect(await counts()).toEqual(before);
  });
});

describe("local-only routes are no CSRF target", () => {
  const layer = JSON.stringify({ memory: { retrieval: { softScope: true } } });
  const stored = () => env.DB.prepare("SELECT count(*) AS n FROM settings").first<{ n: number }>();

  it.for([
    ["text/plain", { "content-type": "text/plain" }, 400],
    ["a form", { "content-type": "application/x-www-form-urlencoded" }, 400],
    ["another origin", { "content-type": "application/json", origin: "https://evil.example" }, 403],
    ["another localhost port", { "content-type": "application/json", origin: "http://localhost:3000" }, 403],
    [
      "Sec-Fetch-Site: cross-site",
      { "content-type": "application/json", "sec-fetch-site": "cross-site" },
      403,
    ],
    ["Sec-Fetch-Site: same-site", { "content-type": "application/json", "sec-fetch-site": "same-site" }, 403],
  ] as const)("refuses a settings write from %s", async ([, headers, status], { expect }) => {
    const before = await counts();
    const res = await send("/dev/bench/memory/settings", layer, headers);
    expect(res.status).toBe(status);
    expect(await counts()).toEqual(before);
  });

  it("accepts the developer's own write and audits it", async ({ expect }) => {
    const res = await send("/dev/bench/memory/settings", layer, {
      "content-type": "application/json",
      origin: "https://bot.test",
      "sec-fetch-site": "same-origin",
    });
    expect(res.status).toBe(200);
    expect((await stored())?.n).toBe(1);
    const audit = await env.DB.prepare(
      "SELECT actor, action, target, detail FROM audit_log WHERE action = 'config.replace' ORDER BY id DESC LIMIT 1",
    ).first<{ actor: string; target: string; detail: string }>();
    expect(audit).toMatchObject({ actor: "dev-bench", target: "settings" });
    expect(JSON.parse(audit?.detail ?? "{}")).toMatchObject({
      via: "dev-bench",
      paths: "memory.retrieval.softScope",
    });
    const refused = await send(
      "/dev/bench/memory/settings",
      JSON.stringify({ webhook: { maxSkewSeconds: 30 } }),
      {
        "content-type": "application/json",
      },
    );
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: "invalid", field: "webhook" });
  });
});
