// Own file: identity and dreaming are set through the stored settings, which every test of a
// file shares. A generated scenario (seeded, so every run is the same): many users in private
// chats and groups say things of every kind and sensitivity — by /remember, by "记住…", by
// plain messages that dreaming consolidates, and through memory_write tool calls — with
// identity off, then on. Then every chat is read from every sender's seat, three ways: the
// context preview (the mandatory block, recall and the prompt messages), the replies the
// turns posted, and the requests a scripted model received in real turns over D1.
import { env } from "cloudflare:workers";
import type { ToolCall } from "@src/domain/model/chat-model";
import { describe, it } from "vitest";
import { ScriptedChatModel } from "../fakes/scripted-chat-model";
import { settleDreams } from "../support/dream-settle";
import { c2cBodyWithIdentity, groupBodyWithIdentity } from "../support/identity";
import { preview } from "../support/preview";
import { storeSettings } from "../support/stored-settings";
import { scriptedTurn as realTurn, say as sayBody } from "../support/turns";
import { eventually } from "../support/wait";

/** mulberry32: a small, well-known seeded PRNG. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SEED = 0x9_2026;
const USERS = 6;
const GROUPS = 2;
const WRITES_PER_PHASE = 36;

type User = {
  readonly n: number;
  readonly privateId: string;
  readonly groupId: string;
  readonly declared: boolean;
};
type Chat = { readonly key: string; readonly group: string | null; readonly owner: User | null };
type Said = {
  readonly marker: string;
  readonly by: User;
  readonly chat: string;
  readonly method: "remember" | "intent" | "dream" | "tool";
};

const run = crypto.randomUUID().replaceAll("-", "").slice(0, 6);
const users: User[] = Array.from({ length: USERS }, (_, n) => ({
  n,
  privateId: `GP${run}U${n}`,
  groupId: `GG${run}U${n}`,
  declared: n % 2 === 0,
}));
const ADMIN = users[0] as User;
const groups = Array.from({ length: GROUPS }, (_, g) => `GX${run}G${g}`);
const chats: Chat[] = [
  ...users.map((u) => ({ key: `qq:private:${u.privateId}`, group: null, owner: u })),
  ...groups.map((g) => ({ key: `qq:group:${g}`, group: g, owner: null })),
];
const personOf = (u: User) => `gp${run}p${u.n}`;
const accountsOf = (u: User) => [`qq:user:${u.privateId}`, `qq:user:${u.groupId}`];

async function settings(identity: boolean) {
  await storeSettings(env, {
    identity: {
      enabled: identity,
      people: users
        .filter((u) => u.declared)
        .map((u) => ({ id: personOf(u), displayName: `成员${u.n}`, accounts: accountsOf(u) })),
      admins: accountsOf(ADMIN),
    },
    memory: {
      dreaming: { afterTurns: 2 },
      // Everything readable is pinned: the check sees every item a turn may get.
      mandatory: { minImportance: 0, maxItems: 50, tokenBudget: 20_000 },
      retrieval: { recallLimit: 20, recallTokenBudget: 5000 },
    },
  });
}

const TOPICS = ["火锅", "爬山", "小区", "银行卡", "发布", "维护", "报告", "刷屏"];
const PRIVACY = ["", "别告诉别人：", "这个是私下说的，", "保密："];

/** A statement carrying its marker, of a kind the rules recognise. */
function statement(rand: () => number, marker: string, inGroup: boolean): string {
  const forms = [
    `我喜欢吃${marker}火锅`,
    `我喜欢${marker}爬山`,
    `我的银行卡尾号是${marker}`,
    `我们决定${marker}周五发布`,
    `我们决定${marker}周末维护服务器`,
    `提醒我${marker}明天交报告`,
    ...(inGroup ? [`群规：${marker}不许刷屏`] : []),
  ];
  const privacy = PRIVACY[Math.floor(rand() * PRIVACY.length)] ?? "";
  return `${privacy}${forms[Math.floor(rand() * forms.length)]}`;
}

