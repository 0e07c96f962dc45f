// Own file: it changes the stored settings, which every test of a file shares.
/**
 * The owner's first day through the real Worker (docs/identity.md#the-first-admin): a claim
 * code from the admin API, `/claim` through the signed QQ webhook, then admins, follows and a
 * settings path through the API. The code is a credential: after the whole path it is in no
 * D1 row — message log, raw_json, audit, settings, the claim table — and no reply.
 */
import { env, exports } from "cloudflare:workers";
import { beforeAll, describe, it } from "vitest";
import { c2cBody, groupAtBody, messageRows } from "../support/qq-events";
import { storeSettings } from "../support/stored-settings";
import { say } from "../support/turns";
import { eventually } from "../support/wait";

// A production deployment's start: no group followed (the local wrangler vars follow all).
beforeAll(async () => {
  await storeSettings(env, { follow: { groups: [] } });
});

const TOKEN = "test-admin-token";

async function api(method: string, route: string, body?: unknown) {
  const headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` };
  if (body !== undefined) headers["content-type"] = "application/json";
  const res = await exports.default.fetch(
    new Request(`https://bot.test/api${route}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

/** Every text column of every table that could hold what a message carried. */
async function everythingStored(): Promise<string> {
  const tables = [
    "messages",
    "audit_log",
    "settings",
    "admin_claims",
    "account_observations",
    "chats",
    "nodes",
  ];
  const dumps = await Promise.all(
    tables.map(async (t) => JSON.stringify((await env.DB.prepare(`SELECT * FROM ${t}`).all()).results)),
  );
  return dumps.join("\n").toLowerCase();
}

const storedLayer = async () =>
  JSON.parse(
    (await env.DB.prepare("SELECT value FROM settings WHERE key = 'config'").first<{ value: string }>())
      ?.value ?? "null",
  );

describe("the first day", () => {
  it("claims the first admin with a one-time code that is stored nowhere", async ({ expect }) => {
    const issued = await api("POST", "/admins/claim");
    expect(issued.status).toBe(200);
    const code = String(issued.json.code);
    expect(code).toMatch(/^akc_[a-z2-7]{24}$/);

    // Said in a group, it is refused, not echoed, and burnt.
    const inGroup = await say(
      groupAtBody({ group: "ROOM", member: "OWNER_IN_ROOM", text: `/claim ${code}` }),
      "qq:group:ROOM",
    );
    expect(inGroup).toContain("私聊");
    expect(inGroup.toLowerCase()).not.toContain(code);
    const burnt = await say(c2cBody({ user: "OWNER", text: `/claim ${code}` }), "qq:private:OWNER");
    expect(burnt).toContain("作废");
    expect((await api("GET", "/admins")).json).toMatchObject({ admins: [], identityEnabled: false });

    const fresh = String((await api("POST", "/admins/claim")).json.code);
    const claimed = await say(
      c2cBody({ user: "OWNER", text: `/claim ${fresh.toUpperCase()}` }),
      "qq:private:OWNER",
    );
    expect(claimed).toContain("✅");
    expect(claimed).toContain("qq:user:OWNER");
    expect((await api("GET", "/admins")).json).toMatchObject({
      admins: ["qq:user:OWNER"],
      identityEnabled: true,
    });

    // Once an admin exists, claiming is refused at both ends.
    const again = await api("POST", "/admins/claim");
    expect(again.status).toBe(409);
    expect(
      await say(c2cBody({ user: "INTRUDER", text: `/claim ${fresh}` }), "qq:private:INTRUDER"),
    ).toContain("已经有管理员");

    // The private chat is always logged: the log keeps the message, masked (flushed in the background).
    const logged = await eventually(async () => {
      const rows = await messageRows("qq:private:OWNER");
      return rows.length >= 4 ? rows : undefined;
    });
    expect(logged.filter((r) => r.text.startsWith("/claim [已隐藏的凭据]"))).toHaveLength(2);
    const audit = await eventually(async () => {
      const rows = await env.DB.prepare(
        "SELECT action, detail FROM audit_log WHERE action LIKE 'admins.%'",
      ).all();
      const seen = rows.results.map((r) => `${r.action}:${JSON.parse(String(r.detail)).outcome ?? "ok"}`);
      return seen.includes("admins.claim:ok") ? seen : undefined;
    });
    expect(audit).toEqual(
      expect.arrayContaining(["admins.claim_code:ok", "admins.claim:refused", "admins.claim:ok"]),
    );
    const stored = await everythingStored();
    for (const secret of [code, fresh]) expect(stored).not.toContain(secret);
  });

  it("answers /whoami with the sender's own keys", async ({ expect }) => {
    const reply = await say(
      groupAtBody({ group: "ROOM", member: "SOMEONE", text: "/whoami" }),
      "qq:group:ROOM",
    );
    expect(reply).toContain("qq:user:SOMEONE");
    expect(reply).toContain("qq:group:ROOM");
    expect(reply).not.toContain("OWNER");
  });

  it("adds and removes admins and followed groups, refusing bad input without a change", async ({
    expect,
  }) => {
    const before = await storedLayer();
    for (const [method, route, body, field] of [
      ["POST", "/admins", { account: "not an account" }, "identity.admins"],
      ["POST", "/admins", { account: "qq:user:A", extra: 1 }, ""],
      ["POST", "/follow", { chat: "qq:private:U1" }, "chat"],
      ["POST", "/follow", { chat: "nonsense" }, "chat"],
      ["PATCH", "/settings", { path: "retention.groupDays", value: -3 }, "retention.groupDays"],
      ["PATCH", "/settings", { path: "no.such.setting", value: 1 }, ""],
      ["PATCH", "/settings", { path: "webhook.maxBodyBytes", value: 10 }, "webhook"],
    ] as const) {
      const res = await api(method, route, body);
      expect(res.status, `${method} ${route} ${JSON.stringify(body)}`).toBe(400);
      if (field) expect(String(res.json.field)).toContain(field);
      expect(await storedLayer()).toEqual(before);
    }
    const added = await api("POST", "/admins", { account: "qq:user:GROUPFACE" });
    expect(added.json).toMatchObject({ changed: true, after: ["qq:user:OWNER", "qq:user:GROUPFACE"] });
    expect((await api("POST", "/admins", { account: "qq:user:GROUPFACE" })).json).toMatchObject({
      changed: false,
    });
    expect((await api("DELETE", "/admins", { account: "qq:user:GROUPFACE" })).json).toMatchObject({
      changed: true,
      after: ["qq:user:OWNER"],
    });
    expect((await api("POST", "/follow", { chat: "qq:group:ROOM" })).json).toMatchObject({ changed: true });
    expect((await api("GET", "/follow")).json).toEqual({ groups: ["qq:group:ROOM"] });
    expect((await api("DELETE", "/follow", { chat: "qq:group:ELSEWHERE" })).json).toMatchObject({
      changed: false,
    });
    const set = await api("PATCH", "/settings", { path: "retention.groupDays", value: 30 });
    expect(set.json).toMatchObject({ path: "retention.groupDays", before: 90, after: 30, changed: true });
    const unset = await api("PATCH", "/settings", { path: "retention.groupDays", unset: true });
    expect(unset.json).toMatchObject({ before: 30, after: 90, changed: true });
    const audited = await env.DB.prepare(
      "SELECT action, target FROM audit_log WHERE action IN ('config.set', 'config.unset') ORDER BY at",
    ).all();
    expect(audited.results.map((r) => `${r.action} ${r.target}`)).toEqual(
      expect.arrayContaining([
        "config.set identity.admins",
        "config.set follow.groups",
        "config.set retention.groupDays",
        "config.unset retention.groupDays",
      ]),
    );
  });

  it("the doctor names what is missing with the command that fixes it", async ({ expect }) => {
    await api("DELETE", "/follow", { chat: "qq:group:ROOM" });
    const { status, json } = await api("GET", "/doctor?model=0");
    expect(status).toBe(200);
    const checks = json.checks as { id: string; ok: boolean; fix?: string; detail: string }[];
    expect(checks.map((c) => c.id)).toEqual(["secrets", "migrations", "admins", "follow", "vectors"]);
    expect(checks.find((c) => c.id === "admins")).toMatchObject({ ok: true });
    const follow = checks.find((c) => c.id === "follow");
    expect(follow).toMatchObject({ ok: false });
    expect(follow?.fix).toContain("follow add");
    expect(follow?.detail).toContain("qq:group:ROOM");
    // Each check's code and values let the CLI say it in the owner's language.
    expect(checks.find((c) => c.id === "admins")).toMatchObject({ code: "admins.ok" });
    expect(follow).toMatchObject({ code: "follow.none", params: { unfollowed: "qq:group:ROOM" } });
    expect(checks.find((c) => c.id === "migrations")?.ok).toBe(true);
    expect((await api("GET", "/doctor?model=maybe")).status).toBe(400);
  });
});
