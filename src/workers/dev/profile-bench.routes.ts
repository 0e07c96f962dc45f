/**
 * Local-only routes for the profile benchmark (`npm run bench -- profile`), mounted under
 * /dev/bench/profile, so they do not exist outside local mode.
 *
 *   POST /seed  persons with many memory items in their person scope and two account scopes
 *   POST /read  reads of persons' profiles, timed inside the Worker: `warm` (saved at the
 *               current version: one statement), `cold` (no saved profile: build and save), or
 *               `baseline` (the person's items through listActive, as a turn without a profile
 *               would read them); the time per read
 */
import { Hono } from "hono";
import { z } from "zod";
import { memoryContentHash, memoryStore, profileStore } from "../../composition/dev/dev-adapters";
import { type ProfileAudience, profileItems, readProfile } from "../../domain/memory/person-profile";
import { profileReader } from "../../domain/memory/profile-view";
import type { ReadableScope } from "../../domain/retrieval/read-gate";
import { indexText } from "../../domain/text/search-tokens";
import type { AppEnv } from "../app-env";
import { jsonBody } from "../json-body";
import { seedMemoryRows } from "./seed-memory-rows";
import { type D1Busy, timingD1 } from "./timing-d1";

const VERBS = ["喜欢", "讨厌", "在学", "养了", "常去", "最近迷上了", "住在", "在做", "毕业于", "每天都"];
const OBJECTS = [
  "火锅",
  "爬山",
  "摄影",
  "吉他",
  "咖啡",
  "寿司",
  "Rust",
  "原神",
  "露营",
  "骑行",
  "杭州",
  "猫",
];
const WHEN = ["周末", "晚上", "下班后", "", ""];
const pick = <T>(list: readonly T[], k: number): T => list[k % list.length] as T;

/** Person p of the bench: their person scope and two linked accounts (turns read the first). */
export const benchPerson = (p: number) => ({
  person: `bp${p}`,
  accounts: [`bench:user:bp${p}a`, `bench:user:bp${p}b`],
});

/** The j-th item of person p: deterministic, so runs compare. */
function seedItem(p: number, j: number) {
  const who = benchPerson(p);
  const k = p * 100_003 + j;
  const r = (k * 2654435761) % 100;
  const slot = j % 10;
  return {
    id: `pb_${p}_${j}`,
    scope_type: slot < 4 ? "person" : "account",
    scope_id: slot < 4 ? who.person : pick(who.accounts, slot),
    kind: pick(["fact", "preference", "task"] as const, j),
    text: `${pick(WHEN, k * 3)}${pick(VERBS, k * 5)}${pick(OBJECTS, k * 7 + j)}（第${j}条）`,
    importance: ((k * 37) % 100) / 100,
    sensitivity: r < 70 ? "public" : r < 90 ? "private" : "secret_like",
    portable: r % 20 === 0 ? 0 : 1,
    at: 1_700_000_000_000 + j * 1000,
  };
}

/** The person's own scopes as a turn of their first account reads them (group: public; own chat). */
const readerOf = (p: number, audience: ProfileAudience): ReadableScope[] =>
  profileReader(benchPerson(p).person, benchPerson(p).accounts[0] as string, audience);

const SeedSchema = z.object({
  person: z.number().int().min(0),
  items: z.number().int().min(1).max(5000),
});
const ReadSchema = z.object({
  /** Read one after the other, timed as one span: the Worker's clock moves in whole milliseconds. */
  persons: z.array(z.number().int().min(0)).min(1).max(50),
  audience: z.enum(["public", "own"]),
  mode: z.enum(["warm", "cold", "baseline"]),
  /** Count the D1 round trips and rows read (through the counting binding). */
  count: z.boolean().default(false),
});

export const profileBenchRoutes = new Hono<AppEnv>()
  .post("/seed", jsonBody(SeedSchema), async (c) => {
    const { person, items } = c.req.valid("json");
    const rows = await Promise.all(
      Array.from({ length: items }, async (_, j) => {
        const item = seedItem(person, j);
        const hash = await memoryContentHash(item.text);
        return { ...item, source: "default", tokens: indexText(item.text), hash };
      }),
    );
    await seedMemoryRows(c.env.DB, rows);
    return c.json({ items });
  })
  .post("/read", jsonBody(ReadSchema), async (c) => {
    const { persons, audience, mode, count } = c.req.valid("json");
    const busy: D1Busy = { ms: 0, trips: 0, rowsRead: 0 };
    const env = count ? { ...c.env, DB: timingD1(c.env.DB, new Map(), busy) } : c.env;
    const deps = { profiles: profileStore(env), store: memoryStore(env) };
    // Untimed: a warm read finds the profile saved; a cold one finds none and builds and saves it.
    for (const p of persons) {
      if (mode === "warm") await readProfile(deps, readerOf(p, audience), Date.now());
      if (mode === "cold")
        await c.env.DB.prepare("DELETE FROM person_profiles WHERE subject LIKE ?")
          .bind(`%person:${benchPerson(p).person}`)
          .run();
    }
    busy.trips = 0;
    busy.rowsRead = 0;
    let chars = 0;
    const started = performance.now();
    for (const p of persons) {
      const reader = readerOf(p, audience);
      const out =
        mode === "baseline"
          ? (await profileItems(deps.store, reader, audience)).map((i) => i.text).join("\n")
          : ((await readProfile(deps, reader, Date.now())) ?? "");
      chars += out.length;
    }
    const n = persons.length;
    const ms = (performance.now() - started) / n;
    return c.json({ ms, chars: chars / n, trips: busy.trips / n, rows_read: busy.rowsRead / n });
  });
