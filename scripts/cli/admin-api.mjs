// Talks to a running Worker's admin API: --url (or AKASHA_URL; default the local
// http://localhost:8787) and --token (or AKASHA_ADMIN_TOKEN; default the local dev token).
import { readFileSync } from "node:fs";
import path from "node:path";
import { root } from "../lib/dev-vars.mjs";

export function parseArgs(args) {
  const flags = {};
  const positional = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a.startsWith("--")) {
      const [key, inline] = a.slice(2).split("=", 2);
      const next = args[i + 1];
      if (inline !== undefined) flags[key] = inline;
      else if (next === undefined || next.startsWith("--")) flags[key] = true;
      else {
        flags[key] = next;
        i++;
      }
    } else positional.push(a);
  }
  return { flags, positional };
}

function devToken() {
  try {
    return JSON.parse(readFileSync(path.join(root, "src/composition/dev-defaults.json"), "utf8")).ADMIN_TOKEN;
  } catch {
    return "";
  }
}

export function client(flags) {
  const base = String(flags.url ?? process.env.AKASHA_URL ?? "http://localhost:8787").replace(/\/+$/, "");
  const token = String(flags.token ?? process.env.AKASHA_ADMIN_TOKEN ?? devToken());
  async function request(method, route, body) {
    const init = { method, headers: { authorization: `Bearer ${token}` } };
    if (body instanceof FormData) init.body = body;
    else if (body !== undefined) {
      init.headers["content-type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    let res;
    try {
      res = await fetch(`${base}/api${route}`, init);
    } catch (e) {
      throw new Error(
        `cannot reach ${base} (${e.cause?.code ?? e.message}); is the Worker running (npm start)?`,
      );
    }
    const text = await res.text();
    let json;
    try {
      json = JSON.parse(text);
    } catch {
      json = { raw: text };
    }
    if (res.status === 401)
      throw new Error("unauthorized: pass --token <ADMIN_TOKEN> or set AKASHA_ADMIN_TOKEN");
    return { status: res.status, ok: res.ok, json };
  }
  return { base, request };
}
