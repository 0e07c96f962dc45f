/**
 * Passwords given to a command on its command line, pasted into a chat to ask why it fails:
 * `mysql -uroot -pSecret123`, `redis-cli -a foobared`, `sshpass -p 'x' ssh …`, `curl -u bob:x`,
 * `docker login -p x`, `7z a -px`, `openssl … -passin pass:x`, `net user bob x /add`,
 * `sqlplus scott/tiger@orcl`, `--password x` on any command
 * (docs/decisions/0570-credentials-in-command-lines.md).
 *
 * Each tool's own flag decides: `-p` is mysql's password but ssh's port, so a flag counts only
 * after the command it belongs to, in the same command line. A flag that prompts (`mysql -p`,
 * `curl -u bob`), a variable (`$PASS`, `%PASSWORD%`), a placeholder (`<password>`, `你的密码`)
 * or a path is no value. Only the value is masked.
 */

import { type ShellWord, shellWords, unquotedSpan } from "../text/shell-words";
import { type CommandTool, TOOLS, type ToolForm } from "./credential-command-tools";
import { isPlaceholder, type PhraseMatch } from "./credential-phrases";

const TOOL_NAMES = TOOLS.flatMap((t) => t.names);
/** A known command, perhaps with a path before it or `.exe` after it. */
const COMMAND = new RegExp(
  String.raw`(?<![\w.-])(?:[\w.~-]*[/\\])?(?<name>${TOOL_NAMES.map((n) => n.replace(/[.+]/g, "\\$&")).join("|")})(?:\.exe)?(?![\w.-])`,
  "gi",
);
/** `--password x`, `--db-pass=x` on any command; not `--no-password`, `--ask-pass`, `--password-file`. */
const LONG_FLAG =
  /^--(?!(?:no|ask|prompt|skip|show|forgot|reset|require|use)-)(?:[a-z0-9]+[-_.])*(?:password|passwd|passphrase|pass|pwd)(?:=|$)/i;

/**
 * `-uroot -p123456` on a client whose name is not known (`mysql8`, a typo, an alias): the MySQL
 * family's way of giving a user and its password, which other tools copied. The password joined
 * to `-p`, after a `-u` of the same line; `-p8080:80` is a port mapping.
 */
