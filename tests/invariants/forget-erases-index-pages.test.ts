/**
 * What a forget removes leaves the full-text indexes' pages too (docs/sessions.md#forget;
 * docs/decisions/0890-a-forget-erases-index-pages.md). An FTS5 delete otherwise writes a tombstone
 * and the forgotten words stay, readable to anyone who reads the database's pages, until a merge
 * happens to reach them. Each case reads the raw pages (`*_fts_data`) of D1 and of the chat
 * objects for the forgotten words, and for a word that must stay, which shows the read finds words
 * where they are: `/session forget` of a chat whose log is its object's, and of one whose rows are
 * in D1; a person left out with `--forget`, in the chat's object; an admin's forget of a memory
 * item.
 *
 * Own file: it changes the stored settings, which every test of a file shares.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import type { MessageRecord } from "@src/domain/history/message-record";
import type { ChatSession } from "@src/durable-objects/chat-session";
import { afterAll, describe, it } from "vitest";
import { adminApi } from "../support/admin-api";
import { logRecord } from "../support/day-log";
import { leaveOut } from "../support/leave-out";
import { newMemory, seedMemory, uid } from "../support/memory";
import { listedIdOf } from "../support/memory-listing";
import { logToObjects, writeLog } from "../support/object-log";
import { registerChat, sessionsApi } from "../support/sessions";
import { storedSettings } from "../support/stored-settings";
import { inGroupChat, inPrivateChat } from "../support/turns";

afterAll(async () => {
  await storedSettings(env).write("{}", "test", Date.now());
});

const decoder = new TextDecoder();
const asBytes = (block: unknown) =>
  block instanceof ArrayBuffer ? new Uint8Array(block) : Uint8Array.from((block ?? []) as number[]);

const ALL_PAGES = ["messages_fts_data", "message_windows_fts_data", "nodes_fts_data"];

/** The FTS page tables of D1 (all, or those named) that hold `word`, once per page. */
async function d1Pages(word: string, tables = ALL_PAGES): Promise<string[]> {
  const hits: string[] = [];
  for (const table of tables) {
    const { results } = await env.DB.prepare(`SELECT block FROM ${table}`).all<{ block: unknown }>();
    for (const r of results) if (decoder.decode(asBytes(r.block)).includes(word)) hits.push(`d1:${table}`);
  }
  return hits;
}

/** The FTS page tables of a chat's object that hold `word`, once per page. */
function objectPages(chat: string, word: string): Promise<string[]> {
  return runInDurableObject(env.CHAT_SESSION.getByName(chat), (_o: ChatSession, state) => {
    const hits: string[] = [];
    for (const table of ["messages_fts_data", "message_windows_fts_data"])
      for (const r of state.storage.sql.exec<{ block: ArrayBuffer }>(`SELECT block FROM ${table}`))
        if (decoder.decode(asBytes(r.block)).includes(word)) hits.push(`do:${table}`);
    return hits;
  });
}

/** Memory's rows that hold `word`: items of any status, and the candidate rows that copy a text. */
async function memoryTextRows(word: string): Promise<string[]> {
  const like = `%${word}%`;
  const { results } = await env.DB.prepare(
    `SELECT 'nodes:' || status AS hit FROM nodes WHERE raw_text LIKE ?1 OR retrieval_text LIKE ?1
     UNION ALL SELECT 'memory_candidates:' || decision FROM memory_candidates WHERE text LIKE ?1`,
  )
    .bind(like)
    .all<{ hit: string }>();
  return results.map((r) => r.hit);
}

let clock = Date.parse("2026-11-03T10:00:00Z");
/** Messages of `user` in `chat`, a minute apart, each with its own word ending in `word`. */
function lines(chat: string, user: string, word: string, n = 6): MessageRecord[] {
  return Array.from({ length: n }, (_, i) => {
    clock += 60_000;
    return logRecord(chat, clock, { user, nick: user, text: `今天 zq${i}${word} 的事` });
  });
}