const letters = "abcdefghjkmnpqrstuvwxyz";
function markerOf(rand: () => number): string {
  let out = "zq";
  for (let i = 0; i < 6; i++) out += letters[Math.floor(rand() * letters.length)];
  return out;
}

async function say(by: User, chat: Chat, text: string): Promise<string> {
  const body = chat.group
    ? groupBodyWithIdentity({ group: chat.group, member: by.groupId, text })
    : c2cBodyWithIdentity({ user: by.privateId, text });
  return sayBody(body, chat.key);
}

/** A real turn over the chat object's own services, with a scripted model in place of the real one. */
async function scriptedTurn(
  by: User,
  chat: Chat,
  text: string,
  steps: ConstructorParameters<typeof ScriptedChatModel>[0],
) {
  const model = new ScriptedChatModel(steps);
  await realTurn(chat.key, chat.group ? by.groupId : by.privateId, text, model);
  return model;
}

type Row = { raw_text: string; scope_type: string; scope_id: string; sensitivity: string };
async function rowsWithMarkers(): Promise<(Row & { said: Said })[]> {
  const { results } = await env.DB.prepare(
    "SELECT raw_text, scope_type, scope_id, sensitivity FROM nodes WHERE node_type IN ('memory', 'summary') AND raw_text LIKE ?",
  )
    .bind("%zq%")
    .all<Row>();
  return results.flatMap((r) => {
    const said = written.find((s) => r.raw_text.includes(s.marker));
    return said ? [{ ...r, said }] : [];
  });
}

const written: Said[] = [];
/** Replies the model (offline: a digest of what it received) posted to plain messages. */
const replies: { chat: Chat; by: User; text: string }[] = [];

/**
 * Whether a turn in `chat` by `reader` may receive this stored row. A person's or account's
 * private and secret items: only in that person's own private chat. A chat's items: only in
 * that chat (soft scope is off). Global: everywhere. Public person items: wherever the person
 * is the reader (their private chats, or a group with identity on and the person declared).
 */
function mayReceive(row: Row, chat: Chat, reader: User, identityOn: boolean): boolean {
  const scope = `${row.scope_type}:${row.scope_id}`;
  if (row.scope_type === "global") return true;
  if (row.scope_type === "chat") return row.scope_id === chat.key;
  const own =
    (row.scope_type === "person" && row.scope_id === personOf(reader)) ||
    (row.scope_type === "account" && accountsOf(reader).includes(row.scope_id));
  if (!own || !identityOn) return false;
  if (chat.owner) return chat.owner === reader;
  return row.sensitivity === "public" && scope.startsWith("person:") && reader.declared;
}

/** The memory a turn got: pinned items, summary, recalled items and the system prompt. */
function memoryPart(p: Awaited<ReturnType<typeof preview>>): string {
  return JSON.stringify([
    p.mandatory.pinned,
    p.mandatory.summary,
    p.recalled,
    p.messages.filter((m) => m.role === "system"),
  ]);
}

