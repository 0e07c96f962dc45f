/**
 * Reading every store whole for a secret: every D1 table (FTS virtual and shadow tables
 * included, and each FTS index asked directly) and every chat object's SQLite tables and
 * key-value storage. The tests that guard "credentials are never stored anywhere"
 * (docs/invariants.md) ask `storedAnywhere` after driving a path.
 */
import { listDurableObjectIds, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { chatTokenPrefix } from "@src/domain/text/chat-search-tokens";
import { searchTokens } from "@src/domain/text/search-tokens";
import type { ChatSession } from "@src/durable-objects/chat-session";
import { settleDreams } from "./dream-settle";
import { eventually } from "./wait";

const decoder = new TextDecoder();

function asText(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  if (value instanceof ArrayBuffer) return decoder.decode(value);
  if (ArrayBuffer.isView(value)) return decoder.decode(value);
  if (Array.isArray(value) && value.every((v) => typeof v === "number")) {
    return decoder.decode(Uint8Array.from(value as number[]));
  }
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

/**
 * Whether `text` holds `needle`. A needle of digits only counts where no digit touches it: a
 * timestamp whose digits happen to contain "2580" holds no PIN, whether it is a number column or
 * sits inside an event id or a raw payload, and reading it so made such checks fail at random.
 */
function holds(text: string, needle: string): boolean {
  if (!/^\d+$/.test(needle)) return text.includes(needle);
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + 1)) {
    if (!/\d/.test(text[at - 1] ?? "") && !/\d/.test(text[at + needle.length] ?? "")) return true;
  }
  return false;
}

/** `where.column ∋ needle` for every needle found in a row, case-insensitively. */
function rowHits(where: string, row: Record<string, unknown>, needles: readonly string[], out: Set<string>) {
  for (const [column, value] of Object.entries(row)) {
    const text = asText(value).toLowerCase();
    for (const needle of needles) {
      if (holds(text, needle.toLowerCase())) out.add(`${where}.${column} ∋ ${needle}`);
    }
  }
}

const readable = (name: string) => !name.startsWith("sqlite_") && !name.startsWith("_cf_");

/** Every D1 table listed by sqlite_master — FTS virtual and shadow tables included — read whole. */
async function d1Hits(needles: readonly string[]): Promise<string[]> {
  const tables = (
    await env.DB.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all<{
      name: string;
    }>()
  ).results
    .map((t) => t.name)
    .filter(readable);
  const out = new Set<string>();
  for (const table of tables) {
    const rows = (await env.DB.prepare(`SELECT * FROM "${table}"`).all<Record<string, unknown>>()).results;
    for (const row of rows) rowHits(`d1:${table}`, row, needles, out);
  }
  return [...out];
}

/** The distinctive search tokens of the needles: what an FTS index would hold of them. */
function secretTokens(needles: readonly string[]): string[] {
  const tokens = needles.flatMap((n) => searchTokens(n));
  return [...new Set(tokens.filter((t) => t.length >= 6 && /\d/.test(t) && /[a-z]/.test(t)))];
}

/**
 * The FTS indexes asked directly, not through their content tables: memory and knowledge
 * (nodes_fts) by the plain token, the message log and its windows by each chat's namespace.
 */
async function ftsHits(needles: readonly string[]): Promise<string[]> {
  const chats = (
    await env.DB.prepare("SELECT chat_key FROM chats UNION SELECT chat_key FROM messages").all<{
      chat_key: string;
    }>()
  ).results.map((r) => r.chat_key);
  const count = async (table: string, term: string) =>
    (
      await env.DB.prepare(`SELECT count(*) AS n FROM ${table} WHERE ${table} MATCH ?1`)
        .bind(`"${term}"`)
        .first<{ n: number }>()
    )?.n ?? 0;
  const out: string[] = [];
  for (const token of secretTokens(needles)) {
    if ((await count("nodes_fts", token)) > 0) out.push(`fts:nodes_fts ∋ ${token}`);
    for (const chat of chats) {
      for (const table of ["messages_fts", "message_windows_fts"]) {
        if ((await count(table, chatTokenPrefix(chat) + token)) > 0)
          out.push(`fts:${table}[${chat}] ∋ ${token}`);
      }
    }
  }
  return out;
}

/** Every chat object of this file: each SQLite table read whole, and its key-value storage. */
async function objectHits(needles: readonly string[]): Promise<string[]> {
  const out = new Set<string>();
  for (const id of await listDurableObjectIds(env.CHAT_SESSION)) {
    const stub = env.CHAT_SESSION.get(id) as DurableObjectStub<ChatSession>;
    const found = await runInDurableObject(stub, async (_o: ChatSession, state) => {
      const hits = new Set<string>();
      const sql = state.storage.sql;
      const chat = asText(
        sql.exec<{ value: string }>("SELECT value FROM meta WHERE key = 'chat'").toArray()[0]?.value,
      );
      const name = (JSON.parse(chat || "{}") as { key?: string }).key ?? id.toString();
      const tables = sql
        .exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'")
        .toArray()
        .map((t) => t.name)
        .filter(readable);
      for (const table of tables) {
        for (const row of sql.exec(`SELECT * FROM "${table}"`).toArray()) {
          rowHits(`do[${name}]:${table}`, row as Record<string, unknown>, needles, hits);
        }
      }
      for (const [key, value] of await state.storage.list()) {
        rowHits(`do[${name}]:kv`, { [key]: value }, needles, hits);
      }
      return [...hits];
    });
    for (const hit of found) out.add(hit);
  }
  return [...out];
}

/** Every place any of the needles is stored. */
export async function storedAnywhere(needles: readonly string[]): Promise<string[]> {
  return [...(await d1Hits(needles)), ...(await ftsHits(needles)), ...(await objectHits(needles))];
}

/** Waits until the chat object has no open turn and no unflushed row (and, if asked, no turn waiting for dreaming). */
export async function settled(chatKey: string, options: { dreamed?: boolean } = {}) {
  const stub = env.CHAT_SESSION.getByName(chatKey);
  if (options.dreamed) {
    // A shared chat's turns wait out their privacy window before dreaming: move them past it.
    await eventually(async () => (await stub.stats()).open === 0, 20_000, `${chatKey}'s turns`);
    await settleDreams(chatKey);
  }
  await eventually(
    async () => {
      const s = await stub.stats();
      return s.open === 0 && s.unflushed === 0 && (!options.dreamed || s.dreamPending === 0);
    },
    20_000,
    `${chatKey} to settle`,
  );
}