describe("a forget erases the words from the full-text indexes' pages", () => {
  it("/session forget of a chat whose object holds its log", { timeout: 60_000 }, async ({ expect }) => {
    const tag = uid();
    const [chat, other] = [`qq:group:FA${tag}`, `qq:group:FB${tag}`];
    await registerChat(chat);
    await logToObjects([...lines(chat, "U1", "wangjiword"), ...lines(other, "U2", "liuzhuword")]);
    expect(await objectPages(chat, "wangjiword")).not.toEqual([]);
    const forgot = await sessionsApi(`/${chat}/forget`, { confirm: chat });
    expect(forgot.status).toBe(200);
    expect(await objectPages(chat, "wangjiword")).toEqual([]);
    expect(await objectPages(other, "liuzhuword")).not.toEqual([]);
  });

  it("/session forget of a chat whose rows are in D1", { timeout: 60_000 }, async ({ expect }) => {
    const tag = uid();
    const [chat, other] = [`qq:group:FC${tag}`, `qq:group:FD${tag}`];
    await registerChat(chat);
    await writeLog([...lines(chat, "U1", "yiwangword"), ...lines(other, "U2", "baoliuword")]);
    expect(await d1Pages("yiwangword")).not.toEqual([]);
    const forgot = await sessionsApi(`/${chat}/forget`, { confirm: chat });
    expect(forgot.status).toBe(200);
    expect(await d1Pages("yiwangword")).toEqual([]);
    expect(await objectPages(chat, "yiwangword")).toEqual([]);
    expect(await d1Pages("baoliuword")).not.toEqual([]);
  });

  it("a person left out with --forget, in each chat's object", { timeout: 60_000 }, async ({ expect }) => {
    const tag = uid();
    const chat = `qq:group:FE${tag}`;
    await writeLog([...lines(chat, `P${tag}`, "likaiword"), ...lines(chat, `O${tag}`, "liuxiaword")]);
    const done = await leaveOut("POST", { account: `qq:user:P${tag}`, forget: true });
    expect(done.status).toBe(200);
    expect(await objectPages(chat, "likaiword")).toEqual([]);
    expect(await objectPages(chat, "liuxiaword")).not.toEqual([]);
    // D1 holds every chat's copy: its pages are not rewritten whole for one person, and FTS5's
    // secure-delete can leave fragments of a page's deleted terms in its unused bytes
    // (docs/decisions/0890-a-forget-erases-index-pages.md). Its index no longer has them.
    const left = await env.DB.prepare("SELECT count(*) AS n FROM messages WHERE account_key = ?1")
      .bind(`qq:user:P${tag}`)
      .first<{ n: number }>();
    expect(left?.n).toBe(0);
  });

  it("a person's /forget of their own item, in a group and in a private chat: no row, copy or page is left", {
    timeout: 60_000,
  }, async ({ expect }) => {
    const tag = uid().slice(0, 6);
    const [group, member] = [`GF${tag}`, `MF${tag}`];
    // Words of this test alone, which read as no password: a random tag in them would be masked.
    const word = (w: string) => `${w}word`;
    await inGroupChat(group, member, `/remember 我喜欢吃辣 ${word("lajiao")}`);
    await inGroupChat(group, member, `/remember 我喜欢喝茶 ${word("hecha")}`);
    await inPrivateChat(member, `/remember 我家的猫叫 ${word("maomi")}`);
    // A memory item's words are in the memory index only: the log's pages hold the commands. A
    // page stores a term after the prefix it shares with the one before: its tail is searched.
    const memoryPages = (w: string) => d1Pages(word(w).slice(2), ["nodes_fts_data"]);
    expect(await memoryPages("lajiao")).not.toEqual([]);
    expect(await memoryPages("maomi")).not.toEqual([]);

    const inGroup = listedIdOf(await inGroupChat(group, member, "/memory"), word("lajiao"));
    expect(await inGroupChat(group, member, `/forget ${inGroup}`)).toContain("已忘记");
    const privately = listedIdOf(await inPrivateChat(member, "/memory"), word("maomi"));
    expect(await inPrivateChat(member, `/forget ${privately}`)).toContain("已忘记");

    for (const gone of ["lajiao", "maomi"]) {
      expect(await memoryPages(gone)).toEqual([]);
      expect(await memoryTextRows(word(gone))).toEqual([]);
    }
    expect(await memoryPages("hecha")).not.toEqual([]);
    expect(await memoryTextRows(word("hecha"))).not.toEqual([]);
  });

  it("an admin's forget of a memory item", { timeout: 60_000 }, async ({ expect }) => {
    const scope = `chat:qq:group:FF${uid()}`;
    const [gone] = await seedMemory([
      newMemory(scope, "他养了一只猫 叫 zq1shanchuword"),
      newMemory(scope, "他住在 zq2jiliuword 北京"),
    ]);
    expect(await d1Pages("shanchuword")).not.toEqual([]);
    const res = await adminApi(`/memory/${encodeURIComponent(gone ?? "")}/forget`, {
      method: "POST",
      body: { confirm: gone },
    });
    expect(res.status).toBe(200);
    expect(await d1Pages("shanchuword")).toEqual([]);
    expect(await d1Pages("jiliuword")).not.toEqual([]);
  });
});
