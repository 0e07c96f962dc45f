// `leave-out add <account> --forget` (docs/settings.md#privacy-leaving-a-person-out) deletes the
// account's own messages from every chat's log: each chat object's own SQLite (with its full-text
// and turn-window indexes) as well as D1. The chats are found from the account's sightings and
// from D1's rows of it; other people's messages stay. A chat object that fails leaves the forget
// not done, said so in the answer with the chats it could not reach, and a re-run finishes it.
// Own file: it changes the stored settings, which every test of a file shares.
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import type { MessageRecord } from "@src/domain/history/message-record";
import { chatMatchExpression } from "@src/domain/text/chat-search-tokens";
import type { ChatSession } from "@src/durable-objects/chat-session";
import { afterAll, describe, it } from "vitest";
import { logRecord } from "../support/day-log";
import { leaveOut } from "../support/leave-out";
import { uid } from "../support/memory";
import { logToObjects, objectWindowMatches, writeLog } from "../support/object-log";
import { storedSettings } from "../support/stored-settings";

afterAll(async () => {
  await storedSettings(env).write("{}", "test", Date.now());
});

let clock = Date.parse("2026-11-02T10:00:00Z");
/** `account` (a qq:user) says `text` in `chatKey`, a minute after the message before. */
function said(chatKey: string, account: string, text: string): MessageRecord {
  clock += 60_000;
  const user = account.split(":")[2] ?? "";
  return logRecord(chatKey, clock, { user, nick: user, text });
}

/** What a chat object's own log still holds of `word`: rows, full-text hits, turn-window hits. */
async function inObject(chat: string, word: string) {
  const expression = chatMatchExpression(chat, word) ?? "";
  const [rows, fts] = await runInDurableObject(env.CHAT_SESSION.getByName(chat), (_o: ChatSession, state) => [
    state.storage.sql
      .exec<{ n: number }>("SELECT count(*) AS n FROM messages WHERE text LIKE ?", `%${word}%`)
      .one().n,
    state.storage.sql
      .exec<{ n: number }>("SELECT count(*) AS n FROM messages_fts WHERE messages_fts MATCH ?", expression)
      .one().n,
  ]);
  return { rows, fts, windows: (await objectWindowMatches(chat, expression)).length };
}

const inD1 = async (account: string) =>
  (
    await env.DB.prepare("SELECT count(*) AS n FROM messages WHERE account_key = ?1")
      .bind(account)
      .first<{ n: number }>()
  )?.n ?? -1;

/** A sighting of the account in a chat, as every inbound message of it writes. */
async function sighted(account: string, chat: string) {
  await env.DB.prepare(
    `INSERT INTO account_observations (account_key, chat_key, user_id, display_name, first_seen, last_seen)
     VALUES (?1, ?2, ?3, NULL, 1, 1)`,
  )
    .bind(account, chat, account.split(":")[2])
    .run();
}

