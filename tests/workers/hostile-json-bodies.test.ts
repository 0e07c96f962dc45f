/**
 * Deeply nested JSON, in every body the Worker parses, answers a clear 4xx naming the limit,
 * changes nothing, and leaves the Worker answering: the admin API (the one validator and the
 * settings document), the dashboard's settings form, and both webhooks once their signature
 * was checked (a forged deep body is refused for its signature first).
 */
import { env, exports } from "cloudflare:workers";
import { MAX_JSON_DEPTH } from "@src/domain/kernel/bounded-json";
import { beforeAll, describe, it } from "vitest";
import { dashboardPage } from "../support/admin-session";
import { signedOneBotRequest } from "../support/onebot-signing";
import { c2cBody, eventIdOf, messageRows, postQq, turnDone } from "../support/qq-events";
import { eventually } from "../support/wait";

const ADMIN = { authorization: "Bearer test-admin-token" };
const send = (path: string, body: string | undefined, headers: Record<string, string>, method = "POST") =>
  exports.default.fetch(new Request(`https://bot.test${path}`, { method, headers, body }));

/** `levels` arrays inside one another: 100,000 levels fit in 200 KB, under every body cap. */
const nested = (levels: number) => `${"[".repeat(levels)}${"]".repeat(levels)}`;
const objects = (levels: number) => `${'{"a":'.repeat(levels)}1${"}".repeat(levels)}`;

const DEEP = [
  ["100,000 arrays", nested(100_000)],
  ["20,000 objects", objects(20_000)],
  ["one level over the limit", nested(MAX_JSON_DEPTH + 1)],
] as const;

const JSON_ROUTES: [string, string, (deep: string) => string][] = [
  ["PUT", "/api/settings", (deep) => `{"retention":${deep}}`],
  ["POST", "/api/kb/search", (deep) => `{"query":"x","turns":${deep}}`],
  ["POST", "/api/context/preview", (deep) => `{"chat":"qq:group:G1","text":"hi","x":${deep}}`],
  ["POST", "/api/kb/collections", (deep) => `{"name":${deep}}`],
  ["POST", "/dev/message", (deep) => `{"chat":"qq:group:G1","text":${deep}}`],
];

async function counts() {
  return env.DB.prepare(
    `SELECT (SELECT count(*) FROM messages) AS messages, (SELECT count(*) FROM settings) AS settings,
            (SELECT count(*) FROM audit_log) AS audit, (SELECT count(*) FROM kb_collections) AS collections`,
  ).first();
}

/** The Worker still answers an ordinary request after the hostile one. */
async function stillAnswers(expect: (v: unknown) => { toBe(x: unknown): void }) {
  const res = await send("/api/settings", undefined, ADMIN, "GET");
  expect(res.status).toBe(200);
}

// The first request loads the Worker's whole module graph; on a busy machine that alone can
// take most of a test's time budget.
beforeAll(() => exports.default.fetch(new Request("https://bot.test/healthz")), 120_000);

describe("deeply nested JSON bodies", () => {
  for (const [method, path, body] of JSON_ROUTES)
    it.for(DEEP)(
      `${method} ${path} with %s answers 400 naming the depth limit`,
      async ([, deep], { expect }) => {
        const before = await counts();
        const res = await send(path, body(deep), { ...ADMIN, "content-type": "application/json" }, method);
        expect(res.status).toBe(400);
        const answer = (await res.json()) as { error: string; field: string; reason: string };
        expect(answer).toMatchObject({ error: "invalid", field: "(body)" });
        expect(answer.reason).toContain(`${MAX_JSON_DEPTH} levels`);
        expect(await counts()).toEqual(before);
        await stillAnswers(expect);
      },
    );

  it("accepts nesting at the limit (the limit is where it says)", async ({ expect }) => {
    const res = await send("/api/kb/search", `{"query":"x","turns":${nested(MAX_JSON_DEPTH - 1)}}`, {
      ...ADMIN,
      "content-type": "application/json",
    });
    // Refused by the schema (turns are strings), not by the depth limit.
    expect(res.status).toBe(400);
    const answer = (await res.json()) as { field: string; reason: string };
    expect(answer.field).not.toBe("(body)");
  });

  it("the dashboard's settings form shows the limit and saves nothing", async ({ expect }) => {
    const before = await counts();
    const res = await dashboardPage("/admin/settings", { stored: `{"retention":${nested(50_000)}}` });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain(`${MAX_JSON_DEPTH} levels`);
    expect(await counts()).toEqual(before);
    await stillAnswers(expect);
  });
});

describe("deeply nested webhook bodies", () => {
  const qqDeep = (deep: string) => {
    const event = JSON.parse(c2cBody({ user: "U_DEEP", text: "/ping" }));
    return JSON.stringify(event).replace('"d":{', `"d":{"extra":${deep},`);
  };

  it.for(DEEP)("a signed QQ event with %s answers 400 and stores nothing", async ([, deep], { expect }) => {
    const before = await counts();
    const res = await postQq(qqDeep(deep));
    expect(res.status).toBe(400);
    expect(await res.text()).toBe("");
    expect(await counts()).toEqual(before);
    const user = `U_AFTER_${crypto.randomUUID().slice(0, 8)}`;
    const ping = c2cBody({ user, text: "/ping" });
    const normal = await postQq(ping);
    expect(normal.status).toBe(200);
    // The ordinary event's turn and its log rows (flushed in batches) land after the ACK: wait
    // for both, so the next test's "stores nothing" compares counts nothing of this one changes.
    await turnDone(`qq:private:${user}`, eventIdOf(ping));
    await eventually(async () => ((await messageRows(`qq:private:${user}`)).length === 2 ? true : undefined));
  });

  it("a forged deep QQ event is refused for its signature, before its depth is looked at", async ({
    expect,
  }) => {
    const res = await postQq(qqDeep(nested(100_000)), { secret: "not-the-secret-0123456789abcdef" });
    expect(res.status).toBe(401);
  });

  it.for(DEEP)(
    "a signed OneBot event with %s answers 400 and stores nothing",
    async ([, deep], { expect }) => {
      const before = await counts();
      const body = JSON.stringify({
        time: Math.floor(Date.now() / 1000),
        self_id: 10000,
        post_type: "message",
        message_type: "private",
        sub_type: "friend",
        message_id: 424242,
        user_id: 5150,
        message: [{ type: "text", data: { text: "/ping" } }],
        raw_message: "/ping",
        font: 0,
        sender: { user_id: 5150, nickname: "小明" },
      }).replace('"font":0', `"font":0,"extra":${deep}`);
      const res = await exports.default.fetch(
        await signedOneBotRequest("https://bot.test/webhook/onebot", body),
      );
      expect(res.status).toBe(400);
      expect(await counts()).toEqual(before);
      await stillAnswers(expect);
    },
  );
});
