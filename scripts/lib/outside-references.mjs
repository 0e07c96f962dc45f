// Finds what in a repository file depends on something outside the repository: a relative path
// that climbs above the repository root, an absolute path on the build machine, or a citation of
// a design document the repository does not contain. Whoever clones the project has only the
// project, so the design lives in docs/ and comments cite it there (docs/README.md).
//
// One exception: an evaluation or benchmark script may name a data set outside the repository
// as a default, provided a flag or an environment variable overrides it on the same line
// (`flags.data ?? process.env.X ?? "<outside path>"`).
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

/** Citations of documents that are not in the repository. `\u00a7` is the section sign. */
const CITATIONS = [
  { name: "design document", pattern: /\bDESIGN(?:\.md\b|'s\b|\s?\u00a7)/ },
  { name: "style guide", pattern: /\bSTYLE\.md\b/ },
  { name: "platform notes", pattern: /\bplatform-fact[s]\b/ },
  { name: "protocol notes", pattern: /\bprotocols\/[\w.-]+\.md\b/ },
  { name: "reference notes", pattern: /\breference(?:\s+design)?\s*(?:0\d\d\b|\u00a7)/i },
  { name: "section of an outside document", pattern: /\u00a7/ },
];

/** A path on the machine the project was written on, not in any clone. */
const MACHINE_PATH = /(?:^|[\s"'`(=:])(\/work\/[\w.-]+)/g;

/** `../`-relative paths; each is resolved against the file's own folder. */
const RELATIVE_PATH = /(?:\.\.\/)+[\w.-]*/g;

/** Folders whose scripts may default to an outside data set when it is overridable. */
const DATA_SCRIPT = /^scripts\/(?:eval|bench)\//;

/** The override a default must sit behind: a command-line flag or an environment variable. */
const OVERRIDE = /process\.env\.[A-Z0-9_]+|\b(?:flags?|args?|argv|opts|options)\s*(?:\.|\[|\()/;

/**
 * Every outside dependency in `text`, the content of the repository file `file` (a path
 * relative to the repository root, with `/` separators), as `{ line, kind, text }`.
 *
 * A `../` path counts as outside when it climbs above the root from the file's folder (an
 * import, a link), or — when `files` (every repository path) is given — when it names nothing
 * in the repository from the file's folder but climbs above the root from the root itself
 * (prose and commands are usually written relative to the root).
 */
export function findOutsideReferences(file, text, files = null) {
  const found = [];
  const dir = path.posix.dirname(file);
  text.split("\n").forEach((line, i) => {
    const at = i + 1;
    for (const { name, pattern } of CITATIONS) {
      if (pattern.test(line))
        found.push({ line: at, kind: `cites a ${name} outside the repository`, text: line });
    }
    for (const match of line.matchAll(MACHINE_PATH)) {
      const index = (match.index ?? 0) + match[0].indexOf(match[1]);
      if (!isOverridableDefault(file, line, index)) {
        found.push({ line: at, kind: `names the machine path ${match[1]}`, text: line });
      }
    }
    for (const match of line.matchAll(RELATIVE_PATH)) {
      if (
        climbs(path.posix.join(dir, match[0])) ||
        (files !== null && rootRelativeOnly(match[0], dir, files))
      ) {
        if (isOverridableDefault(file, line, match.index ?? 0)) continue;
        found.push({ line: at, kind: `points outside the repository (${match[0]})`, text: line });
      }
    }
  });
  return found;
}

function climbs(relative) {
  const resolved = path.posix.normalize(relative);
  return resolved === ".." || resolved.startsWith("../");
}

/** Names nothing in the repository from `dir`, and climbs above the root read from the root. */
function rootRelativeOnly(relative, dir, files) {
  if (!climbs(relative)) return false;
  const fromDir = path.posix.normalize(path.posix.join(dir, relative)).replace(/\/$/, "");
  if (fromDir === ".") return false;
  return !files.some((f) => f === fromDir || f.startsWith(`${fromDir}/`) || f.startsWith(`${fromDir}.`));
}

/**
 * True when the outside path at `index` of `line` is the fallback of an override: the file is
 * an evaluation or benchmark script, and a flag or environment variable is read earlier on the
 * line, followed by `??` or `||` before the path.
 */
export function isOverridableDefault(file, line, index) {
  if (!DATA_SCRIPT.test(file)) return false;
  const before = line.slice(0, index);
  const override = before.search(OVERRIDE);
  if (override < 0) return false;
  const rest = before.slice(override);
  return rest.includes("??") || rest.includes("||");
}

/** The repository's files: `git ls-files` when git knows them, else a walk of the tree. */
export function repositoryFiles(root) {
  try {
    const out = execFileSync("git", ["ls-files", "-z"], { cwd: root, encoding: "utf8" });
    return out.split("\0").filter((f) => f !== "");
  } catch {
    return walk(root, "");
  }
}

const SKIPPED_DIRS = new Set([".git", "node_modules", ".wrangler", ".eval", ".bench"]);

function walk(root, rel) {
  const files = [];
  for (const entry of readdirSync(path.join(root, rel), { withFileTypes: true })) {
    const child = rel === "" ? entry.name : `${rel}/${entry.name}`;
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRS.has(entry.name)) files.push(...walk(root, child));
    } else if (entry.isFile()) {
      files.push(child);
    }
  }
  return files;
}

/** Every outside dependency of every text file of the repository at `root`. */
export function scanRepository(root) {
  const found = [];
  const files = repositoryFiles(root);
  for (const file of files) {
    const full = path.join(root, file);
    let stat;
    try {
      stat = statSync(full);
    } catch {
      continue; // listed by git but deleted in the working tree
    }
    if (!stat.isFile()) continue;
    const bytes = readFileSync(full);
    if (bytes.includes(0)) continue; // binary
    for (const f of findOutsideReferences(file, bytes.toString("utf8"), files)) found.push({ file, ...f });
  }
  return found;
}

/** GitHub's anchor of a Markdown heading: lower case, punctuation dropped, spaces → `-`. */
export function headingAnchor(heading) {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

/** The anchors of every heading of a Markdown text. */
export function anchorsOf(markdown) {
  const anchors = new Set();
  for (const line of markdown.split("\n")) {
    const heading = /^#{1,6}\s+(.*)$/.exec(line);
    if (heading?.[1]) anchors.add(headingAnchor(heading[1]));
  }
  return anchors;
}

/**
 * Citations of the project's docs in a repository file: `docs/<path>.md#<anchor>` anywhere
 * (a page of docs/ or of a folder in it), and, in a Markdown file, relative links to another
 * page (`(<page>.md#<anchor>)`, with `../` or folders before it) or to a heading of the same
 * page (`(#<anchor>)`). Returns `{ line, doc, anchor }` with `doc` relative to the root, each
 * citation once.
 */
export function docCitations(file, text) {
  const found = [];
  const markdown = file.endsWith(".md");
  const dir = path.posix.dirname(file);
  text.split("\n").forEach((line, i) => {
    for (const m of line.matchAll(/\bdocs\/((?:[\w-]+\/)*[\w-]+\.md)(?:#([\w-]+))?/g)) {
      found.push({ line: i + 1, doc: `docs/${m[1]}`, anchor: m[2] ?? null });
    }
    if (!markdown) return;
    for (const m of line.matchAll(/\]\(((?:\.\.\/|[\w.-]+\/)*[\w-]+\.md)?(?:#([\w-]+))?\)/g)) {
      if (!m[1] && !m[2]) continue;
      const doc = m[1] ? path.posix.normalize(path.posix.join(dir, m[1])) : file;
      found.push({ line: i + 1, doc, anchor: m[2] ?? null });
    }
  });
  const seen = new Set();
  return found.filter((c) => {
    const key = `${c.line} ${c.doc} ${c.anchor}`;
    return !seen.has(key) && seen.add(key);
  });
}
