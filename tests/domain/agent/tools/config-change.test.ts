// Own file: it changes the stored settings, which every test of a file shares.
import { env } from "cloudflare:workers";
import { d1SettingsAdmin } from "@src/composition/settings/d1-settings-admin";
import { loadSettings } from "@src/composition/settings/settings-loader";
import { configChangeTool } from "@src/domain/agent/tools/config-change-tool";
import { gateFor } from "@src/domain/authorization/authorization-gate";
import type { Settings } from "@src/domain/config/settings";
import type { AuditEntry } from "@src/domain/kernel/audit";
import { afterEach, describe, it } from "vitest";
import { ADMIN, ADMIN_GATE_REFUSALS, MEMBER, withIdentity } from "../../../fakes/identity-settings";
import { turnPorts } from "../../../fakes/turn-ports";
import { storedSettings } from "../../../support/stored-settings";
import { oneToolCall } from "../../../support/tool-turn";
import { senderContext } from "../../../support/turn-context";

const CHAT = "qq:group:CONFIG1";

const context = (sender: string, settings: Settings) => senderContext(CHAT, "改设置", sender, settings);

/** One turn in which the model calls config_change with `args`; the tool's answer and the audit. */
const change = (args: Record<string, unknown>, sender = ADMIN, settings = withIdentity()) =>
  oneToolCall("config_change", args, context(sender, settings), { settingsAdmin: d1SettingsAdmin(env) });

const storedRow = () => storedSettings(env).row();

const seed = (document: unknown) =>
  env.DB.prepare(
    "INSERT INTO settings (key, value, updated_at, updated_by) VALUES ('config', ?1, 1, 'seed') ON CONFLICT (key) DO UPDATE SET value = ?1",
  )
    .bind(JSON.stringify(document))
    .run();

afterEach(async () => {
  await env.DB.prepare("DELETE FROM settings").run();
  await env.DB.prepare("DELETE FROM audit_log WHERE action LIKE 'config.%'").run();
});

