// Own file: it changes the stored settings, which every test of a file shares.
import { env, exports } from "cloudflare:workers";
import { loadSettings } from "@src/composition/settings/settings-loader";
import { DEFAULT_SETTINGS } from "@src/domain/config/settings";
import { explainIssue, type ValidationIssue } from "@src/domain/kernel/validation-issue";
import { MAX_SETTINGS_BYTES } from "@src/workers/routes/admin.routes";
import { afterEach, describe, it } from "vitest";
import { storedSettings } from "../../support/stored-settings";

const TOKEN = "test-admin-token";
const store = storedSettings(env);

function api(method: "GET" | "PUT", body?: string, token: string | null = TOKEN) {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (token !== null) headers.authorization = `Bearer ${token}`;
  return exports.default.fetch(new Request("https://bot.test/api/settings", { method, headers, body }));
}

const storedRow = () => storedSettings(env).row();

afterEach(async () => {
  await env.DB.prepare("DELETE FROM settings").run();
});

describe("settings API", () => {
  it.for([
    ["GET", null],
    ["PUT", null],
    ["GET", "wrong"],
    ["PUT", "wrong"],
  ] as const)("answers %s with token %s: 401", async ([method, token], { expect }) => {
    const res = await api(method, method === "PUT" ? "{}" : undefined, token);
    expect(res.status).toBe(401);
    expect(await storedRow()).toBeNull();
  });

  it("shows the layers and the settings they resolve to", async ({ expect }) => {
    const res = await api("GET");
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toEqual({
      effective: { ...DEFAULT_SETTINGS, follow: { groups: ["*"] } },
      stored: null,
      var: JSON.parse(env.AKASHA_CONFIG),
    });
  });

  it("replaces the stored layer, audits it, and every reader sees it", async ({ expect }) => {
    const document = { memory: { dreaming: { enabled: false } }, retention: { groupDays: 30 } };
    const res = await api("PUT", JSON.stringify(document));
    expect(res.status).toBe(200);
    const answer = (await res.json()) as { effective: typeof DEFAULT_SETTINGS; stored: unknown };
    expect(answer.stored).toEqual(document);
    expect(answer.effective.memory.dreaming.enabled).toBe(false);
    expect(answer.effective.retention).toEqual({ groupDays: 30, privateDays: 180 });

    expect(await storedRow()).toEqual({ value: JSON.stringify(document), by: "admin-api" });
    const shown = (await (await api("GET")).json()) as {
      stored: unknown;
      effective: typeof DEFAULT_SETTINGS;
    };
    expect(shown.stored).toEqual(document);
    expect(shown.effective.retention.groupDays).toBe(30);
    const loaded = await loadSettings(env);
    expect(loaded.memory.dreaming.enabled).toBe(false);
    expect(loaded.follow.groups).toEqual(["*"]);

    const audit = await env.DB.prepare(
      "SELECT actor, action, target, detail FROM audit_log WHERE action = 'config.replace' ORDER BY id DESC LIMIT 1",
    ).first<{ actor: string; action: string; target: string; detail: string }>();
    expect(audit).toMatchObject({ actor: "admin-api", target: "settings" });
    expect(JSON.parse(audit?.detail ?? "{}")).toEqual({
      via: "api",
      changed: 2,
      paths: "memory.dreaming.enabled, retention.groupDays",
    });
  });

  it.for([
    ["a wrong type", { memory: { dreaming: { enabled: "yes" } } }, "memory.dreaming.enabled", "boolean"],
    [
      "an unknown key",
      { memory: { dreaming: { sometimes: true } } },
      "memory.dreaming",
      "unknown setting 'sometimes'",
    ],
    ["an out-of-range number", { retention: { groupDays: 0 } }, "retention.groupDays", ">="],
    ["an unknown section", { colour: "blue" }, "(root)", "unknown setting 'colour'"],
    ["a bad identity", { identity: { admins: ["person:ghost"] } }, "identity.admins.0", "unknown person"],
    ["a non-object", [1, 2], "(root)", "must be a JSON object"],
  ] as const)(
    "refuses %s naming the field, and writes nothing",
    async ([, body, field, reason], { expect }) => {
      const before = { retention: { groupDays: 45 } };
      expect((await api("PUT", JSON.stringify(before))).status).toBe(200);
      const row = await storedRow();
      const res = await api("PUT", JSON.stringify(body));
      expect(res.status).toBe(400);
      const answer = (await res.json()) as { error: string; field: string; reason: string };
      expect(answer).toMatchObject({ error: "invalid", field });
      expect(answer.reason).toContain(reason);
      expect(await storedRow()).toEqual(row);
      expect((await loadSettings(env)).retention.groupDays).toBe(45);
    },
  );

  it("gives the schema's failure as data without the refused value, for each reader's language", async ({
    expect,
  }) => {
    const res = await api("PUT", JSON.stringify({ retention: { groupDays: 0 }, turn: { persona: 7 } }));
    expect(res.status).toBe(400);
    const answer = (await res.json()) as { field: string; issue: Record<string, unknown> };
    expect(answer.issue).toEqual({ origin: "number", code: "too_small", minimum: 1, inclusive: true });
    expect(explainIssue(answer.issue as ValidationIssue, "zh-CN")).toBe("数值过小：期望 number >=1");
    const typed = await api("PUT", JSON.stringify({ turn: { persona: 123456789 } }));
    const wrong = (await typed.json()) as { issue: Record<string, unknown> };
    // The wrong type is said ("received number") without the value that was sent.
    expect(wrong.issue).toEqual({ expected: "string", code: "invalid_type", input: 0 });
    expect(JSON.stringify(wrong)).not.toContain("123456789");
    expect(explainIssue(wrong.issue as ValidationIssue, "en")).toBe(
      "Invalid input: expected string, received number",
    );
    expect(await storedRow()).toBeNull();
  });

  it.for([
    ["malformed JSON", "{ not json", 400, "malformed JSON"],
    ["an empty body", "", 400, "is empty"],
    [
      "an oversized body",
      JSON.stringify({ turn: { persona: "长".repeat(MAX_SETTINGS_BYTES) } }),
      413,
      "larger than",
    ],
  ] as const)("refuses %s clearly", async ([, body, status, reason], { expect }) => {
    const res = await api("PUT", body);
    expect(res.status).toBe(status);
    expect(((await res.json()) as { reason: string }).reason).toContain(reason);
    expect(await storedRow()).toBeNull();
  });

  it("reports a stored layer that the loader ignores", async ({ expect }) => {
    await store.write(JSON.stringify({ retention: { groupDays: -5 } }), "test", Date.now());
    const body = (await (await api("GET")).json()) as {
      effective: typeof DEFAULT_SETTINGS;
      storedError: { field: string };
    };
    expect(body.effective.retention.groupDays).toBe(DEFAULT_SETTINGS.retention.groupDays);
    expect(body.storedError).toMatchObject({ field: "retention.groupDays" });
  });
});
