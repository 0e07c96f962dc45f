/**
 * The session operations as one value, and the one parser of their text form
 * (`/session link a b --yes`). The chat command, the admin API and the owner CLI all reach
 * `runSessionOperation` with one of these, so validation and answers agree everywhere.
 */
import { err, ok, type Result } from "../kernel/result";
import { containsSensitiveData } from "../privacy/credentials";
import { hasInvisibleControls } from "../text/visible-text";

export type SessionOperation =
  | { readonly op: "list"; readonly all: boolean }
  | { readonly op: "info"; readonly ref: string }
  | { readonly op: "link"; readonly a: string; readonly b: string; readonly yes: boolean }
  | { readonly op: "unlink"; readonly ref: string }
  | { readonly op: "rename"; readonly ref: string; readonly alias: string }
  /** `days` null = back to the default for the chat's type. */
  | { readonly op: "retention"; readonly ref: string; readonly days: number | null }
  | { readonly op: "store"; readonly ref: string; readonly enabled: boolean }
  | { readonly op: "forget"; readonly ref: string; readonly yes: boolean }
  | { readonly op: "export"; readonly ref: string; readonly log: boolean }
  | { readonly op: "forget-person"; readonly person: string; readonly yes: boolean }
  /** What `forget-person` would remove, counted; removes nothing (the confirm step). */
  | { readonly op: "forget-person-preview"; readonly person: string };

export type SessionOpName = SessionOperation["op"];

export const SESSION_USAGE = [
  "用法（仅管理员）：",
  "/session list [--all] — 列出会话（默认最近 30 天活跃的）",
  "/session info <id|别名> — 会话详情与关联",
  "/session link <a> <b> [--yes] — 把 b 并入 a 的记忆组（涉及私聊与群须 --yes）",
  "/session unlink <id> — 移出记忆组，恢复独占",
  "/session rename <id> <别名> — 设置别名",
  "/session retention <id> <天数|default> — 该会话消息保留期",
  "/session store <id> on|off — 是否存储该会话",
  "/session forget <id> --yes — 删除该会话的消息、记忆、摘要（不可恢复）",
  "/session export <id> [--log] — 导出 Markdown",
  "/session forget-person <person> --yes — 删除某人所有账号的个人记忆与观察记录",
].join("\n");

/** Aliases: what an admin can type and read back. No spaces, no `--`, not an id or a chat key. */
export function aliasProblem(alias: string): string | null {
  if (alias.length < 1 || alias.length > 40) return "must be 1 to 40 characters";
  if (/\s/.test(alias)) return "must not contain spaces";
  if (hasInvisibleControls(alias)) return "must not contain invisible or control characters";
  if (alias.startsWith("-")) return "must not start with '-'";
  if (/^s_[0-9a-f]{10}$/.test(alias)) return "must not look like a session id";
  if (alias.includes(":")) return "must not contain ':' (chat keys do)";
  if (containsSensitiveData(alias)) return "looks like a password, key or personal number; never stored";
  return null;
}

export const MAX_KEEP_DAYS = 3650;

const usage = (reason: string) => err({ kind: "invalid" as const, field: "command", reason });

/** Words after `/session`; flags may stand anywhere. */
export function parseSessionArgs(words: readonly string[]): Result<SessionOperation> {
  const flags = new Set(words.filter((w) => w.startsWith("--")).map((w) => w.toLowerCase()));
  const rest = words.filter((w) => !w.startsWith("--"));
  const [sub = "", ...args] = rest;
  const known = new Set(["--all", "--yes", "--log"]);
  for (const f of flags) if (!known.has(f)) return usage(`unknown option ${f}`);
  const arity = (n: number) => (args.length === n ? null : usage(`${sub} takes ${n} argument(s)`));
  switch (sub.toLowerCase()) {
    case "list":
      return arity(0) ?? ok({ op: "list", all: flags.has("--all") });
    case "info":
      return arity(1) ?? ok({ op: "info", ref: args[0] ?? "" });
    case "link":
      return arity(2) ?? ok({ op: "link", a: args[0] ?? "", b: args[1] ?? "", yes: flags.has("--yes") });
    case "unlink":
      return arity(1) ?? ok({ op: "unlink", ref: args[0] ?? "" });
    case "rename":
      return arity(2) ?? ok({ op: "rename", ref: args[0] ?? "", alias: args[1] ?? "" });
    case "retention": {
      const bad = arity(2);
      if (bad) return bad;
      const raw = (args[1] ?? "").toLowerCase();
      if (raw === "default") return ok({ op: "retention", ref: args[0] ?? "", days: null });
      if (!/^\d{1,5}$/.test(raw)) return usage("retention takes a whole number of days or 'default'");
      return ok({ op: "retention", ref: args[0] ?? "", days: Number(raw) });
    }
    case "store": {
      const bad = arity(2);
      if (bad) return bad;
      const raw = (args[1] ?? "").toLowerCase();
      if (raw !== "on" && raw !== "off") return usage("store takes on or off");
      return ok({ op: "store", ref: args[0] ?? "", enabled: raw === "on" });
    }
    case "forget":
      return arity(1) ?? ok({ op: "forget", ref: args[0] ?? "", yes: flags.has("--yes") });
    case "export":
      return arity(1) ?? ok({ op: "export", ref: args[0] ?? "", log: flags.has("--log") });
    case "forget-person":
      return arity(1) ?? ok({ op: "forget-person", person: args[0] ?? "", yes: flags.has("--yes") });
    default:
      return usage(sub ? `unknown subcommand ${sub}` : "names no subcommand");
  }
}