describe("config_change", () => {
  it.for(ADMIN_GATE_REFUSALS)(
    "refuses %s with the gate's reason and writes nothing",
    async ([, sender, settings, reason], { expect }) => {
      const refused = gateFor(settings.identity).requireAdmin("config_change", sender);
      const { answer, audit } = await change(
        { action: "set", path: "memory.dreaming.enabled", value: "false" },
        sender,
        settings,
      );
      expect(answer).toBe(`拒绝：${refused.ok ? "" : refused.error.reason}`);
      expect(answer).toContain(reason);
      expect(audit).toMatchObject([{ action: "config_change", actor: sender, outcome: "refused" }]);
      expect(await storedRow()).toBeNull();
    },
  );

  it("checks the gate itself when called without the turn's guard", async ({ expect }) => {
    const recorded: AuditEntry[] = [];
    const result = await configChangeTool.run(
      { action: "set", path: "retention.groupDays", value: "7" },
      context(MEMBER, withIdentity()),
      { ...turnPorts({ settingsAdmin: d1SettingsAdmin(env) }), audit: { record: (e) => recorded.push(e) } },
    );
    expect(result).toMatchObject({ ok: false, content: expect.stringContaining("不在 identity.admins 中") });
    expect(recorded).toMatchObject([
      {
        action: "config.set",
        target: "retention.groupDays",
        outcome: "refused",
        detail: { cause: "not-admin" },
      },
    ]);
    expect(await storedRow()).toBeNull();
  });

  it("sets, reads and unsets a setting for an admin, audited, and the loader follows", async ({ expect }) => {
    await seed({ retention: { groupDays: 45 } });
    const set = await change({ action: "set", path: "memory.dreaming.enabled", value: "false" });
    expect(set.answer).toBe(
      "已将 memory.dreaming.enabled 从 true 改为 false（存储层）。各聊天约 10 秒内生效（每个实例的设置缓存最多保留 10 秒）。",
    );
    // A change is audited by the settings write path itself, in the save's own batch.
    expect(set.audit).toEqual([]);
    expect(await configRows()).toMatchObject([
      {
        action: "config.set",
        actor: ADMIN,
        chatKey: CHAT,
        target: "memory.dreaming.enabled",
        detail: { via: "tool", before: "true", after: "false" },
      },
    ]);
    const row = await storedRow();
    expect(row?.by).toBe(ADMIN);
    expect(JSON.parse(row?.value ?? "null")).toEqual({
      retention: { groupDays: 45 },
      memory: { dreaming: { enabled: false } },
    });
    expect((await loadSettings(env)).memory.dreaming.enabled).toBe(false);

    const get = await change({ action: "get", path: "memory.dreaming.enabled" });
    expect(get.answer).toBe("memory.dreaming.enabled = false（来自存储层覆盖）");
    expect(get.audit).toMatchObject([{ action: "config.get", outcome: "ok" }]);
    const fromVar = await change({ action: "get", path: "follow.groups" });
    expect(fromVar.answer).toBe('follow.groups = ["*"]（来自默认值或 AKASHA_CONFIG）');

    const unset = await change({ action: "unset", path: "memory.dreaming.enabled" });
    expect(unset.answer).toBe(
      "已删除存储层中的 memory.dreaming.enabled（原为 false），现在生效值为 true（来自默认值或 AKASHA_CONFIG）。各聊天约 10 秒内生效（每个实例的设置缓存最多保留 10 秒）。",
    );
    expect(unset.audit).toEqual([]);
    expect((await configRows()).at(-1)).toMatchObject({
      action: "config.unset",
      detail: { via: "tool", removed: true, before: "false", after: "true" },
    });
    expect(JSON.parse((await storedRow())?.value ?? "null")).toEqual({ retention: { groupDays: 45 } });
    expect((await loadSettings(env)).memory.dreaming.enabled).toBe(true);

    const again = await change({ action: "unset", path: "memory.dreaming.enabled" });
    expect(again.answer).toBe("存储层没有设置 memory.dreaming.enabled，什么都没有改变（当前生效值 true）。");
  });

  it.for([
    ["identity.admins", { action: "set", path: "identity.admins", value: '["qq:user:MEMBER_OPENID"]' }],
    ["identity.enabled", { action: "set", path: "identity.enabled", value: "false" }],
    ["identity (whole)", { action: "set", path: "identity", value: "{}" }],
    ["an identity unset", { action: "unset", path: "identity.admins" }],
  ] as const)("refuses %s from a chat and writes nothing", async ([, args], { expect }) => {
    await seed({ identity: { enabled: true, admins: [ADMIN] } });
    const before = await storedRow();
    const { answer, audit } = await change(args);
    expect(answer).toContain("identity 下的设置");
    expect(answer).toContain("不能在聊天中修改");
    expect(audit).toMatchObject([
      { actor: ADMIN, outcome: "refused", detail: { cause: "identity-protected" } },
    ]);
    expect(await storedRow()).toEqual(before);
  });

  it.for([
    ["a wrong type", "memory.dreaming.enabled", '"yes"', "拒绝：memory.dreaming.enabled"],
    [
      "an unknown key",
      "memory.dreaming.sometimes",
      "true",
      "拒绝：memory.dreaming unknown setting 'sometimes'",
    ],
    ["an out-of-range number", "retention.groupDays", "0", "拒绝：retention.groupDays"],
    ["value that is not JSON", "turn.persona", "你好", "value 不是合法的 JSON"],
  ] as const)("refuses %s and writes nothing", async ([, path, value, message], { expect }) => {
    await seed({ retention: { groupDays: 45 } });
    const before = await storedRow();
    const { answer, audit } = await change({ action: "set", path, value });
    expect(answer).toContain(message);
    expect(answer).toContain("什么都没有改变");
    expect(audit).toMatchObject([{ action: "config.set", outcome: "invalid" }]);
    expect(await storedRow()).toEqual(before);
    expect((await loadSettings(env)).retention.groupDays).toBe(45);
  });

  it.for([
    ["an unknown action", { action: "reload", path: "turn.persona" }, "action 必须是 get、set 或 unset"],
    ["a bad path", { action: "get", path: "turn..persona" }, "path 必须是点分设置路径"],
    ["an unknown path", { action: "get", path: "turn.colour" }, "没有设置 turn.colour。"],
  ] as const)("answers %s clearly", async ([, args, message], { expect }) => {
    const { answer, audit } = await change(args);
    expect(answer).toContain(message);
    expect(audit).toMatchObject([{ outcome: "invalid" }]);
    expect(await storedRow()).toBeNull();
  });
});

