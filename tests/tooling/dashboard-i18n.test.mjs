// Every word an admin reads on a dashboard page comes from the catalogue (src/workers/dashboard/
// i18n): a .tsx file with an English literal in its markup — text between tags, a text line of
// JSX, a placeholder/title/aria-label, a quoted string in the page code — fails here. A simple
// scan, not a parser: technical tokens (names, units, commands, setting paths) are allowed.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";

const root = path.resolve(import.meta.dirname, "../..");
const DIR = path.join(root, "src/workers/dashboard");
const EXTRA = [path.join(root, "src/workers/auth/login.routes.tsx")];

/** Words that are the same in every language: product, protocol and unit names. */
const ALLOWED = new Set(
  "Akasha QQ OneBot JSON UTC CSRF ID B KiB MiB ms KB FTS URL API CLI AI PDF DOCX Markdown".split(" "),
);

function sources() {
  const files = readdirSync(DIR, { recursive: true })
    .filter((f) => f.endsWith(".tsx"))
    .map((f) => path.join(DIR, f));
  return [...files, ...EXTRA];
}

/** Comments say why in English; they are not shown. */
const stripComments = (code) => code.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:])\/\/.*$/gm, "$1");

/** What is left of a candidate after technical tokens are taken out: words an admin would read. */
function words(text) {
  const cleaned = text
    .replace(/\{[^}]*\}/g, " ")
    .replace(/`[^`]*`/g, " ")
    .replace(/\b[\w-]+(\.[\w-]+)+\b/g, " ") // setting paths, file names, keys
    .replace(/\b[\w-]+:\S*/g, " ") // chat keys, scopes
    .replace(/\b[a-z]+(-[a-z]+)+\b/g, " ") // identifiers such as vue-docs
    .replace(/npm run [^"]*/g, " ")
    .replace(/\b[a-z]+_[a-z_]+\b/g, " "); // enum values such as secret_like
  return (cleaned.match(/[A-Za-z][A-Za-z'’]+/g) ?? []).filter((w) => !ALLOWED.has(w));
}

function findings(file) {
  const code = stripComments(readFileSync(file, "utf8"));
  const found = [];
  const lines = code.split("\n");
  lines.forEach((line, i) => {
    const at = `${path.relative(root, file)}:${i + 1}`;
    if (/^\s*(import|export \{|export type|type |\*)/.test(line)) return;
    // A JSX text line: nothing but words (biome puts long text on a line of its own).
    if (
      /^\s*[A-Za-z][A-Za-z ,.'’!?…-]*:?$/.test(line) &&
      !/[,;]$/.test(line) &&
      !/^\s*(return|else|default|break|continue|async|await|try|finally|string|number|boolean|required|disabled|checked|multiple|autofocus|open|selected|hidden)\s*$/.test(
        line,
      )
    ) {
      const w = words(line);
      if (w.length > 0) found.push(`${at} text: ${line.trim()}`);
    }
    // Text between a tag and the next tag or expression.
    for (const m of line.matchAll(/(?<![=-])>([^<>{}=]*[A-Za-z]{2,}[^<>{}=]*)(?=<|\{)/g))
      if (words(m[1]).length > 0 && !/[();]|\?:|&&|\|\||^\s*,/.test(m[1]))
        found.push(`${at} text: ${m[1].trim()}`);
    for (const m of line.matchAll(/\b(placeholder|title|aria-label|alt|empty|label|summary)="([^"]*)"/g))
      if (words(m[2]).length > 0) found.push(`${at} ${m[1]}: ${m[2]}`);
    // A quoted string that reads as words: capitalised, or two words with a space.
    for (const m of line.matchAll(/(?<![\w.])(["'])((?:(?!\1).)*)\1/g)) {
      const s = m[2];
      if (!/^[A-Z][a-z]+\b|[A-Za-z]{2,} [A-Za-z]{2,}/.test(s)) continue;
      if (/^(class|name|type|id|href|method|action|rel|for|role|lang|content|charset|autocomplete)=/.test(s))
        continue;
      if (
        line
          .slice(0, m.index)
          .match(
            /\b(t|class|id|name|type|href|action|method|rel|for|role|lang|hreflang|content|charset|autocomplete|inputmode|value|accept|enctype)=?\(?\{?\s*$/,
          )
      )
        continue;
      const before = line.slice(0, m.index);
      const after = line.slice(m.index + m[0].length);
      // A class list, a cookie attribute, a header name: markup, not words.
      if (/class=\{[^}]*$|sameSite:\s*$/.test(before) || /^:/.test(after)) continue;
      if (words(s).length > 0) found.push(`${at} string: ${s}`);
    }
  });
  return found;
}

test("no dashboard page shows an English literal outside the catalogue", () => {
  const all = sources().flatMap(findings);
  assert.deepEqual(all, []);
});

test("the scan sees an English literal (the control)", () => {
  const file = path.join(root, "tests/tooling/fixtures/english-page.tsx");
  const found = findings(file);
  for (const literal of ["Save changes", "Search memory", "Nothing here yet", "Archived"])
    assert.ok(
      found.some((f) => f.includes(literal)),
      found.join("\n"),
    );
  assert.ok(!found.some((f) => f.includes("retention.groupDays")), found.join("\n"));
});
