// The CLI's language: one catalogue (messages-zh.mjs, messages-en.mjs) read through `t`.
// Simplified Chinese by default; English with `--lang en` anywhere on the command line or
// AKASHA_LANG=en in the environment (the flag wins). `--json` output never goes through here:
// its keys and values are the API's, the same in every language.
import { en } from "./messages-en.mjs";
import { zhCN } from "./messages-zh.mjs";

export const CATALOGUES = { "zh-CN": zhCN, en };
export const DEFAULT_LANG = "zh-CN";

/** `en`, `en-US`, `EN` → en; `zh`, `zh-CN`, `zh_CN` → zh-CN; anything else → undefined. */
export function normalise(raw) {
  const v = String(raw ?? "")
    .trim()
    .toLowerCase()
    .replace("_", "-");
  if (v === "en" || v.startsWith("en-")) return "en";
  if (v === "zh" || v.startsWith("zh-")) return "zh-CN";
  return undefined;
}

let current = normalise(process.env.AKASHA_LANG) ?? DEFAULT_LANG;

export const lang = () => current;

export function setLang(value) {
  current = normalise(value) ?? DEFAULT_LANG;
  return current;
}

/**
 * Takes `--lang <x>` / `--lang=<x>` out of argv (commander never sees it, so every command
 * accepts it) and sets the language from it, else from AKASHA_LANG. Returns argv without it.
 */
export function takeLang(argv, env = process.env) {
  const rest = [];
  let chosen = env.AKASHA_LANG;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--") {
      rest.push(...argv.slice(i));
      break;
    }
    if (a === "--lang" && i + 1 < argv.length) chosen = argv[++i];
    else if (a.startsWith("--lang=")) chosen = a.slice("--lang=".length);
    else rest.push(a);
  }
  setLang(chosen);
  return rest;
}

/** Whether the catalogue has `key` (for codes from the Worker that may be new to this CLI). */
export const has = (key) => key in CATALOGUES[current];

/** `{name}` in a message is replaced by params.name; an unknown key is a bug and throws. */
export const t = (key, params) => inLang(current, key, params);

/** A message in a given language, whatever was chosen: for data that is the same in every language. */
export function inLang(language, key, params) {
  const message = CATALOGUES[language][key];
  if (message === undefined) throw new Error(`no CLI message ${key} in ${language}`);
  if (!params) return message;
  return message.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}