/** A save as the one write path sends it, audited as `by`. */
const saving = (stored: Record<string, unknown>, by: string, revision: string | null) => ({
  stored,
  revision,
  audit: {
    at: Date.now(),
    actor: by,
    action: "config.replace",
    chatKey: null,
    target: "settings",
    detail: {},
  },
});

/** The settings audit rows in D1, oldest first. */
const configRows = async () =>
  (
    await env.DB.prepare(
      "SELECT actor, action, chat_key AS chatKey, target, detail FROM audit_log WHERE action LIKE 'config.%' ORDER BY id",
    ).all<{ actor: string | null; action: string; chatKey: string | null; target: string; detail: string }>()
  ).results.map((r) => ({ ...r, detail: JSON.parse(r.detail) as Record<string, unknown> }));

describe("concurrent edits", () => {
  it("the stored layer saves only at the revision it was read at", async ({ expect }) => {
    await seed({ memory: { dreaming: { afterTurns: 30 } } });
    const admin = d1SettingsAdmin(env);
    const first = await admin.layers();
    const second = await admin.layers();
    if (!first.ok || !second.ok) throw new Error("layers unreadable");
    expect(
      await admin.save(
        saving({ memory: { dreaming: { afterTurns: 40 } } }, "a", first.value.revision ?? null),
      ),
    ).toBe(true);
    expect(
      await admin.save(
        saving({ memory: { dreaming: { afterTurns: 50 } } }, "b", second.value.revision ?? null),
      ),
    ).toBe(false);
    expect(await storedRow()).toEqual({
      value: JSON.stringify({ memory: { dreaming: { afterTurns: 40 } } }),
      by: "a",
    });
  });

  it("a first save with no row yet loses to one that got there before it", async ({ expect }) => {
    const admin = d1SettingsAdmin(env);
    expect(await admin.save(saving({ memory: { dreaming: { afterTurns: 40 } } }, "a", null))).toBe(true);
    expect(await admin.save(saving({ memory: { dreaming: { afterTurns: 50 } } }, "b", null))).toBe(false);
    expect((await storedRow())?.by).toBe("a");
    // The refused save wrote no audit row either: both or neither.
    expect((await configRows()).map((r) => r.actor)).toEqual(["a"]);
  });

  it("config_change refuses a set when the stored layer changed after it read it", async ({ expect }) => {
    await seed({ memory: { dreaming: { afterTurns: 30 } } });
    const admin = d1SettingsAdmin(env);
    // Another admin's edit lands between this tool's read and its save.
    const racing = {
      ...admin,
      layers: async () => {
        const read = await admin.layers();
        await seed({ memory: { dreaming: { afterTurns: 45 } } });
        return read;
      },
    };
    const { answer, audit } = await oneToolCall(
      "config_change",
      { action: "set", path: "memory.dreaming.idleMinutes", value: "5" },
      context(ADMIN, withIdentity()),
      { settingsAdmin: racing },
    );
    expect(answer).toContain("被另一处修改");
    expect(JSON.parse((await storedRow())?.value ?? "null")).toEqual({
      memory: { dreaming: { afterTurns: 45 } },
    });
    expect(audit).toMatchObject([
      { action: "config.set", outcome: "failed", detail: { cause: "concurrent-change" } },
    ]);
  });
});
