// Forgetting a person, through the API and the Identity page: the confirm step counts what
// would go and removes nothing; the forget removes exactly those rows (counted before and
// after) and says so; bad input removes nothing; every step is audited with the acting admin.
import { env } from "cloudflare:workers";
import { translator } from "@src/workers/dashboard/i18n/i18n";
import { describe, it } from "vitest";

/** The page speaks Chinese by default: what it says is read from the catalogue. */
const t = translator("zh-CN");

import { dashboardPage } from "../support/admin-session";
import { api } from "../support/knowledge-api";
import { newMemory, seedMemory, uid } from "../support/memory";
import { sessionAudit, sessionsApi } from "../support/sessions";

async function seedPerson() {
  const id = uid();
  const person = `p${id}`;
  const accounts = [`qq:user:A${id}`, `onebot:user:B${id}`];
  for (const account of accounts) {
    const res = await api("/api/identity/link", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ account, person }),
    });
    if (res.status !== 200) throw new Error(`link answered ${res.status}`);
  }
  const other = `qq:user:C${id}`;
  await seedMemory([
    newMemory(`person:${person}`, `${id} 喜欢榴莲`),
    newMemory(`account:${accounts[0]}`, `${id} 住在梧桐路`, { sensitivity: "private" }),
    newMemory(`account:${accounts[1]}`, `${id} 养了一只猫`),
    newMemory(`account:${other}`, `${id} 别人的记忆`),
  ]);
  for (const [account, chat] of [
    [accounts[0], `qq:group:G${id}`],
    [accounts[1], `onebot:group:9${id.replace(/\D/g, "").slice(0, 6)}`],
    [other, `qq:group:G${id}`],
  ] as const)
    await env.DB.prepare(
      "INSERT INTO account_observations (account_key, chat_key, user_id, first_seen, last_seen) VALUES (?1, ?2, 'u', 1, 1)",
    )
      .bind(account, chat)
      .run();
  return { id, person, accounts, other };
}

async function counts(s: { person: string; accounts: readonly string[]; other: string }) {
  const scopes = JSON.stringify([["person", s.person], ...s.accounts.map((a) => ["account", a])]);
  const row = await env.DB.prepare(
    `SELECT (SELECT count(*) FROM nodes WHERE (scope_type, scope_id) IN (SELECT value ->> '$[0]', value ->> '$[1]' FROM json_each(?1))) AS memory,
            (SELECT count(*) FROM account_observations WHERE account_key IN (SELECT value FROM json_each(?2))) AS observations,
            (SELECT count(*) FROM nodes WHERE scope_type = 'account' AND scope_id = ?3) AS otherMemory,
            (SELECT count(*) FROM account_observations WHERE account_key = ?3) AS otherObservations`,
  )
    .bind(scopes, JSON.stringify(s.accounts), s.other)
    .first<Record<string, number>>();
  return row;
}

const page = (path: string, form?: Record<string, string>) => dashboardPage(path, form);

describe("forgetting a person", () => {
  it("the API previews the counts, refuses without confirmation, then removes exactly that person's rows", async ({
    expect,
  }) => {
    const s = await seedPerson();
    const before = await counts(s);
    expect(before).toEqual({ memory: 3, observations: 2, otherMemory: 1, otherObservations: 1 });

    const preview = await sessionsApi<{ preview: Record<string, unknown>; message: string }>(
      `/people/${s.person}/forget`,
    );
    expect(preview.status).toBe(200);
    expect(preview.body.preview).toEqual({
      accounts: [...s.accounts].sort(),
      memory: 3,
      candidates: 0,
      observations: 2,
    });
    const refused = await sessionsApi(`/people/${s.person}/forget`, { confirm: "someone-else" });
    expect(refused.status).toBe(400);
    expect(await counts(s)).toEqual(before);
    const unknown = await sessionsApi(`/people/nobody${s.id}/forget`, { confirm: `nobody${s.id}` });
    expect(unknown.status).toBe(404);
    expect(await counts(s)).toEqual(before);

    const done = await sessionsApi<{ removed: Record<string, unknown> }>(`/people/${s.person}/forget`, {
      confirm: s.person,
    });
    expect(done.status).toBe(200);
    expect(done.body.removed).toMatchObject({ memory: 3, observations: 2 });
    expect(await counts(s)).toEqual({ memory: 0, observations: 0, otherMemory: 1, otherObservations: 1 });
    const audit = (await sessionAudit("session.forget-person")).filter((r) => r.target === s.person);
    expect(audit.map((r) => r.detail.outcome)).toEqual(["invalid", "ok"]);
  });

  it("the Identity page shows what would be removed, removes nothing unconfirmed, then shows what went", async ({
    expect,
  }) => {
    const s = await seedPerson();
    const before = await counts(s);
    const listed = await (await page("/admin/identity")).text();
    expect(listed).toContain(`/admin/identity/forget?person=${s.person}`);

    const confirm = await page(`/admin/identity/forget?person=${encodeURIComponent(s.person)}`);
    expect(confirm.status).toBe(200);
    const html = await confirm.text();
    expect(html).toContain('id="confirm-forget-person"');
    expect(html).toContain(t("forgetPerson.memory", { count: 3 }));
    expect(html).toContain(t("forgetPerson.observations", { count: 2 }));
    expect(await counts(s)).toEqual(before);

    const mistyped = await page("/admin/identity/forget", { person: s.person, confirm: "oops" });
    expect(mistyped.status).toBe(400);
    expect(await mistyped.text()).toContain(t("forgetPerson.notConfirmed", { person: s.person }));
    expect(await counts(s)).toEqual(before);
    const missing = await page("/admin/identity/forget?person=");
    expect(missing.status).toBe(400);
    const unknown = await page(`/admin/identity/forget?person=nobody${s.id}`);
    expect(unknown.status).toBe(400);

    const forgotten = await page("/admin/identity/forget", { person: s.person, confirm: s.person });
    expect(forgotten.status).toBe(303);
    const notice = decodeURIComponent(forgotten.headers.get("location") ?? "");
    expect(notice).toContain(`已删除 ${s.person} 的个人记忆 3 条`);
    expect(notice).toContain("观察记录 2 条");
    expect(await counts(s)).toEqual({ memory: 0, observations: 0, otherMemory: 1, otherObservations: 1 });
    const audit = (await sessionAudit("session.forget-person")).filter((r) => r.target === s.person);
    expect(audit.map((r) => [r.detail.via, r.detail.outcome])).toEqual([
      ["dashboard", "invalid"],
      ["dashboard", "ok"],
    ]);
    expect(audit.every((r) => (r.actor ?? "").length > 0)).toBe(true);
  });
});