const USER_THEN_PASSWORD =
  /(?<![^\s])-u\s?[^\s-][^\s]*\s+(?:-[a-oq-zA-Z]\S*\s+){0,3}-p(?<value>[^\s'"-][^\s'"]*|'[^'\n]+'|"[^"\n]+")(?!\S)/dgu;
const PORTS = /^\d{1,5}(?::\d{1,5})*$/;
const LONG_FLAG_ANYWHERE = /(?<![^\s"'`])--[a-z0-9]/gi;

/** Every password value on a command line in `text`; the spans cover the value only. */
export function findCommandLineValues(text: string): PhraseMatch[] {
  const out: PhraseMatch[] = [];
  for (const m of text.matchAll(COMMAND)) {
    const name = (m.groups?.name ?? "").toLowerCase();
    const words = shellWords(text, m.index + m[0].length);
    const forms = TOOLS.filter(
      (t) => t.names.includes(name) && (!t.sub || words.some((w) => t.sub?.test(w.raw))),
    );
    for (const span of forms.flatMap((t) => t.forms.flatMap((f) => valuesOf(f, ownWords(t, words))))) {
      out.push({ ...span, id: "command-line" });
    }
  }
  for (const m of text.matchAll(USER_THEN_PASSWORD)) {
    const at = m.indices?.groups?.value;
    const quoted = /^['"]/.test(m.groups?.value ?? "") ? 1 : 0;
    const value = (m.groups?.value ?? "").slice(quoted, quoted ? -1 : undefined);
    if (at && isCommandValue(value) && !PORTS.test(value)) {
      out.push({ start: at[0] + quoted, end: at[1] - quoted, id: "command-line" });
    }
  }
  for (const m of text.matchAll(LONG_FLAG_ANYWHERE)) {
    for (const span of longFlagValues(shellWords(text, m.index, 2)))
      out.push({ ...span, id: "command-line" });
  }
  // Commands in a row read each other's words: each span once.
  const seen = new Set<string>();
  return out.filter((s) => {
    const key = `${s.start}:${s.end}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** A wrapper's own words: up to the first argument that is no flag's value (the command it runs). */
function ownWords(tool: CommandTool, words: readonly ShellWord[]): readonly ShellWord[] {
  if (!tool.wraps) return words;
  const end = words.findIndex((w, i) => !w.raw.startsWith("-") && !/^-\w$/.test(words[i - 1]?.raw ?? ""));
  return end < 0 ? words : words.slice(0, end);
}

type Span = { readonly start: number; readonly end: number };

/** The value a word holds from `offset` on, if it is one. */
function valueIn(word: ShellWord | undefined, offset = 0, cut = ""): Span | null {
  if (!word || offset >= word.raw.length) return null;
  let span = unquotedSpan(word.raw, offset);
  if (cut !== "") {
    const at = word.raw.indexOf(cut, span.start);
    if (at < 0 || at >= span.end - 1) return null;
    span = { start: at + cut.length, end: span.end };
  }
  const value = word.raw.slice(span.start, span.end);
  return isCommandValue(value) ? { start: word.start + span.start, end: word.start + span.end } : null;
}

/** What a flag's argument must be to be a password: not a prompt, a variable, a placeholder or a path. */
export function isCommandValue(value: string): boolean {
  if (value.length < 3 || /^[-$%<{[(/~@*]|\p{Script=Han}|^\\\\/u.test(value)) return false;
  if (/^[A-Z][A-Z0-9_]*$/.test(value) && /PASS|PWD|TOKEN|SECRET|KEY/.test(value)) return false;
  // "MyRedisPass1" is a password; "my_password" and "your-token" are placeholders.
  const named = /^(?:my|the)(?![_-]?(?:pass|pwd|secret|token|key))/i.test(value);
  return !(isPlaceholder(value) && !named) && !/^(?:\*+|x+|\?+|\.{3}|…+)$/i.test(value);
}

/** The value standing at `from` to `to` of a word (a password inside `scott/tiger@orcl`). */
function valueAt(word: ShellWord | undefined, from = 0, to?: number): Span | null {
  if (!word) return null;
  const whole = unquotedSpan(word.raw, 0);
  const start = Math.max(from, whole.start);
  const end = Math.min(to ?? whole.end, whole.end);
  const value = word.raw.slice(start, end);
  return isCommandValue(value) ? { start: word.start + start, end: word.start + end } : null;
}

function valuesOf(form: ToolForm, words: readonly ShellWord[]): Span[] {
  const out: Span[] = [];
  const push = (s: Span | null) => {
    if (s) out.push(s);
  };
  words.forEach((w, i) => {
    const raw = w.raw;
    const next = words[i + 1];
    switch (form.kind) {
      case "attached":
        if (raw.startsWith(form.flag) && raw.length > form.flag.length) push(valueIn(w, form.flag.length));
        break;
      case "next":
        if (raw === form.flag) push(valueIn(next));
        break;
      case "either":
        if (raw === form.flag) push(valueIn(next));
        else if (raw.startsWith(form.flag)) push(valueIn(w, form.flag.length));
        break;
      case "after":
        if (raw === form.flag) push(valueIn(next, 0, form.sep));
        else if (raw.startsWith(form.flag) && raw.length > form.flag.length)
          push(valueIn(w, form.flag.length, form.sep));
        break;
      case "tagged":
        if (raw === form.flag) push(valueIn(next, 0, form.tag));
        break;
      case "colon":
        if (raw.toLowerCase().startsWith(`${form.flag}:`)) push(valueIn(w, form.flag.length + 1));
        break;
    }
  });
  if (form.kind === "positional") {
    for (const at of form.find(words.map((x) => x.raw))) push(valueAt(words[at.index], at.from, at.to));
  }
  return out;
}

/** `--password x`, `--password=x`, `--db-pass x`: a long flag whose name ends in a password word. */
function longFlagValues(words: readonly ShellWord[]): Span[] {
  const out: Span[] = [];
  words.forEach((w, i) => {
    const m = LONG_FLAG.exec(w.raw);
    if (!m) return;
    const span = m[0].endsWith("=") ? valueIn(w, m[0].length) : valueIn(words[i + 1]);
    if (span) out.push(span);
  });
  return out;
}