async function writePhase(rand: () => number, phase: string) {
  for (let i = 0; i < WRITES_PER_PHASE; i++) {
    const by = users[Math.floor(rand() * users.length)] as User;
    const inGroup = rand() < 0.5;
    const group = groups[Math.floor(rand() * groups.length)];
    const chat = (inGroup ? chats.find((c) => c.group === group) : chats.find((c) => c.owner === by)) as Chat;
    const marker = markerOf(rand);
    const text = statement(rand, marker, inGroup);
    const pick = rand();
    const method: Said["method"] =
      pick < 0.3 ? "remember" : pick < 0.5 ? "intent" : pick < 0.8 ? "dream" : "tool";
    written.push({ marker, by, chat: chat.key, method });
    if (method === "remember") await say(by, chat, `/remember ${text}`);
    else if (method === "intent") await say(by, chat, `记住${text}`);
    else if (method === "dream") replies.push({ chat, by, text: await say(by, chat, text) });
    else {
      const kinds = ["decision", "procedure", "warning", "summary", "rule", "fact", "preference"];
      const sensitivity = ["public", "private", "secret_like", undefined][Math.floor(rand() * 4)];
      const call: ToolCall = {
        id: `w${phase}${i}`,
        name: "memory_write",
        arguments: JSON.stringify({
          kind: kinds[Math.floor(rand() * kinds.length)],
          text: text.replace(/^[^：，]*[：，]/u, ""),
          ...(sensitivity ? { sensitivity } : {}),
        }),
      };
      await scriptedTurn(by, chat, text, [{ toolCalls: [call] }, { text: "好" }]);
    }
  }
  // Dreaming runs in the chat objects' alarms: wait until none has a run due (afterTurns = 2).
  // A shared chat's turns wait out their privacy window first: move them past it.
  for (const chat of chats) {
    await settleDreams(chat.key);
    await eventually(
      async () => (await env.CHAT_SESSION.getByName(chat.key).stats()).dreamPending < 2,
      15_000,
      `dreaming of ${chat.key}: ${JSON.stringify(await env.CHAT_SESSION.getByName(chat.key).stats())}`,
    );
  }
}

async function checkPhase(identityOn: boolean, expect: (v: unknown) => { toEqual: (x: unknown) => void }) {
  const rows = await rowsWithMarkers();
  const leaks: string[] = [];
  for (const chat of chats) {
    const readers = chat.owner ? [chat.owner] : users;
    for (const reader of readers) {
      const sender = chat.group ? reader.groupId : reader.privateId;
      const seen = memoryPart(await preview({ chat: chat.key, sender, text: TOPICS.join(" ") }));
      const model = await scriptedTurn(reader, chat, TOPICS.join(" "), [{ text: "好" }]);
      const received = JSON.stringify(model.requests);
      for (const row of rows) {
        if (mayReceive(row, chat, reader, identityOn)) continue;
        for (const [where, text] of [
          ["preview", seen],
          ["model", received],
        ] as const) {
          if (text.includes(row.raw_text))
            leaks.push(
              `${where}: ${chat.key} as ${sender} got ${row.scope_type}:${row.scope_id}/${row.sensitivity} "${row.raw_text}"`,
            );
        }
      }
    }
  }
  for (const r of replies) {
    for (const row of rows) {
      if (!mayReceive(row, r.chat, r.by, identityOn) && r.text.includes(row.raw_text))
        leaks.push(
          `reply: ${r.chat.key} to U${r.by.n} carried ${row.scope_type}:${row.scope_id} "${row.raw_text}"`,
        );
    }
  }
  // Nothing a non-admin says, and nothing dreaming writes, reaches the global scope.
  const global = rows.filter((r) => r.scope_type === "global");
  const wrongGlobal = global
    .filter((r) => r.said.by !== ADMIN || r.said.method === "dream")
    .map((r) => `${r.raw_text} by U${r.said.by.n} via ${r.said.method}`);
  expect(leaks).toEqual([]);
  expect(wrongGlobal).toEqual([]);
  return rows;
}

describe("generated privacy scenario", () => {
  it("never gives a group or another person a private item, and only admins write global", async ({
    expect,
  }) => {
    const rand = prng(SEED);
    await settings(false);
    await writePhase(rand, "off");
    const off = await checkPhase(false, expect);

    await settings(true);
    replies.length = 0;
    await writePhase(rand, "on");
    const on = await checkPhase(true, expect);

    // The scenario is not vacuous: it stored private and secret items, person items and an
    // admin's global ones, and replies to plain messages carried only what their chat may see.
    const sensitivities = new Set(on.map((r) => r.sensitivity));
    expect([...sensitivities].sort()).toEqual(["private", "public", "secret_like"]);
    expect(on.some((r) => r.scope_type === "person")).toBe(true);
    expect(off.length).toBeGreaterThan(10);
    await settings(false);
  }, 120_000);
});
