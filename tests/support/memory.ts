/** Writes memory items straight into D1 through the real adapter (integration tests). */
import { env } from "cloudflare:workers";
import { D1MemoryStore } from "@src/adapters/d1/d1-memory-store";
import type { AccountKey } from "@src/domain/chat/chat-address";
import { memoryNodeId, type NewMemory } from "@src/domain/memory/memory";
import type { RememberRequest } from "@src/domain/memory/remember";
import { parseScopeKey, type Scope } from "@src/domain/memory/scope";
import { credentialReaderScore, valueCandidates } from "@src/domain/privacy/credential-reader";
import { privacyRequest } from "@src/domain/privacy/privacy-request";
import { MEMORY_DEFAULTS } from "../fakes/in-memory-memory";

export const memoryStore = () => new D1MemoryStore(env.DB);

export function newMemory(scope: string, text: string, over: Partial<NewMemory> = {}): NewMemory {
  return {
    nodeId: memoryNodeId(scope, text, crypto.randomUUID()),
    scope: parseScopeKey(scope) as Scope,
    ...MEMORY_DEFAULTS,
    text,
    ...over,
  };
}

/** Inserts items in one commit; returns their node ids. */
export async function seedMemory(items: readonly NewMemory[], at = Date.now()): Promise<string[]> {
  const scopes = items.map((i) => i.scope);
  await memoryStore().commit({
    runId: `seed:${crypto.randomUUID()}`,
    chatKey: "seed",
    at,
    writable: scopes,
    inserts: items,
    supersede: [],
    archive: [],
    updates: [],
    candidates: [],
  });
  return items.map((i) => i.nodeId);
}

/**
 * A unique tag for test text: six syllables of a consonant and a vowel ("kamitosuneba"). Not hex:
 * hex digits may spell a mobile number ("a13492380935" holds 134 9238 0935), which memory and the
 * admin API refuse as personal data, and a random run of letters and digits in a sentence is what
 * the trained reader of credential values masks as a password
 * (src/domain/privacy/credential-reader.ts) — a tag must be neither.
 *
 * Its six consonants differ, and it shares at most four of them with any tag this module issued
 * before. A sentence taught twice with two tags ("我在准备考研<tag>") is a restatement when one
 * tag brings no letter the other text lacks (docs/decisions/0410-write-time-merge-of-restatements.md),
 * and is merged into the first item: with random letters that happened to one pair in five hundred.
 * Two consonants apart, only a text whose other words hold both could still merge them.
 */
const CONSONANTS = "bdfghjklmnprstz";
const VOWELS = "aeiou";
const issued: ReadonlySet<string>[] = [];
const TRIES = 300;

const randomIndex = (n: number) => (crypto.getRandomValues(new Uint32Array(1))[0] ?? 0) % n;

function sixConsonants(): string[] {
  const pool = [...CONSONANTS];
  for (let i = pool.length - 1; i > 0; i--) {
    const j = randomIndex(i + 1);
    [pool[i], pool[j]] = [pool[j] as string, pool[i] as string];
  }
  return pool.slice(0, 6);
}

const sharedWith = (a: ReadonlySet<string>, b: readonly string[]) => b.filter((c) => a.has(c)).length;

/** Six consonants that share at most `most` with every issued tag, or null when none was found. */
function consonantsApart(most: number): string[] | null {
  for (let t = 0; t < TRIES; t++) {
    const picked = sixConsonants();
    if (issued.every((set) => sharedWith(set, picked) <= most)) return picked;
  }
  return null;
}

/**
 * Sentences tags are written after. A tag the trained reader finds even half likely to be a
 * password after one of them is drawn again: after "我喜欢吃饺子" it took about one random tag
 * in thirty for a password and masked it, and the test's /remember was refused. So is a tag after
 * which the reader of privacy requests reads one: "我喜欢下棋lusamojedone" was kept private, and a
 * group's /memory, which lists only public items, did not list it.
 */
const TAG_CONTEXTS = [
  "我喜欢吃饺子",
  "/remember 我喜欢吃辣",
  "我喜欢下棋",
  "我喜欢猫",
  "我喜欢爬山",
  "我在准备考研",
];
const readsAsSecret = (tag: string) =>
  TAG_CONTEXTS.some(
    (before) =>
      valueCandidates(before + tag).some((c) => credentialReaderScore(c) >= 0.5) ||
      privacyRequest(before + tag) !== null,
  );

export function uid(): string {
  for (let t = 0; t < TRIES; t++) {
    // About 240 tags fit four apart; past that, a new tag still differs from each in one consonant.
    const consonants = consonantsApart(4) ?? consonantsApart(5);
    if (!consonants) throw new Error(`this test module used ${issued.length} tags; no fresh one is left`);
    const tag = consonants.map((c) => `${c}${VOWELS[randomIndex(VOWELS.length)]}`).join("");
    if (readsAsSecret(tag)) continue;
    issued.push(new Set(consonants));
    return tag;
  }
  throw new Error(`no tag in ${TRIES} tries reads as no secret`);
}

/** The named columns of one node row, read straight from D1 (null when there is no such row). */
export const nodeColumns = (id: string, columns: string) =>
  env.DB.prepare(`SELECT ${columns} FROM nodes WHERE node_id = ?`).bind(id).first();

/** The details of the audit rows `action` wrote about memory item `id`, oldest first. */
export const memoryAudits = async (id: string, action: string) =>
  (
    await env.DB.prepare("SELECT detail FROM audit_log WHERE target = ? AND action = ? ORDER BY at, rowid")
      .bind(`memory:${id}`, action)
      .all<{ detail: string }>()
  ).results.map((r) => JSON.parse(r.detail));

/** The node ids each query selects (a query selects `node_id`), in order, all in one list. */
export async function nodeIdsOf(sqls: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const sql of sqls)
    out.push(...(await env.DB.prepare(sql).all<{ node_id: string }>()).results.map((r) => r.node_id));
  return out;
}

/** A fresh declared person as the memory write path sees them: their private chat, a group, a name. */
export function speakingPerson() {
  const id = uid();
  const identity = {
    enabled: true,
    account: `qq:user:${id}` as AccountKey,
    personId: `p${id}`,
    declared: true,
  };
  return {
    identity,
    priv: { session: `qq:private:${id}`, identity },
    group: { session: `qq:group:G${id}`, identity },
    name: `名${id}`,
  };
}

/** The scopes of the memory items whose text holds `fragment`, oldest first. */
export async function scopesOfText(fragment: string): Promise<string[]> {
  const { results } = await env.DB.prepare(
    "SELECT scope_type || ':' || scope_id AS scope FROM nodes WHERE node_type = 'memory' AND raw_text LIKE ? ORDER BY seq",
  )
    .bind(`%${fragment}%`)
    .all<{ scope: string }>();
  return results.map((r) => r.scope);
}

/** `p`'s explicit request to remember `text`, said in their private chat or the group at `now`. */
export function rememberRequest(
  p: ReturnType<typeof speakingPerson>,
  text: string,
  where: "priv" | "group",
  now: number,
): RememberRequest {
  return {
    text,
    origin: "explicit",
    scopes: p[where],
    speaker: { name: p.name, id: p.identity.account },
    account: p.identity.account,
    messageId: `m${now}`,
    runId: `turn:${uid()}`,
    chatKey: p[where].session,
    now,
  };
}
