// privacy.doNotRecord (docs/settings.md#privacy-leaving-a-person-out): a left-out person is answered when they
// address the bot, but nothing they say is written to the log (D1 or the chat object), the
// dream journal, dreaming or summaries — in a batch with other people's messages, when they
// are listed while their rows already wait, and through the OneBot backfill (its own test in
// tests/domain/backfill). A garbled key is refused and changes nothing. Own file: it changes
// the stored settings, which every test of a file shares.
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { markLogHome } from "@src/durable-objects/chat-log-home";
import type { ChatSession } from "@src/durable-objects/chat-session";
import { afterAll, beforeAll, describe, it } from "vitest";
import { logRecord } from "../support/day-log";
import { settleDreams } from "../support/dream-settle";
import { api } from "../support/knowledge-api";
import { leaveOut } from "../support/leave-out";
import { uid } from "../support/memory";
import { logQuery } from "../support/object-log";
import { eventIdOf, groupAtBody, postQq, turnDone } from "../support/qq-events";
import { storedSettings, storeSettings } from "../support/stored-settings";
import { eventually } from "../support/wait";

beforeAll(async () => {
  await storeSettings(env, { follow: { groups: ["*"] }, memory: { dreaming: { afterTurns: 2 } } });
});
afterAll(async () => {
  await storedSettings(env).write("{}", "test", Date.now());
});

const n = async (sql: string, ...binds: unknown[]) =>
  (
    await env.DB.prepare(sql)
      .bind(...binds)
      .first<{ n: number }>()
  )?.n ?? -1;

/** A count in the chat's own log, its object (decision 0471). */
const inLog = async (chat: string, sql: string, ...binds: SqlStorageValue[]) =>
  (await logQuery<{ n: number }>(chat, sql, ...binds))[0]?.n ?? -1;

/** Every row of the chat object's own log tables that mentions `needle`. */
async function inChatObject(chat: string, needle: string) {
  return runInDurableObject(env.CHAT_SESSION.getByName(chat), (_o: ChatSession, state) => {
    const like = `%${needle}%`;
    const q = (table: string) =>
      state.storage.sql
        .exec<{ n: number }>(`SELECT count(*) AS n FROM ${table} WHERE text LIKE ?`, like)
        .one().n;
    const outbox = state.storage.sql
      .exec<{ n: number }>("SELECT count(*) AS n FROM outbox WHERE body LIKE ?", like)
      .one().n;
    // The inbox keeps a done event only as its dedupe record: the payload is gone.
    const inbox = state.storage.sql
      .exec<{ n: number }>("SELECT count(*) AS n FROM inbox WHERE payload LIKE ?", like)
      .one().n;
    return { recent: q("recent_turns"), journal: q("dream_journal"), outbox, inbox };
  });
}

/** `member` says `text` in the group; waits until the chat's log holds exactly one row of theirs. */
async function sayAndLogged(group: string, member: string, text: string, what: string) {
  const chat = `qq:group:${group}`;
  const body = groupAtBody({ group, member, text });
  await postQq(body);
  await turnDone(chat, eventIdOf(body));
  await eventually(
    async () =>
      (await inLog(chat, "SELECT count(*) AS n FROM messages WHERE account_key = ?", `qq:user:${member}`)) ===
      1,
    10_000,
    what,
  );
}

