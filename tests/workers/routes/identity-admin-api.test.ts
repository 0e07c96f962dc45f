// Own file: it stores identity settings and links, which every test of a file shares.
import { env } from "cloudflare:workers";
import { beforeAll, describe, it } from "vitest";
import { adminApi as api, auditCount, withoutAdmin } from "../../support/admin-api";
import { session } from "../../support/admin-session";
import { declared, storeIdentity } from "../../support/identity-settings";
import { uid } from "../../support/memory";

const GROUP = `qq:group:G${uid()}`;
const DECLARED = `qq:user:D${uid()}`;

const linkOf = (account: string) =>
  env.DB.prepare("SELECT person_id, source, linked_by FROM person_accounts WHERE account_key = ?")
    .bind(account)
    .first();

beforeAll(async () => {
  await storeIdentity({
    people: [declared("owner", "浅色", [DECLARED])],
    admins: ["person:owner"],
    chatDomains: { club: [GROUP] },
  });
  await env.DB.prepare(
    "INSERT INTO chats (chat_key, channel, target_type, target_id, first_seen, last_seen) VALUES (?, 'qq', 'group', ?, 1, 2)",
  )
    .bind(GROUP, GROUP.split(":")[2])
    .run();
});

describe("identity admin API", () => {
  it.for([
    ["GET", "/identity"],
    ["GET", "/identity/observations"],
    ["GET", "/identity/readers"],
    ["POST", "/identity/link"],
    ["POST", "/identity/unlink"],
  ] as const)("refuses %s %s without an admin", async ([method, path], { expect }) => {
    expect((await withoutAdmin(method, path)).status, `${method} ${path}`).toBe(401);
  });

  it("lists declared people, admins and chat domains", async ({ expect }) => {
    const res = await api("/identity");
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      enabled: boolean;
      declared: { id: string }[];
      admins: string[];
      chatDomains: unknown;
    };
    expect(body.enabled).toBe(true);
    expect(body.declared.map((p) => p.id)).toEqual(["owner"]);
    expect(body.admins).toEqual(["person:owner"]);
    expect(body.chatDomains).toEqual({ club: [GROUP] });
  });

  it("answers per shared chat what each sender reads, with no private level readable", async ({ expect }) => {
    const res = await api("/identity/readers");
    expect(res.status).toBe(200);
    const { chats } = (await res.json()) as {
      chats: {
        chat: string;
        risks: string[];
        readers: { reader: string; scopes: { scope: string; sensitivities: string[] }[] }[];
      }[];
    };
    const group = chats.find((c) => c.chat === GROUP);
    expect(group?.risks).toEqual([]);
    const owner = group?.readers.find((r) => r.reader === "person:owner");
    expect(owner?.scopes.find((s) => s.scope === "person:owner")?.sensitivities).toEqual(["public"]);
    expect((await api("/identity/readers?chat=nonsense")).status).toBe(400);
  });

  it("links and unlinks an account, audited with the acting admin", async ({ expect }) => {
    const account = `qq:user:L${uid()}`;
    const s = await session();
    const cookie = { authorization: "", cookie: s.cookie, "x-csrf-token": s.csrf };
    const linked = await api("/identity/link", {
      method: "POST",
      headers: cookie,
      body: { account, person: "friend" },
    });
    expect(linked.status).toBe(200);
    expect(await linkOf(account)).toEqual({ person_id: "friend", source: "admin", linked_by: "admin" });
    const audit = await env.DB.prepare(
      "SELECT actor, detail FROM audit_log WHERE action = 'identity.link' AND target = ?",
    )
      .bind(account)
      .first<{ actor: string; detail: string }>();
    expect(audit?.actor).toBe("admin");
    expect(JSON.parse(audit?.detail ?? "{}")).toMatchObject({ person: "friend", created: true });
    const unlinked = await api("/identity/unlink", { method: "POST", body: { account } });
    expect(unlinked.status).toBe(200);
    expect(await linkOf(account)).toEqual({ person_id: null, source: "admin", linked_by: "admin-api" });
    expect(
      await env.DB.prepare("SELECT actor FROM audit_log WHERE action = 'identity.unlink' AND target = ?")
        .bind(account)
        .first(),
    ).toEqual({ actor: "admin-api" });
  });

  it("refuses a cookie request without its CSRF token, changing nothing", async ({ expect }) => {
    const account = `qq:user:C${uid()}`;
    const s = await session();
    const before = await auditCount("identity.");
    const res = await api("/identity/link", {
      method: "POST",
      headers: { authorization: "", cookie: s.cookie },
      body: { account, person: "friend" },
    });
    expect(res.status).toBe(403);
    expect(await linkOf(account)).toBeNull();
    expect(await auditCount("identity.")).toBe(before);
  });

  it("refuses bad input with the field named, changing nothing", async ({ expect }) => {
    const before = await auditCount("identity.");
    for (const [body, field] of [
      [{ account: "not-an-account", person: "friend" }, "account"],
      [{ account: `qq:user:B${uid()}`, person: "bad id!" }, "person"],
      [{ account: DECLARED, person: "friend" }, "account"],
      [{ account: `qq:user:B${uid()}` }, "person"],
      [{ account: `qq:user:B${uid()}`, person: "p", extra: 1 }, "(body)"],
    ] as const) {
      const res = await api("/identity/link", { method: "POST", body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(((await res.json()) as { field: string }).field).toBe(field);
    }
    expect(await linkOf(DECLARED)).toBeNull();
    expect(await auditCount("identity.")).toBe(before);
  });
});
