// A person's profiles on the Identity page and in GET /api/identity/profiles: the profile shown as
// the groups' holds the person's public items alone, whatever wording the private and secret ones
// are in (taught through real turns, and written straight to D1 at every level); the person's own
// profile adds the private ones, never the secret ones; only an admin sees either. Own file: it
// stores identity settings, which every test of a file shares.
import { env, exports } from "cloudflare:workers";
import type { PersonProfilesView } from "@src/composition/request/identity-service";
import { beforeAll, describe, it } from "vitest";
import { session } from "../../support/admin-session";
import { c2cBodyWithIdentity, uid as idOf } from "../../support/identity";
import { newMemory, seedMemory, uid } from "../../support/memory";
import { preview } from "../../support/preview";
import { storeSettings } from "../../support/stored-settings";
import { say } from "../../support/turns";

const run = uid().slice(0, 6);
const PERSON = `rin${run}`;
const GROUP_ACCOUNT = idOf("RING");
const PRIVATE_ACCOUNT = idOf("RINP");
const ACCOUNTS = [`qq:user:${GROUP_ACCOUNT}`, `qq:user:${PRIVATE_ACCOUNT}`];

const PUBLIC = [`喜欢在河边写生${run}`, `养了一只叫年糕的柯基${run}`];
/** Wordings of things kept from a group, in forms no rule was tuned on. */
const PRIVATE = [
  `ﾌﾙｰﾄ教室の月謝をまだ払っていない${run}`,
  `住的地方其实是幸福里 88 弄 3 号 1202${run}`,
  `薪水大概 42k 一个月，别外传${run}`,
  `actually left-handed, keeps it quiet at work${run}`,
];
const SECRET = [`心理科复诊定在周三下午${run}`, `乙肝小三阳，一直在吃药${run}`];
/** Taught in the person's private chat: the production rules decide their level. */
const TAUGHT = [`/remember 我在偷偷找新工作，面了三家${run}`, `记住：我跟室友闹掰了，正在找房${run}`];
const TAUGHT_MARKS = [`面了三家${run}`, `正在找房${run}`];

const page = async (path: string, cookie: string | null) =>
  exports.default.fetch(
    new Request(`https://bot.test${path}`, { headers: cookie ? { cookie } : {}, redirect: "manual" }),
  );
const api = (path: string, token: string | null = "test-admin-token") =>
  exports.default.fetch(
    new Request(`https://bot.test/api${path}`, {
      headers: token ? { authorization: `Bearer ${token}` } : {},
    }),
  );

/** The text of each card of the page, by its title. */
function cards(html: string): { title: string; body: string }[] {
  return html
    .split('<section class="card">')
    .slice(1)
    .map((part) => {
      const body = part.slice(0, part.indexOf("</section>"));
      return { title: body.match(/<h3>(.*?)<\/h3>/u)?.[1] ?? "", body };
    });
}

beforeAll(async () => {
  await storeSettings(env, {
    identity: { enabled: true, people: [{ id: PERSON, displayName: "凛", accounts: ACCOUNTS }] },
  });
  const person = `person:${PERSON}`;
  const account = `account:${ACCOUNTS[0]}`;
  await seedMemory([
    ...PUBLIC.map((t, i) => newMemory(i === 0 ? person : account, t, { kind: "fact", importance: 0.6 })),
    // More important than the public ones: a leak would be the first line.
    ...PRIVATE.map((t, i) =>
      newMemory(i % 2 === 0 ? person : account, t, {
        sensitivity: "private",
        kind: "fact",
        importance: 0.95,
      }),
    ),
    ...SECRET.map((t, i) =>
      newMemory(i % 2 === 0 ? person : account, t, { sensitivity: "secret_like", importance: 1 }),
    ),
  ]);
  for (const said of TAUGHT)
    await say(c2cBodyWithIdentity({ user: PRIVATE_ACCOUNT, text: said }), `qq:private:${PRIVATE_ACCOUNT}`);
});

describe("a person's profiles as admins see them", () => {
  it("the groups' profile holds public items alone; the person's own adds private, never secret", async ({
    expect,
  }) => {
    for (const mark of TAUGHT_MARKS) {
      const row = await env.DB.prepare("SELECT sensitivity FROM nodes WHERE raw_text LIKE ?")
        .bind(`%${mark}%`)
        .first<{ sensitivity: string }>();
      expect({ mark, level: row?.sensitivity === "public" ? "public" : "kept" }).toEqual({
        mark,
        level: "kept",
      });
    }
    const res = await api(`/identity/profiles?person=${PERSON}`);
    expect(res.status).toBe(200);
    const view = (await res.json()) as PersonProfilesView;
    expect(view.accounts.map((a) => a.account)).toEqual([...ACCOUNTS].sort());
    for (const a of view.accounts) {
      for (const hidden of [...PRIVATE, ...SECRET, ...TAUGHT_MARKS])
        expect({ account: a.account, hidden, shown: a.public.text.includes(hidden) }).toMatchObject({
          shown: false,
        });
      for (const secret of SECRET) expect(a.own.text).not.toContain(secret);
      expect(a.public.text).toContain(PUBLIC[0]);
    }
    const first = view.accounts.find((a) => a.account === ACCOUNTS[0]);
    expect(first?.public.items).toBe(2);
    for (const p of PRIVATE) expect(first?.own.text).toContain(p);

    const html = await (await page(`/admin/identity/person?id=${PERSON}`, (await session()).cookie)).text();
    const shown = cards(html);
    expect(shown.map((c) => c.title)).toEqual(
      Array(2).fill(["群聊中可见（仅公开）", "本人私聊中可见"]).flat(),
    );
    for (const card of shown.filter((c) => c.title.startsWith("群聊"))) {
      for (const hidden of [...PRIVATE, ...SECRET, ...TAUGHT_MARKS]) expect(card.body).not.toContain(hidden);
    }
    for (const card of shown) for (const secret of SECRET) expect(card.body).not.toContain(secret);
    expect(html).toContain("2 条记忆");
  });

  it("shows when a turn kept the profile, and the same text the turn read", async ({ expect }) => {
    const group = `qq:group:${idOf("G")}`;
    const turn = await preview({ chat: group, sender: GROUP_ACCOUNT, text: `你好 ${run}` });
    const view = (await (await api(`/identity/profiles?person=${PERSON}`)).json()) as PersonProfilesView;
    const first = view.accounts.find((a) => a.account === ACCOUNTS[0]);
    expect(first?.public.builtAt).not.toBeNull();
    expect(first?.public.text).toBe(turn.mandatory.profile);
    const html = await (await page(`/admin/identity/person?id=${PERSON}`, (await session()).cookie)).text();
    expect(html).toContain("生成于");
  });

  it("is for admins only, and names an unknown person as not found", async ({ expect }) => {
    expect((await api(`/identity/profiles?person=${PERSON}`, null)).status).toBe(401);
    expect((await api(`/identity/profiles?person=${PERSON}`, "not-the-token")).status).toBe(401);
    const anonymous = await page(`/admin/identity/person?id=${PERSON}`, null);
    expect(anonymous.status).not.toBe(200);
    expect(await anonymous.text()).not.toContain(PUBLIC[0]);
    expect((await api("/identity/profiles?person=nobody-here")).status).toBe(404);
    expect((await api("/identity/profiles")).status).toBe(400);
    const missing = await page("/admin/identity/person?id=nobody-here", (await session()).cookie);
    expect(missing.status).toBe(404);
  });
});
