// What the tests of tests/invariants/unknown-values-*.test.ts share: the bindings of each mode,
// the values of AKASHA_ENV that are not local, the claims a caller adds to look local or admin,
// a snapshot of what a request could write, and the signed requests of both webhooks.
import { listDurableObjectIds } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { signOneBotBody } from "@src/adapters/onebot/onebot-signature";
import { settingsCache } from "@src/composition/settings/settings-cache";
import { createApp } from "@src/workers/app";
import { messageRows, turnDone } from "./qq-events";
import { storedSettings } from "./stored-settings";
import { eventually } from "./wait";

export const app = createApp();
export const ORIGIN = "https://bot.test";
/**
 * Production refuses a short or published ADMIN_TOKEN (admin-token.ts), so these bindings
 * carry a long random one, made here so that the repository shows none.
 */
export const TOKEN = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))));
export const ONEBOT_SECRET = "onebot-test-secret";
export const SELF = 10000;

/** Values of AKASHA_ENV that are not exactly "local", strings and otherwise. */
export const NOT_LOCAL: readonly [string, unknown][] = [
  ["(missing)", undefined],
  ['""', ""],
  ['" "', " "],
  ['"LOCAL"', "LOCAL"],
  ['"Local"', "Local"],
  ['" local"', " local"],
  ['"local "', "local "],
  ['"local\\n"', "local\n"],
  ['"\\u200blocal"', "\u200blocal"],
  ['"locals"', "locals"],
  ['"localhost"', "localhost"],
  ['"dev"', "dev"],
  ['"development"', "development"],
  ['"test"', "test"],
  ['"staging"', "staging"],
  ['"prod"', "prod"],
  ['"production "', "production "],
  ['"true"', "true"],
  ["true", true],
  ["1", 1],
  ['["local"]', ["local"]],
  ['{"local":true}', { local: true }],
  ['String("local") object', new String("local")],
];

/** The test Worker's bindings with AKASHA_ENV replaced (or removed) and `extra` over them. */
export function withMode(value: unknown, extra: Record<string, unknown> = {}): Env {
  const { AKASHA_ENV: _unused, ...rest } = { ...env, ADMIN_TOKEN: TOKEN, ...extra } as Record<
    string,
    unknown
  >;
  return (value === undefined ? rest : { ...rest, AKASHA_ENV: value }) as unknown as Env;
}

/** Bindings with the named keys removed (a binding that was never set). */
export function without(base: Env, ...names: string[]): Env {
  const copy = { ...base } as Record<string, unknown>;
  for (const name of names) delete copy[name];
  return copy as unknown as Env;
}

export const PRODUCTION = withMode("production");
export const LOCAL = withMode("local");

/** Headers a caller adds to look like a local or admin request. */
export const CLAIMS: Record<string, string> = {
  host: "localhost:8787",
  "x-forwarded-for": "127.0.0.1",
  "x-real-ip": "127.0.0.1",
  "cf-connecting-ip": "127.0.0.1",
  forwarded: "for=127.0.0.1;host=localhost;proto=http",
  "x-forwarded-host": "localhost",
  origin: "http://localhost:8787",
  "sec-fetch-site": "same-origin",
  "x-akasha-env": "local",
  "x-admin": "true",
  "cf-access-authenticated-user-email": "owner@example.com",
};
export const LOCAL_ORIGINS = ["http://localhost:8787", "http://127.0.0.1:8787", "http://[::1]:8787"];

export const TABLES = [
  "messages",
  "chats",
  "audit_log",
  "settings",
  "nodes",
  "account_observations",
  "ops_log",
  "model_usage",
  "owner_plans",
] as const;

/** Row counts of the tables a request could write, the stored settings and the chat objects. */
export async function snapshot() {
  const state: Record<string, unknown> = {};
  for (const table of TABLES) {
    state[table] = (await env.DB.prepare(`SELECT count(*) AS n FROM ${table}`).first<{ n: number }>())?.n;
  }
  state.settingsText = await storedSettings(env).read();
  state.objects = (await listDurableObjectIds(env.CHAT_SESSION)).length;
  return state;
}

/** Waits until a chat's turn is done and its object has flushed everything to D1. */
export async function settled(chatKey: string, eventId: string, rows: number) {
  await turnDone(chatKey, eventId);
  await eventually(async () => {
    const stats = await env.CHAT_SESSION.getByName(chatKey).stats();
    return stats.open === 0 && stats.unflushed === 0;
  });
  await eventually(async () => (await messageRows(chatKey)).length === rows, 10_000, `${rows} rows`);
}

export const now = () => Math.floor(Date.now() / 1000);
export const unique = () => crypto.randomUUID().replaceAll("-", "");
export const oneBotUser = () => 100_000 + Math.floor(Math.random() * 900_000);

/** An X-Signature made with `secret`, or null where the runtime refuses such a key (an empty one). */
export async function signatureWith(secret: string, body: string): Promise<string | null> {
  try {
    return await signOneBotBody(secret, body);
  } catch {
    return null;
  }
}

export function oneBotPrivate(user: number, messageId: number, time = now()) {
  return JSON.stringify({
    time,
    self_id: SELF,
    post_type: "message",
    message_type: "private",
    sub_type: "friend",
    message_id: messageId,
    user_id: user,
    message: [{ type: "text", data: { text: "/ping" } }],
    raw_message: "/ping",
    font: 0,
    sender: { user_id: user, nickname: "小明" },
  });
}

export const qqUrl = `${ORIGIN}/webhook/qq`;
export const oneBotUrl = `${ORIGIN}/webhook/onebot`;
export { signedQq } from "./qq-events";
export const unsignedOneBot = (body: string, headers: Record<string, string> = {}) =>
  new Request(oneBotUrl, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body,
  });

/** Every route of the dev wing the app registers, with parameters filled in. */
export function devRoutes(): [string, string][] {
  const seen = new Set<string>();
  for (const route of createApp().routes) {
    if (!route.path.startsWith("/dev/") || route.method === "ALL") continue;
    seen.add(`${route.method} ${route.path.replace(/:[^/]+/g, "x")}`);
  }
  return [...seen].map((entry) => entry.split(" ") as [string, string]);
}

export const storedRow = () => storedSettings(env).row();

/** Drops the stored settings and the login failures a test left, and the isolate's copy of the settings. */
export async function clearStoredSettings() {
  await env.DB.prepare("DELETE FROM settings").run();
  await env.DB.prepare("DELETE FROM admin_login_failures").run();
  settingsCache.invalidate();
}
