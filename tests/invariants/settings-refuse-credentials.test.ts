/**
 * A settings write that holds a credential is refused whole, whichever way it comes: the admin
 * API, the dashboard form and the `config_change` tool share one edit (settings-edit.ts).
 *
 * Own file: it changes the stored settings, which every test of a file shares.
 */
import { env } from "cloudflare:workers";
import { d1SettingsAdmin } from "@src/composition/settings/d1-settings-admin";
import { defaultTurnRegistry } from "@src/domain/agent/default-turn-registry";
import { runTurn } from "@src/domain/agent/turn";
import { afterEach, beforeEach, describe, type ExpectStatic, it } from "vitest";
import { ADMIN, withIdentity } from "../fakes/identity-settings";
import { messageEvent } from "../fakes/inbound";
import { callingOneTool } from "../fakes/scripted-chat-model";
import { TEST_NOW, turnPorts } from "../fakes/turn-ports";
import { adminApi } from "../support/admin-api";
import { dashboardPage } from "../support/admin-session";
import { storedSettings } from "../support/stored-settings";
import { turnContext } from "../support/turn-context";

const HF = "hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789";
const PERSONA = `你是小助手。部署用 ${HF}`;
const REASON = "holds a credential; credentials belong in secrets, not settings";
const BEFORE = { retention: { groupDays: 45 } };

const storedRow = () => storedSettings(env).row();

const configAudits = async () =>
  (
    await env.DB.prepare("SELECT count(*) AS n FROM audit_log WHERE action LIKE 'config.%'").first<{
      n: number;
    }>()
  )?.n ?? 0;

/** Nothing changed: the earlier document is still stored, and nowhere holds the value. */
async function expectUnchanged(expect: ExpectStatic, audits: number, needle = HF.slice(3)) {
  expect(JSON.parse((await storedRow())?.value ?? "null")).toEqual(BEFORE);
  expect(await configAudits()).toBe(audits);
  const anywhere = await env.DB.prepare(
    "SELECT (SELECT count(*) FROM settings WHERE value LIKE ?1) + (SELECT count(*) FROM audit_log WHERE detail LIKE ?1 OR target LIKE ?1) AS n",
  )
    .bind(`%${needle}%`)
    .first<{ n: number }>();
  expect(anywhere?.n).toBe(0);
}

beforeEach(async () => {
  await env.DB.prepare(
    "INSERT INTO settings (key, value, updated_at, updated_by) VALUES ('config', ?1, 1, 'seed') ON CONFLICT (key) DO UPDATE SET value = ?1",
  )
    .bind(JSON.stringify(BEFORE))
    .run();
});

afterEach(async () => {
  await env.DB.prepare("DELETE FROM settings").run();
});

/** The settings document with this persona, as the API and the dashboard's JSON field take it. */
const withPersona = (persona: string) => ({ ...BEFORE, turn: { persona } });

const putPersona = (persona: string) => adminApi("/settings", { method: "PUT", body: withPersona(persona) });

const postPersonaForm = (persona: string) =>
  dashboardPage("/admin/settings", {
    stored: JSON.stringify(withPersona(persona)),
    fresh: "0",
    revision: JSON.stringify(BEFORE),
  });

/** An admin asks in a group to set the persona: the tool's answer to the model, and the turn's audit rows. */
async function personaByConfigChange(persona: string) {
  const model = callingOneTool(
    "config_change",
    { action: "set", path: "turn.persona", value: JSON.stringify(persona) },
    { text: "好的" },
  );
  const event = messageEvent({
    chat: "qq:group:CONFIG1",
    text: "改设置",
    sender: ADMIN.split(":")[2] ?? ADMIN,
  });
  const context = turnContext(event, { text: "改设置", settings: withIdentity(), now: TEST_NOW });
  const ports = turnPorts({ model, settingsAdmin: d1SettingsAdmin(env) });
  const result = await runTurn(context, ports, defaultTurnRegistry());
  if (!result.ok) throw new Error("turn failed");
  const answer = model.requests[1]?.messages.find((m) => m.role === "tool")?.content ?? "";
  return { answer, audit: result.value.audit };
}

describe("settings refuse a credential", () => {
  it("PUT /api/settings answers 400 naming the field, and changes nothing", async ({ expect }) => {
    const audits = await configAudits();
    const res = await putPersona(PERSONA);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: "invalid", field: "turn.persona", reason: REASON });
    await expectUnchanged(expect, audits);
  });

  it("the dashboard form shows the field and saves nothing", async ({ expect }) => {
    const audits = await configAudits();
    const res = await postPersonaForm(PERSONA);
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain("turn.persona");
    expect(html).toContain("credentials belong in secrets, not settings");
    await expectUnchanged(expect, audits);
  });

  it("config_change answers with the field and stores neither the value nor its audit copy", async ({
    expect,
  }) => {
    const audits = await configAudits();
    const { answer, audit } = await personaByConfigChange(PERSONA);
    expect(answer).toBe(`拒绝：turn.persona ${REASON}。什么都没有改变。`);
    expect(audit).toMatchObject([
      { action: "config.set", target: "turn.persona", outcome: "invalid", detail: { field: "turn.persona" } },
    ]);
    expect(JSON.stringify(audit)).not.toContain(HF.slice(3));
    await expectUnchanged(expect, audits);
  });
});

/**
 * The persona is prose an admin types, read as a message is (docs/decisions/0670-settings-persona-read-as-messages.md):
 * a value given without a keyword, which only the reader of values finds, is refused too.
 */
const UNANNOUNCED = [
  { persona: "你是店里的小助手。客人问起后门，就说是 Tq83&mw", value: "Tq83&mw" },
  { persona: "你是小幫手。倉庫那扇門設的是 Rv27#kd", value: "Rv27#kd" },
  { persona: "你是群里的助手，语气轻松。服务器的 root 登进去用 Lp09_vz2", value: "Lp09_vz2" },
];

describe.each(UNANNOUNCED)(
  "a persona that gives a value without a keyword: $persona",
  ({ persona, value }) => {
    it("is refused by the API, the dashboard form and config_change alike", async ({ expect }) => {
      const audits = await configAudits();
      const api = await putPersona(persona);
      expect(api.status).toBe(400);
      expect(await api.json()).toEqual({ error: "invalid", field: "turn.persona", reason: REASON });
      const form = await postPersonaForm(persona);
      expect(form.status).toBe(400);
      expect(await form.text()).toContain("turn.persona");
      const { answer, audit } = await personaByConfigChange(persona);
      expect(answer).toBe(`拒绝：turn.persona ${REASON}。什么都没有改变。`);
      expect(JSON.stringify(audit)).not.toContain(value);
      await expectUnchanged(expect, audits, value);
    });
  },
);

it("a persona with a model name and a version in it is still saved", async ({ expect }) => {
  const persona = "你是技术群的助手，熟悉 qwen2.5-7b-instruct 和 node v22.11.0，回答简短。";
  const res = await putPersona(persona);
  expect(res.status).toBe(200);
  expect(JSON.parse((await storedRow())?.value ?? "null")).toMatchObject({ turn: { persona } });
});
