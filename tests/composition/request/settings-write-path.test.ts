// Own file: it changes the stored settings and their audit rows, which every test of a file shares.
//
// The stored settings have one write path (domain/config/settings-admin.ts) and three faces: the
// admin API, the dashboard form and the `config_change` tool. Each must refuse a save made from a
// revision that is no longer the stored one (nothing written, no audit row), and each save that
// lands must write the same audit row, built by the same code, in the same batch.
import { env, exports } from "cloudflare:workers";
import { d1SettingsAdmin } from "@src/composition/settings/d1-settings-admin";
import type { SettingsAdmin } from "@src/domain/config/settings-admin";
import { afterEach, describe, it } from "vitest";
import { ADMIN, withIdentity } from "../../fakes/identity-settings";
import { ADMIN_TOKEN, ORIGIN, session } from "../../support/admin-session";
import { storedSettings } from "../../support/stored-settings";
import { oneToolCall } from "../../support/tool-turn";
import { senderContext } from "../../support/turn-context";

const CHAT = "qq:group:WRITEPATH";
const BEFORE = { retention: { groupDays: 45 } };
/** What another admin saves between a face's read and its save. */
const MEANWHILE = { retention: { groupDays: 50 } };
const AFTER = { retention: { groupDays: 30 } };

type AuditRow = {
  actor: string | null;
  action: string;
  chatKey: string | null;
  target: string;
  detail: unknown;
};

const configRows = async (): Promise<AuditRow[]> =>
  (
    await env.DB.prepare(
      "SELECT actor, action, chat_key AS chatKey, target, detail FROM audit_log WHERE action LIKE 'config.%' ORDER BY id",
    ).all<AuditRow & { detail: string }>()
  ).results.map((r) => ({ ...r, detail: JSON.parse(r.detail) }));

const stored = async () => JSON.parse((await storedSettings(env).read()) ?? "null");
const seed = (document: unknown) => storedSettings(env).write(JSON.stringify(document), "seed", 1);

afterEach(async () => {
  await env.DB.prepare("DELETE FROM settings").run();
  await env.DB.prepare("DELETE FROM audit_log WHERE action LIKE 'config.%'").run();
});

/** The API face: the revision is the GET's ETag, sent back as If-Match. */
const api = {
  async read(): Promise<string> {
    const res = await exports.default.fetch(
      new Request(`${ORIGIN}/api/settings`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } }),
    );
    return res.headers.get("etag") ?? "";
  },
  async save(revision: string, document: unknown): Promise<number> {
    const res = await exports.default.fetch(
      new Request(`${ORIGIN}/api/settings`, {
        method: "PUT",
        headers: {
          authorization: `Bearer ${ADMIN_TOKEN}`,
          "content-type": "application/json",
          "if-match": revision,
        },
        body: JSON.stringify(document),
      }),
    );
    return res.status;
  },
};

/** The dashboard face: the revision is the form's hidden field, posted back with the typed document. */
const dashboard = {
  async read(): Promise<string> {
    const s = await session();
    const html = await (
      await exports.default.fetch(new Request(`${ORIGIN}/admin/settings`, { headers: { cookie: s.cookie } }))
    ).text();
    return /name="revision" value="([^"]*)"/.exec(html)?.[1] ?? "";
  },
  async save(revision: string, document: unknown): Promise<number> {
    const s = await session();
    const res = await exports.default.fetch(
      new Request(`${ORIGIN}/admin/settings`, {
        method: "POST",
        headers: { cookie: s.cookie, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ _csrf: s.csrf, stored: JSON.stringify(document), revision }).toString(),
        redirect: "manual",
      }),
    );
    return res.status;
  },
};

/** The tool face: one turn in which the admin's model sets retention.groupDays; the tool's answer. */
async function tool(admin: SettingsAdmin): Promise<string> {
  const { answer } = await oneToolCall(
    "config_change",
    { action: "set", path: "retention.groupDays", value: "30" },
    senderContext(CHAT, "改设置", ADMIN, withIdentity()),
    { settingsAdmin: admin },
  );
  return answer;
}

/** The stored settings as the tool reads them, with another admin's save landing right after the read. */
function racingAdmin(): SettingsAdmin {
  const admin = d1SettingsAdmin(env);
  return {
    ...admin,
    layers: async () => {
      const read = await admin.layers();
      await seed(MEANWHILE);
      return read;
    },
  };
}

/** The row every face writes, but for who and through which face. */
const sameRow = { changed: 1, paths: "retention.groupDays" };

describe("the one settings write path", () => {
  it.for([
    ["the admin API", api, "admin-api", "api"],
    ["the dashboard form", dashboard, "admin", "dashboard"],
  ] as const)(
    "%s refuses a stale revision, then saves with its audit row",
    async ([, face, actor, via], { expect }) => {
      await seed(BEFORE);
      const stale = await face.read();
      await seed(MEANWHILE);
      expect(await face.save(stale, AFTER)).toBe(409);
      expect(await stored()).toEqual(MEANWHILE);
      expect(await configRows()).toEqual([]);

      const fresh = await face.read();
      expect(fresh).not.toBe(stale);
      expect(await face.save(fresh, AFTER)).toBe(200);
      expect(await stored()).toEqual(AFTER);
      expect(await configRows()).toEqual([
        { actor, action: "config.replace", chatKey: null, target: "settings", detail: { via, ...sameRow } },
      ]);
    },
  );

  it("config_change refuses a stale revision, then saves with its audit row", async ({ expect }) => {
    await seed(BEFORE);
    expect(await tool(racingAdmin())).toContain("被另一处修改");
    expect(await stored()).toEqual(MEANWHILE);
    expect(await configRows()).toEqual([]);

    expect(await tool(d1SettingsAdmin(env))).toContain("已将 retention.groupDays 从 50 改为 30");
    expect(await stored()).toEqual(AFTER);
    expect(await configRows()).toEqual([
      {
        actor: ADMIN,
        action: "config.set",
        chatKey: CHAT,
        target: "retention.groupDays",
        detail: { via: "tool", ...sameRow, before: "50", after: "30" },
      },
    ]);
  });
});
