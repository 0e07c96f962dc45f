// `store_enabled = off` writes nothing of that chat (docs/sessions.md#storage): a real private
// chat through the webhook, with explicit memory, stores no message, no memory item, no
// candidate and no observation while off, and stores again once switched back on.
import { env } from "cloudflare:workers";
import { it } from "vitest";
import { messageRows, sayInPrivate as say } from "../support/qq-events";
import { privateChatStorageOff, switchStorage } from "../support/storage-off";
import { eventually } from "../support/wait";

const count = async (sql: string, chat: string) =>
  (await env.DB.prepare(sql).bind(chat).first<{ n: number }>())?.n ?? -1;

it("a chat with storage off keeps nothing in D1; switched on, it stores again", async ({ expect }) => {
  // Seen at 0: the flush's registry touch moves last_seen, which tells us it ran.
  const { tag, user, chat, switched } = await privateChatStorageOff("UO");
  expect(switched).toBe(200);

  await say(user, `记住我喜欢吃辣的火锅${tag}`);
  await say(user, `今天随便聊聊${tag}`);
  await eventually(
    async () => (await count("SELECT last_seen AS n FROM chats WHERE chat_key = ?1", chat)) > 0,
    10_000,
    "the flush",
  );
  expect(await messageRows(chat)).toEqual([]);
  expect(await count("SELECT count(*) AS n FROM nodes WHERE scope_id = ?1", chat)).toBe(0);
  expect(
    await count("SELECT count(*) AS n FROM nodes WHERE json_extract(provenance, '$.session') = ?1", chat),
  ).toBe(0);
  expect(await count("SELECT count(*) AS n FROM memory_candidates WHERE chat_key = ?1", chat)).toBe(0);
  expect(await count("SELECT count(*) AS n FROM account_observations WHERE chat_key = ?1", chat)).toBe(0);
  expect(
    await count(
      "SELECT count(*) AS n FROM messages_fts WHERE messages_fts MATCH '\"' || ?1 || '\"'",
      tag.toLowerCase(),
    ),
  ).toBe(0);

  expect(await switchStorage(chat, true)).toBe(200);
  await say(user, `记住我喜欢喝茶${tag}`);
  const rows = await eventually(async () => {
    const r = await messageRows(chat);
    return r.length > 0 ? r : undefined;
  });
  expect(rows.map((r) => r.text).join("\n")).toContain(`喜欢喝茶${tag}`);
  expect(rows.map((r) => r.text).join("\n")).not.toContain("火锅");
  expect(await count("SELECT count(*) AS n FROM nodes WHERE scope_id = ?1", chat)).toBeGreaterThan(0);
});
