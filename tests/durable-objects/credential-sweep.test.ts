// One chat object's stores read again by today's detectors (credential-sweep.ts): rows written
// before a detector read their wording, straight into the stores as they were then. Counted
// without `mask` (nothing written), rewritten with it — log, full-text index, short-term
// context, dream journal, reply plans, open reminders — page by page, and a second run finds
// nothing.

import { chatIndexText } from "@src/domain/text/chat-search-tokens";
import { sweepCredentialsHere } from "@src/durable-objects/credential-sweep";
import { DreamJournal } from "@src/durable-objects/dream-journal";
import { LocalLog } from "@src/durable-objects/local-log";
import { RecentTurns } from "@src/durable-objects/recent-turns";
import { Reminders } from "@src/durable-objects/reminders";
import { ReplyPlan } from "@src/durable-objects/reply-plan";
import { describe, it } from "vitest";
import { inFreshChatObject } from "../support/chat-object";
import { loggedBefore } from "../support/logged-before";

const CHAT = "qq:private:U1";
const VALUE = "酸辣土豆丝";
const SAID = `压缩包打开要输 ${VALUE} 别外传`;
const ECHO = `好的，记住了：${VALUE}`;

function seed(sql: SqlStorage, texts: readonly string[]) {
  const log = new LocalLog(sql);
  for (const [i, text] of texts.entries())
    log.append(loggedBefore(CHAT, i, text, i % 2 === 0 ? "in" : "out"));
  new RecentTurns(sql).append({ role: "user", name: "小王", text: SAID, ts: 1 }, "qq:user:U1");
  new RecentTurns(sql).append({ role: "assistant", name: null, text: ECHO, ts: 2 }, null);
  new DreamJournal(sql).append({
    role: "user",
    name: "小王",
    account: "qq:user:U1",
    unionId: null,
    messageId: "m0",
    text: SAID,
    ts: 1,
    explicitSensitivity: null,
  });
  new ReplyPlan(sql).plan(1, [ECHO]);
  // An open reminder that will say the value in this chat; a sent one's text is already cleared.
  const reminder = (event: string, text: string, state: string) =>
    sql.exec(
      `INSERT INTO reminders (event_id, set_by, set_by_name, text, due_at, created_at, delivery, state, chat, transport)
       VALUES (?, 'qq:user:U1', '小王', ?, 9, 1, 'push', ?, '{}', 'qq')`,
      event,
      text,
      state,
    );
  reminder("e1", `把 ${VALUE} 告诉老婆`, "open");
  reminder("e2", "", "sent");
}

/** The index terms of the value: what the log's full-text indexes hold of it. */
const TERMS = [...new Set(chatIndexText(CHAT, VALUE).split(" "))];

const storesOf = (storage: DurableObjectStorage) => ({
  sql: storage.sql,
  recent: new RecentTurns(storage.sql),
  journal: new DreamJournal(storage.sql),
  replies: new ReplyPlan(storage.sql),
  reminders: new Reminders(storage),
});

/** Every text of the stores and every term the log's indexes hold, as one string. */
function everything(sql: SqlStorage): string {
  const rows = (q: string) => JSON.stringify(sql.exec(q).toArray());
  const vocab = (fts: string) => {
    sql.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS ${fts}_v USING fts5vocab(${fts}, 'row')`);
    return rows(`SELECT term FROM ${fts}_v`);
  };
  return [
    rows("SELECT text, tokens, raw_json FROM messages"),
    rows("SELECT tokens FROM message_windows"),
    rows("SELECT text FROM recent_turns"),
    rows("SELECT text FROM dream_journal"),
    rows("SELECT text FROM replies"),
    rows("SELECT text FROM reminders"),
    vocab("messages_fts"),
    vocab("message_windows_fts"),
  ].join("\n");
}

describe("a chat object's stores read again by today's detectors", () => {
  it("counts what holds a value without writing, then masks it everywhere; a second run finds nothing", async ({
    expect,
  }) => {
    await inFreshChatObject((storage) => {
      const sql = storage.sql;
      seed(sql, [SAID, ECHO, "今晚吃什么", "随便"]);
      const before = everything(sql);
      expect(before).toContain(VALUE);
      for (const term of TERMS) expect(before).toContain(term);

      const counted = sweepCredentialsHere(storesOf(storage), { mask: false, afterSeq: 0, maxRows: 100 });
      expect(counted).toEqual({ read: 4, holding: 2, other: 5, nextSeq: null });
      expect(everything(sql)).toBe(before);

      const masked = sweepCredentialsHere(storesOf(storage), { mask: true, afterSeq: 0, maxRows: 100 });
      expect(masked).toEqual({ read: 4, holding: 2, other: 5, nextSeq: null });
      const after = everything(sql);
      for (const gone of [VALUE, ...TERMS]) expect(after).not.toContain(gone);
      expect(after).toContain("今晚吃什么");
      expect(sql.exec("SELECT text FROM messages WHERE message_id = 'm1'").one().text).toBe(
        "好的，记住了：[已隐藏的凭据]",
      );

      const again = sweepCredentialsHere(storesOf(storage), { mask: true, afterSeq: 0, maxRows: 100 });
      expect(again).toEqual({ read: 4, holding: 0, other: 0, nextSeq: null });
    });
  });

  it("goes page by page, masking a value's repetition on the next page with it; counts add up alike", async ({
    expect,
  }) => {
    await inFreshChatObject((storage) => {
      const sql = storage.sql;
      seed(sql, ["你好", SAID, ECHO, "在吗", "好的"]);
      const seqs = sql
        .exec<{ seq: number }>("SELECT seq FROM messages ORDER BY seq")
        .toArray()
        .map((r) => r.seq);
      const run = (mask: boolean) => {
        const pages = [];
        for (let after: number | null = 0; after !== null; ) {
          const page = sweepCredentialsHere(storesOf(storage), { mask, afterSeq: after, maxRows: 2 });
          pages.push([page.read, page.holding, page.other, page.nextSeq]);
          after = page.nextSeq;
        }
        return pages;
      };
      // Counting: each row in the call whose page it is in; the small stores with the first.
      expect(run(false)).toEqual([
        [2, 1, 5, seqs[1]],
        [2, 1, 0, seqs[3]],
        [1, 0, 0, null],
      ]);
      // Masking: the reply on the next page goes with the value, which that page cannot read again.
      expect(run(true)).toEqual([
        [2, 2, 5, seqs[1]],
        [2, 0, 0, seqs[3]],
        [1, 0, 0, null],
      ]);
      expect(everything(sql)).not.toContain(VALUE);
    });
  });
});
