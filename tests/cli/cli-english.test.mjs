// Every sentence the owner's CLI prints comes from its catalogue (scripts/cli/i18n): a file of
// scripts/cli (or the entry point and its argument parsing) with an English string literal that
// reads as words — a capitalised word, two words with a space, a table column's title — fails
// here. A simple scan of string and template literals, not a parser: technical tokens (commands,
// flags, routes, setting paths, catalogue keys, chat keys) are taken out first, and comments
// (which say why, in English) are not read.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { cliSources } from "../support/cli-sources.mjs";

const root = path.resolve(import.meta.dirname, "../..");

/**
 * Names that are the same in every language: products, protocols, units, formats, and the
 * values of sensitivity and scope the API, the plan files and the options use.
 */
const ALLOWED = new Set(
  (
    "public private global Akasha QQ OneBot JSON Lines UTC ID B KiB MiB GiB ms HTTP API CLI URL FTS D1 SQLite Vectorize " +
    "akasha tokens Worker Webhook webhook wrangler Markdown Time Travel Bearer Cloudflare Access"
  ).split(" "),
);

const sources = () => cliSources("scripts/lib/localized-command.mjs");

/** The code without its comments (a `//` inside a string is left alone). */
function stripComments(code) {
  let out = "";
  let i = 0;
  let quote = null;
  while (i < code.length) {
    const c = code[i];
    if (quote) {
      out += c;
      if (c === "\\") out += code[++i] ?? "";
      else if (c === quote) quote = null;
      i++;
    } else if (c === '"' || c === "'" || c === "`") {
      quote = c;
      out += c;
      i++;
    } else if (code.startsWith("//", i) && !/[:\w]$/.test(out) && code[i - 1] !== "/") {
      while (i < code.length && code[i] !== "\n") i++;
    } else if (code.startsWith("/*", i)) {
      const end = code.indexOf("*/", i + 2);
      out += code.slice(i, end + 2).replace(/[^\n]/g, " ");
      i = end + 2;
    } else if (c === "/" && /[=(,:!&|?{};]\s*$/.test(out)) {
      // A regular expression literal: copied as is, never read as words.
      let j = i + 1;
      while (j < code.length && code[j] !== "/" && code[j] !== "\n") j += code[j] === "\\" ? 2 : 1;
      out += " ".repeat(j + 1 - i);
      i = j + 1;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/**
 * Each string literal with its offset: a template literal's static parts with `0` for each
 * `${…}` (`withValue`), whose own literals (nested templates too) are listed as well.
 */
function literals(code, from = 0, found = []) {
  let i = from;
  while (i < code.length) {
    const c = code[i];
    if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < code.length && code[j] !== c && code[j] !== "\n") j += code[j] === "\\" ? 2 : 1;
      found.push({ text: code.slice(i + 1, j), index: i });
      i = j + 1;
    } else if (c === "`") i = template(code, i, found);
    else i++;
  }
  return found;
}

/** Reads the template literal at `start`; returns the offset after it. */
function template(code, start, found) {
  let text = "";
  let i = start + 1;
  while (i < code.length && code[i] !== "`") {
    if (code[i] === "\\") {
      text += code.slice(i, i + 2);
      i += 2;
    } else if (code.startsWith("${", i)) {
      let depth = 1;
      let j = i + 2;
      const inner = j;
      while (j < code.length && depth > 0) {
        if (code[j] === "`") j = template(code, j, []) - 1;
        else if (code[j] === '"' || code[j] === "'") {
          const q = code[j];
          j++;
          while (j < code.length && code[j] !== q) j += code[j] === "\\" ? 2 : 1;
        } else if (code[j] === "{") depth++;
        else if (code[j] === "}") depth--;
        j++;
      }
      literals(code.slice(0, j - 1), inner, found);
      text += "0"; // a value: `messages-${chat}.jsonl` stays one file name
      i = j;
    } else text += code[i++];
  }
  found.push({ text, index: start, withValue: text !== code.slice(start + 1, i) });
  return i + 1;
}

/** What is left of a literal after technical tokens are taken out: words an owner would read. */
function words(text) {
  const cleaned = text
    .replace(/\\n/g, " ")
    .replace(/\b(npm|npx|node) [^"'`]*/g, " ") // commands to run
    .replace(/\S*\/\S*/g, " ") // routes, paths, media types
    .replace(/(^|[\s(（])--?[a-z][\w-]*(=\S*)?/g, " ") // flags
    .replace(/<[^<>]*>|\[[^\]]*\]/g, " ") // placeholders in usage
    .replace(/\b[\w-]+(\.[\w-]+)+\b/g, " ") // setting paths, file names, catalogue keys
    .replace(/\b[\w-]+:\S*/g, " ") // chat keys, scopes, `key: value` labels of JSON
    .replace(/\b\w+(-\w*)+/g, " ") // identifiers such as leave-out, file names
    .replace(/\b[a-z]+_[a-z_]+\b|\b[a-z]+[A-Z]\w*\b|\b[A-Z_]{2,}\b/g, " "); // names in code
  return (cleaned.match(/[A-Za-z][A-Za-z'’]+/g) ?? []).filter((w) => !ALLOWED.has(w));
}

/** Contexts whose literal is shown to a person even when it is one lowercase word. */
const SHOWN = /\b(title|empty|description|summary|detail|fix|unit)\s*[:(]\s*$|\.description\(\s*$/;
/**
 * Contexts whose literal is never shown as a sentence: a catalogue key, a module, a route, a
 * method, a name, an API-shaped error's `message` (data of `--json`, the same in every language).
 */
const TECHNICAL =
  /(\bt\(\s*|\bimport\(\s*|from\s+|\bcall\(\s*|\brequest\(\s*|define\(\s*|\.addHelpText\(\s*|\bCOMMANDS\b.*|===?\s*|!==?\s*|case\s+|\bkind:\s*|\bmessage:\s*|\bstatus:\s*|\bid:\s*|\bop\s*===?\s*)$/;

function findings(file, code = readFileSync(file, "utf8")) {
  const plain = stripComments(code);
  const found = [];
  for (const { text, index, withValue } of literals(plain)) {
    const before = plain.slice(Math.max(0, plain.lastIndexOf("\n", index - 1) + 1), index);
    if (TECHNICAL.test(before) && !SHOWN.test(before)) continue;
    // An object's key (`"Global Options:": …`) is looked up, not shown.
    if (/^\s*:/.test(plain.slice(index + text.length + 2, index + text.length + 6))) continue;
    const w = words(text);
    // A capitalised word, two words, or a word beside a value in a template: `forgot ${id}`.
    const readsAsWords = /(^|\s)[A-Z][a-z]+\b/.test(text) || withValue ? w.length > 0 : w.length >= 2;
    if (readsAsWords || (SHOWN.test(before) && w.length > 0)) {
      const line = plain.slice(0, index).split("\n").length;
      found.push(`${path.relative(root, file)}:${line}: ${text.trim().slice(0, 80)}`);
    }
  }
  return found;
}

test("no file of the CLI prints an English sentence outside the catalogue", () => {
  assert.deepEqual(
    sources().flatMap((f) => findings(f)),
    [],
  );
});

test("the scan sees an English literal and lets technical ones pass (the control)", () => {
  const fixture = [
    "console.log(`${n} messages of ${chat}`);",
    'throw new CliError("nothing to change: give --text");',
    'const cols = [{ title: "sender", value: (m) => m.nick }];',
    'cmd.description("memory items");',
    "output(o, r, () => `forgot ${id}`);",
    // Technical: keys, routes, commands, flags, settings, method names.
    't("memory.desc.list"); api.call("GET", `/memory/${id}`);',
    'const fix = "npm run db:apply:local"; const key = `knowledge.embeddings.read`;',
    'cmd.option("--limit <n>", t("opt.limit")); if (r.status === "failed") x();',
  ].join("\n");
  const found = findings(path.join(root, "fixture.mjs"), fixture);
  for (const english of ["messages of", "nothing to change", "sender", "memory items", "forgot"])
    assert.ok(
      found.some((f) => f.includes(english)),
      `${english} not seen:\n${found.join("\n")}`,
    );
  assert.equal(found.length, 5, found.join("\n"));
});