describe("a left-out person", () => {
  it("is answered, but in a batch with others leaves no row in D1, the chat object, dreaming or memory", async ({
    expect,
  }) => {
    const tag = uid();
    const group = `G${tag}`;
    const chat = `qq:group:${group}`;
    const out = `L${tag}`;
    const other = `M${tag}`;
    expect((await leaveOut("POST", { account: `qq:user:${out}` })).status).toBe(200);

    // Posted back to back: one alarm triages them together.
    const bodies = [
      groupAtBody({ group, member: out, text: `我喜欢爬山${tag}` }),
      groupAtBody({ group, member: other, text: `我喜欢游泳${tag}` }),
      groupAtBody({ group, member: out, text: `我的老板是王总${tag}` }),
      groupAtBody({ group, member: other, text: `我是老师${tag}` }),
    ];
    for (const b of bodies) expect((await postQq(b)).status).toBe(200);
    const statuses = await Promise.all(bodies.map((b) => turnDone(chat, eventIdOf(b))));
    // Answered: the left-out person's turns got their replies like anyone's.
    for (const s of [statuses[0], statuses[2]]) {
      expect(s?.replies.length).toBeGreaterThan(0);
      expect(s?.replies.every((r) => r.state === "sent")).toBe(true);
    }

    // The others are logged and dreamed (two turns), which shows flush and dreaming ran.
    await eventually(
      async () => (await inLog(chat, "SELECT count(*) AS n FROM messages WHERE direction = 'in'")) === 2,
      10_000,
      "the others' rows",
    );
    await settleDreams(chat);
    await eventually(
      async () =>
        (await n("SELECT count(*) AS n FROM nodes WHERE scope_id = ?1 AND raw_text LIKE '%游泳%'", chat)) > 0,
      10_000,
      "dreaming of the others",
    );
    expect(await n("SELECT count(*) AS n FROM messages WHERE account_key = ?1", `qq:user:${out}`)).toBe(0);
    expect(
      await inLog(chat, "SELECT count(*) AS n FROM messages WHERE account_key = ?", `qq:user:${out}`),
    ).toBe(0);
    for (const word of ["爬山", "王总"]) {
      expect(await inLog(chat, "SELECT count(*) AS n FROM messages WHERE text LIKE ?", `%${word}%`)).toBe(0);
      expect(await n("SELECT count(*) AS n FROM nodes WHERE raw_text LIKE ?1", `%${word}${tag}%`)).toBe(0);
      expect(
        await n(
          "SELECT count(*) AS n FROM nodes WHERE raw_text LIKE ?1 AND scope_id = ?2",
          `%${word}%`,
          chat,
        ),
      ).toBe(0);
      expect(
        await n(
          "SELECT count(*) AS n FROM memory_candidates WHERE chat_key = ?1 AND text LIKE ?2",
          chat,
          `%${word}%`,
        ),
      ).toBe(0);
      expect(await inChatObject(chat, word)).toEqual({ recent: 0, journal: 0, outbox: 0, inbox: 0 });
    }
    expect(
      await n("SELECT count(*) AS n FROM account_observations WHERE account_key = ?1", `qq:user:${out}`),
    ).toBe(0);
    expect(
      await n("SELECT count(*) AS n FROM account_observations WHERE account_key = ?1", `qq:user:${other}`),
    ).toBe(1);
  });

  it("listed while their rows wait in the outbox and the dream journal: none of them is written", async ({
    expect,
  }) => {
    const tag = uid();
    const chat = `qq:group:Q${tag}`;
    const out = `qq:user:LQ${tag}`;
    const other = `qq:user:MQ${tag}`;
    const stub = env.CHAT_SESSION.getByName(chat);
    const record = (account: string, id: string, text: string) =>
      logRecord(chat, Date.now(), { user: account.split(":")[2] ?? "", id, text });
    // Queued before the add: triaged into the outbox and journaled, not yet flushed or dreamed —
    // rows wait in the outbox only in a chat whose log is still read from D1 (chat-log-home.ts).
    await runInDurableObject(stub, (_o: ChatSession, state) => {
      const sql = state.storage.sql;
      markLogHome(sql, "d1");
      sql.exec(
        "INSERT INTO meta (key, value) VALUES ('chat', ?)",
        JSON.stringify({ key: chat, channel: "qq", targetType: "group", targetId: `Q${tag}` }),
      );
      for (const [account, id, text] of [
        [out, "m1", `我喜欢滑雪${tag}`],
        [other, "m2", `我喜欢下棋${tag}`],
        [out, "m3", `我养了一只猫${tag}`],
        [other, "m4", `我是医生${tag}`],
      ] as const) {
        sql.exec(
          "INSERT INTO outbox (kind, body, created_at) VALUES ('message', ?, ?)",
          JSON.stringify(record(account, id, text)),
          Date.now(),
        );
        sql.exec(
          "INSERT INTO dream_journal (role, name, account, text, ts) VALUES ('user', NULL, ?, ?, ?)",
          account,
          text,
          Date.now(),
        );
      }
    });
    expect((await leaveOut("POST", { account: out })).status).toBe(200);
    await runInDurableObject(stub, (o: ChatSession) => o.alarm());

    await eventually(
      async () => (await n("SELECT count(*) AS n FROM messages WHERE chat_key = ?1", chat)) === 2,
      10_000,
      "the other's rows",
    );
    expect(await n("SELECT count(*) AS n FROM messages WHERE account_key = ?1", out)).toBe(0);
    expect(await inLog(chat, "SELECT count(*) AS n FROM messages WHERE account_key = ?", out)).toBe(0);
    await settleDreams(chat);
    await eventually(async () => (await stub.stats()).dreamPending === 0, 10_000, "dreaming");
    expect(
      await n("SELECT count(*) AS n FROM nodes WHERE scope_id = ?1 AND raw_text LIKE '%下棋%'", chat),
    ).toBe(1);
    for (const word of ["滑雪", "猫"])
      expect(await n("SELECT count(*) AS n FROM nodes WHERE raw_text LIKE ?1", `%${word}%`)).toBe(0);
  });

  it("is also kept out by D1 itself: a row written by any other path is dropped once listed", async ({
    expect,
  }) => {
    const account = `onebot:user:9${Date.now() % 1_000_000}`;
    expect((await leaveOut("POST", { account })).status).toBe(200);
    await env.DB.prepare(
      `INSERT INTO messages (transport, chat_key, message_id, ts, user_id, account_key, nick, text, tokens, direction)
       VALUES ('onebot', 'onebot:group:1', 'x1', 1, '9', ?1, NULL, '回填的消息', '回填', 'in')`,
    )
      .bind(account)
      .run();
    expect(await n("SELECT count(*) AS n FROM messages WHERE account_key = ?1", account)).toBe(0);
  });

  it("with --forget, the same step deletes their earlier messages and sightings; the answer counts them", async ({
    expect,
  }) => {
    const tag = uid();
    const group = `F${tag}`;
    const chat = `qq:group:${group}`;
    const person = `LF${tag}`;
    await sayAndLogged(group, person, `以前说过的话${tag}`, "the earlier row");
    const done = await leaveOut("POST", { account: `qq:user:${person}`, forget: true });
    expect(done.status).toBe(200);
    expect(done.body.forgotten).toMatchObject({ messages: 1, observations: 1, linkedPerson: null });
    // Their own messages go; the bot's replies stay, as the answer says (a chat's forget takes those).
    expect(
      await n(
        "SELECT count(*) AS n FROM messages WHERE direction = 'in' AND text LIKE ?1",
        `%以前说过的话${tag}%`,
      ),
    ).toBe(0);
    expect(
      await inLog(
        chat,
        "SELECT count(*) AS n FROM messages WHERE direction = 'in' AND text LIKE ?",
        `%以前说过的话${tag}%`,
      ),
    ).toBe(0);
    expect(
      await n("SELECT count(*) AS n FROM account_observations WHERE account_key = ?1", `qq:user:${person}`),
    ).toBe(0);
    const audit = await n(
      "SELECT count(*) AS n FROM audit_log WHERE action = 'privacy.forget_account' AND target = ?1",
      `qq:user:${person}`,
    );
    expect(audit).toBe(1);

    // Taken off the list, they are recorded again.
    expect((await leaveOut("DELETE", { account: `qq:user:${person}` })).body.changed).toBe(true);
    await sayAndLogged(group, person, `现在说的话${tag}`, "recorded again");
  });

  it("a garbled or unknown-format account key is refused with the field named and changes nothing", async ({
    expect,
  }) => {
    const before = await storedSettings(env).read();
    for (const account of ["qq:group:G1", "小明", "qq:user:", "qq:user:a b", "qq:user:x:y", "  "]) {
      const res = await leaveOut("POST", { account, forget: true });
      expect(res.status, account).toBe(400);
      expect(JSON.stringify(res.body), account).toMatch(/account/);
    }
    expect((await leaveOut("DELETE", { account: "nobody" })).status).toBe(400);
    // Through the generic settings path too: the list validates whole.
    const patched = await api("/api/settings", {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ path: "privacy.doNotRecord", value: ["qq:user:ok", "garbled"] }),
    });
    expect(patched.status).toBe(400);
    expect(await storedSettings(env).read()).toBe(before);
  });
});
