// Talks to a running Worker's admin API: --url (or AKASHA_URL; default the local
// http://localhost:8787) and the admin token from AKASHA_ADMIN_TOKEN (or --token). Locally the
// token defaults to the one `npm start` uses (.dev.vars, else the dev default); for any other
// URL it must be given, since a deployed Worker's token is a secret. Behind Cloudflare Access,
// CF_ACCESS_CLIENT_ID and CF_ACCESS_CLIENT_SECRET (a service token) get it past the edge.
import { readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { CliError } from "../lib/args.mjs";
import { readDevVars, root } from "../lib/dev-vars.mjs";
import { has, lang, t } from "./i18n/lang.mjs";

export const LOCAL_URL = "http://localhost:8787";

function devToken() {
  const fromFile = readDevVars().ADMIN_TOKEN;
  if (fromFile) return fromFile;
  try {
    return JSON.parse(readFileSync(path.join(root, "src/composition/dev-defaults.json"), "utf8")).ADMIN_TOKEN;
  } catch {
    return "";
  }
}

export function isLocalUrl(base) {
  try {
    const host = new URL(base).hostname;
    return host === "localhost" || host === "127.0.0.1" || host === "[::1]";
  } catch {
    return false;
  }
}

/** Where to connect and with which token; refuses a bad URL or a remote one without a token. */
export function target(options, env = process.env) {
  const raw = String(options.url ?? env.AKASHA_URL ?? LOCAL_URL).replace(/\/+$/, "");
  let url;
  try {
    url = new URL(raw);
  } catch {
    throw new CliError(t("api.badUrl", { url: raw }));
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new CliError(t("api.badScheme", { url: raw }));
  const token = options.token ?? env.AKASHA_ADMIN_TOKEN ?? (isLocalUrl(raw) ? devToken() : undefined);
  if (!token) throw new CliError(t("api.noToken", { url: raw }));
  // Behind Cloudflare Access the edge wants a service token before the request reaches the
  // Worker (which then still checks the bearer token). Both halves or neither.
  const id = env.CF_ACCESS_CLIENT_ID;
  const secret = env.CF_ACCESS_CLIENT_SECRET;
  if (Boolean(id) !== Boolean(secret)) throw new CliError(t("api.accessPair"));
  const access = id ? { "cf-access-client-id": String(id), "cf-access-client-secret": String(secret) } : {};
  return { base: raw, token: String(token), access };
}

/**
 * The problem() answer of the admin API as one line, in the CLI's language as far as the answer
 * has codes: its `error` kind names a catalogue label (`api.problem.<kind>`), and a command that
 * knows what a code means for it passes `known` — `{ "invalid:status": () => t("…") }`, keyed by
 * kind and field or code (`conflict:shared-needs-confirm`), or kind alone — each saying it in full. The Worker's own words (`reason`,
 * `what`) follow a label as they came: they are data, never matched as text.
 */
/**
 * A validation issue the Worker gave as data (src/domain/kernel/validation-issue.ts: the
 * schema's code and bounds, never the refused value) in the CLI's language, through zod's own
 * locales; undefined when there is none, so the Worker's words stand.
 */
function issueReason(issue) {
  if (!issue || typeof issue !== "object" || typeof issue.code !== "string") return undefined;
  const said = (lang() === "en" ? z.locales.en() : z.locales.zhCN()).localeError(issue);
  return typeof said === "string" ? said : said?.message;
}

export function problemMessage(status, json, known = {}) {
  if (json && typeof json === "object" && typeof json.error === "string") {
    const say = known[`${json.error}:${json.field ?? json.code ?? ""}`] ?? known[json.error];
    if (say) return t("api.problemKnown", { status, message: say(json) });
    const label = has(`api.problem.${json.error}`) ? t(`api.problem.${json.error}`) : json.error;
    const where = json.field ? `${json.field} ` : "";
    const reason = issueReason(json.issue) ?? json.reason ?? json.what ?? json.message ?? "";
    return (
      where || reason
        ? t("api.problem", { status, label, detail: `${where}${reason}` })
        : `HTTP ${status} ${label}`
    ).trim();
  }
  const raw = json && typeof json === "object" && "raw" in json ? String(json.raw).slice(0, 200) : "";
  return `HTTP ${status}${raw ? `: ${raw}` : ""}`;
}

export function client(options, { fetch: doFetch = fetch, env = process.env } = {}) {
  const { base, token, access } = target(options, env);
  async function request(method, route, body) {
    const init = { method, headers: { ...access, authorization: `Bearer ${token}` } };
    if (body instanceof FormData) init.body = body;
    else if (body !== undefined) {
      init.headers["content-type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    let res;
    try {
      res = await doFetch(`${base}${route.startsWith("/healthz") ? "" : "/api"}${route}`, init);
    } catch (e) {
      const cause = e.cause?.code ?? e.message;
      throw new CliError(
        `${t("api.unreachable", { url: base, cause })}${isLocalUrl(base) ? t("api.unreachableLocal") : ""}`,
        1,
      );
    }
    const text = await res.text();
    let json;
    try {
      json = JSON.parse(text);
    } catch {
      json = { raw: text };
    }
    if (res.status === 401) throw new CliError(t("api.unauthorized", { url: base }), 1);
    // The admin door's throttle counts the CLI's wrong tokens with the login form's (admin-door.ts).
    if (res.status === 429) {
      const wait = res.headers.get("retry-after") ?? json.retryAfterSeconds ?? "?";
      const reason = json.reason ?? t("api.throttled", { wait });
      throw new CliError(t("api.throttledAt", { reason, url: base, wait }), 1);
    }
    return { status: res.status, ok: res.ok, json };
  }
  /** The answer's JSON; an error answer becomes a CliError carrying the problem() message (`known`: see problemMessage). */
  async function call(method, route, body, known) {
    const r = await request(method, route, body);
    if (!r.ok) throw new CliError(problemMessage(r.status, r.json, known), 1);
    return r.json;
  }
  return { base, request, call };
}

/**
 * The deployment's `calendar.timeZone`, the zone the CLI shows times in (as the dashboard does).
 * Read only for text output, so `--json` makes no extra request; a Worker that does not answer
 * it gets UTC, still printed with its offset, so no time is ever shown without its zone.
 */
export async function calendarZone(api) {
  try {
    const view = await api.call("GET", "/settings");
    const zone = view?.effective?.calendar?.timeZone;
    return typeof zone === "string" && zone !== "" ? zone : "UTC";
  } catch {
    return "UTC";
  }
}

/** Prints `data` as JSON with --json, else the text `render(data, zone)` makes of it, times in `calendarZone`. */
export async function outputTimed(api, options, data, render) {
  if (options.json) console.log(JSON.stringify(data, null, 2));
  else console.log(render(data, await calendarZone(api)));
}

/** `?a=1&b=x` from the defined values of an object. */
export function query(params) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params))
    if (v !== undefined && v !== null && v !== "") q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : "";
}