describe("forgetting a left-out person's past", () => {
  it("deletes their messages from every chat object's log and its indexes, and from D1; others' stay", async ({
    expect,
  }) => {
    const tag = uid();
    const person = `qq:user:P${tag}`;
    const other = `qq:user:O${tag}`;
    const groupA = `qq:group:GA${tag}`;
    const groupB = `qq:group:GB${tag}`;
    const dm = `qq:private:P${tag}`;
    // This chat's object holds the person's message but D1 has no row of it: found by the sighting.
    const hidden = `qq:group:GH${tag}`;
    await writeLog([
      said(groupA, person, "周末去爬山吧"),
      said(groupA, other, "好啊我带帐篷"),
      said(groupA, person, "我的体检结果不太好"),
      said(groupB, person, "明天考试复习第五章"),
      said(groupB, other, "第五章习题很难"),
      said(dm, person, "帮我记住我的生日是三月"),
    ]);
    await logToObjects([said(hidden, person, "这是只在对象里的消息"), said(hidden, other, "别人的话还在")]);
    await sighted(person, hidden);

    const done = await leaveOut("POST", { account: person, forget: true });
    expect(done.status).toBe(200);
    // Five messages, each counted once: four also in D1, one only in its chat's object.
    expect(done.body.forgotten).toMatchObject({ messages: 5, notDone: [] });
    expect(await inD1(person)).toBe(0);
    for (const [chat, word] of [
      [groupA, "爬山"],
      [groupA, "体检"],
      [groupB, "考试"],
      [dm, "生日"],
      [hidden, "只在对象里"],
    ] as const)
      expect(await inObject(chat, word), `${chat} ${word}`).toEqual({ rows: 0, fts: 0, windows: 0 });
    for (const [chat, word] of [
      [groupA, "帐篷"],
      [groupB, "习题"],
      [hidden, "别人的话"],
    ] as const) {
      const kept = await inObject(chat, word);
      expect(kept.rows, `${chat} ${word}`).toBe(1);
      expect(kept.fts, `${chat} ${word}`).toBe(1);
    }
    expect(await inD1(other)).toBe(2);
  });

  it("a chat object that fails leaves the forget not done, said so; a re-run completes it", async ({
    expect,
  }) => {
    const tag = uid();
    const person = `qq:user:R${tag}`;
    const ok = `qq:group:OK${tag}`;
    const broken = `qq:group:BR${tag}`;
    await writeLog([said(ok, person, "第一句话"), said(broken, person, "第二句话")]);
    // The broken chat's log refuses every delete until repaired.
    const breakIt = (sql: string) =>
      runInDurableObject(env.CHAT_SESSION.getByName(broken), (_o: ChatSession, state) => {
        state.storage.sql.exec(sql);
      });
    await breakIt(
      "CREATE TRIGGER refuse_delete BEFORE DELETE ON messages BEGIN SELECT RAISE(ABORT, 'broken'); END",
    );

    const first = await leaveOut("POST", { account: person, forget: true });
    expect(first.status).toBe(200);
    expect(first.body.forgotten).toMatchObject({ notDone: [broken] });
    // Nothing in D1 is deleted yet: its rows still name the chats a re-run must reach.
    expect(await inD1(person)).toBe(2);
    expect((await inObject(ok, "第一句")).rows).toBe(0);
    expect((await inObject(broken, "第二句")).rows).toBe(1);
    const audit = await env.DB.prepare(
      "SELECT detail FROM audit_log WHERE action = 'privacy.forget_account' AND target = ?1 ORDER BY at",
    )
      .bind(person)
      .all<{ detail: string }>();
    expect(audit.results.at(-1)?.detail).toContain(broken);

    await breakIt("DROP TRIGGER refuse_delete");
    const again = await leaveOut("POST", { account: person, forget: true });
    // It counts what it deleted itself: the first run already took the other chat's message.
    expect(again.body.forgotten).toMatchObject({ messages: 1, notDone: [] });
    expect(await inD1(person)).toBe(0);
    expect((await inObject(broken, "第二句")).rows).toBe(0);
  });

  it("an account key with pattern characters forgets that account alone; a garbled one is refused", async ({
    expect,
  }) => {
    const tag = uid();
    const chat = `qq:group:W${tag}`;
    const odd = `qq:user:%${tag}_`;
    const near = `qq:user:x${tag}y`;
    await writeLog([said(chat, odd, "奇怪账号的话"), said(chat, near, "相近账号的话")]);
    const done = await leaveOut("POST", { account: odd, forget: true });
    expect(done.status).toBe(200);
    expect(done.body.forgotten).toMatchObject({ messages: 1, notDone: [] });
    expect((await inObject(chat, "奇怪账号")).rows).toBe(0);
    expect((await inObject(chat, "相近账号")).rows).toBe(1);
    expect(await inD1(near)).toBe(1);
    for (const account of ["qq:user:a b", `qq:group:W${tag}`, "qq:user:", "%"]) {
      const res = await leaveOut("POST", { account, forget: true });
      expect(res.status, account).toBe(400);
    }
    expect((await inObject(chat, "相近账号")).rows).toBe(1);
  });
});
