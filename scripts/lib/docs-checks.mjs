// Checks that the documentation keeps up with the repository: the README stays a short guide
// with its two set-up commands, every page of docs/ is in its index, and the pages that list
// the turn's tools and commands name every one the registry registers. Run by
// tests/tooling/docs.test.mjs (`npm run check`); docs/README.md says what it holds.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/** The README is a guide for owners: at most this many lines. */
export const README_MAX_LINES = 500;

/** The two set-up commands the README must show exactly, each as a shell line of its own. */
export const SETUP_COMMANDS = ["npm install && npm start", "npm install && npm test"];

/** What is wrong with the README's text: too long, or a set-up command missing. */
export function readmeProblems(text) {
  const problems = [];
  const lines = text.endsWith("\n") ? text.split("\n").length - 1 : text.split("\n").length;
  if (lines > README_MAX_LINES) problems.push(`README.md has ${lines} lines (at most ${README_MAX_LINES})`);
  const shellLines = new Set(text.split("\n").map((l) => l.trim()));
  for (const command of SETUP_COMMANDS) {
    if (!shellLines.has(command)) problems.push(`README.md lacks the set-up command \`${command}\``);
  }
  return problems;
}

/** Relative link targets of a Markdown text, without anchors (`[a](b.md#c)` → `b.md`). */
export function linkTargets(markdown) {
  const targets = new Set();
  for (const m of markdown.matchAll(/\]\(([^)#\s]+)(?:#[^)\s]*)?\)/g)) {
    if (m[1] && !/^[a-z]+:/i.test(m[1])) targets.add(path.posix.normalize(m[1]));
  }
  return targets;
}

/** The `files` (paths relative to the index's folder) that the index text links to nowhere. */
export function unlisted(indexText, files) {
  const targets = linkTargets(indexText);
  return files.filter((f) => !targets.has(f));
}

/** What an index must list: every Markdown page of its folder, and each sub-folder's own index. */
export function pagesOf(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isFile() && entry.name.endsWith(".md") && entry.name !== "README.md") out.push(entry.name);
    if (entry.isDirectory()) {
      const has = readdirSync(path.join(dir, entry.name)).some((f) => f.endsWith(".md"));
      if (has) out.push(`${entry.name}/README.md`);
    }
  }
  return out.sort();
}

/** The imported names of a TypeScript module and the module each comes from. */
function importsOf(source) {
  const from = new Map();
  for (const m of source.matchAll(/import\s*(?:type\s*)?\{([^}]*)\}\s*from\s*"([^"]+)"/g)) {
    for (const name of m[1].split(",")) {
      const local = name
        .trim()
        .split(/\s+as\s+/)
        .pop();
      if (local) from.set(local, m[2]);
    }
  }
  return from;
}

/** The text between `opening` and the bracket that closes it. */
function block(source, opening) {
  const start = source.indexOf(opening);
  if (start < 0) throw new Error(`registry has no \`${opening}\``);
  const open = opening.at(-1);
  const close = open === "[" ? "]" : ")";
  let depth = 0;
  for (let i = start + opening.length - 1; i < source.length; i++) {
    if (source[i] === open) depth++;
    if (source[i] === close && --depth === 0) return source.slice(start + opening.length, i);
  }
  throw new Error(`\`${opening}\` is never closed`);
}

/**
 * The `name:` an exported command or tool declares, in the module that exports it: a string,
 * or a constant of that module (`name: ACTION` with `const ACTION = "session_manage"`).
 */
function declaredName(moduleSource, identifier) {
  const at = moduleSource.search(new RegExp(`export\\s+(?:const|function)\\s+${identifier}\\b`));
  if (at < 0) return null;
  const found = /\bname:\s*(?:"([^"]+)"|([A-Za-z_]\w*)\b)/.exec(moduleSource.slice(at));
  if (!found) return null;
  if (found[1]) return found[1];
  return new RegExp(`\\bconst\\s+${found[2]}\\s*=\\s*"([^"]+)"`).exec(moduleSource)?.[1] ?? null;
}

/**
 * The tools and commands the turn registry registers, by their declared names. `registry` is
 * the registry module's source; `read(specifier)` returns the source of a module it imports.
 * An entry whose name cannot be found is an error, so the check cannot silently shrink.
 */
export function registeredNames(registry, read) {
  const imports = importsOf(registry);
  const namesIn = (text) => {
    const names = [];
    for (const identifier of new Set(text.match(/\b[A-Za-z_]\w*\b/g) ?? [])) {
      const specifier = imports.get(identifier);
      if (!specifier || !/(?:Tool|Command)$/.test(identifier)) continue;
      const name = declaredName(read(specifier), identifier);
      if (!name) throw new Error(`no name declared for ${identifier} in ${specifier}`);
      names.push(name);
    }
    return names;
  };
  return {
    tools: namesIn(block(registry, "tools: [")),
    commands: namesIn(block(registry, "commands.push(")),
  };
}

/** The registry of the repository at `root`, read from its sources. */
export function repositoryRegistry(root) {
  const dir = path.join(root, "src/domain/agent");
  const registry = readFileSync(path.join(dir, "default-turn-registry.ts"), "utf8");
  return registeredNames(registry, (specifier) => readFileSync(path.join(dir, `${specifier}.ts`), "utf8"));
}

/** Tool names (`` `kb_search` ``) and commands (`` `/help` `` or `` `/help …` ``) a page does not name. */
export function unnamed(text, { tools, commands }) {
  const missing = [];
  for (const tool of tools) if (!text.includes(`\`${tool}\``)) missing.push(tool);
  for (const command of commands) {
    if (!new RegExp(`\`/${command}[\\s\`]`).test(text)) missing.push(`/${command}`);
  }
  return missing;
}
