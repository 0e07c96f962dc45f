// `npm run akasha -- <command> [options]`: the owner's CLI. Each command lives in scripts/cli/,
// exports `command(name)` (a commander Command) and registers here with one entry. Commands
// that talk to the Worker take --url (AKASHA_URL) and the token from AKASHA_ADMIN_TOKEN; those
// that touch D1 directly take --local (default) or --remote. Exit codes: 0 done, 1 failed
// (HTTP error, unreachable Worker, wrangler failure), 2 refused (bad command, option or input).
import { CommanderError } from "commander";
import { CliError, command as define } from "./lib/args.mjs";

export const COMMANDS = {
  doctor: {
    summary: "检查部署并给出修复命令：密钥、迁移、webhook、管理员、关注的群、模型、向量索引",
    load: () => import("./cli/doctor.mjs"),
  },
  admins: {
    summary: "管理员：list、add、remove、claim（首位管理员的一次性口令）",
    load: () => import("./cli/admins.mjs"),
  },
  follow: { summary: "关注的群（保存聊天记录）：list、add、remove", load: () => import("./cli/follow.mjs") },
  "leave-out": {
    summary: "不记录名单（某人的消息照常回答但不保存）：list、add、remove",
    load: () => import("./cli/leave-out.mjs"),
  },
  settings: {
    summary: "行为设置：get、set、unset（整体校验、审计）",
    load: () => import("./cli/settings.mjs"),
  },
  status: { summary: "health, counts, today's spend, embeddings", load: () => import("./cli/status.mjs") },
  chats: { summary: "the chat registry", load: () => import("./cli/chats.mjs") },
  messages: {
    summary: "a chat's messages; --export writes all of them",
    load: () => import("./cli/messages.mjs"),
  },
  memory: {
    summary: "memory items: list, show, edit, archive, restore, forget",
    load: () => import("./cli/memory.mjs"),
  },
  audit: { summary: "the audit log", load: () => import("./cli/audit.mjs") },
  usage: { summary: "model usage and today's spend against the caps", load: () => import("./cli/usage.mjs") },
  backup: {
    summary: "D1 Time Travel bookmark (remote) or a copy of the local database",
    load: () => import("./cli/backup.mjs"),
  },
  "scope-migration": {
    summary: "move chat-specific global memory into its chat's scope",
    load: () => import("./cli/scope-migration.mjs"),
  },
  "private-origin": {
    summary: "re-mark memory learned in private chats as private; list global items from them",
    load: () => import("./cli/private-origin.mjs"),
  },
  "sensitivity-backfill": {
    summary: "make default-sourced private memory public",
    load: () => import("./cli/sensitivity-backfill.mjs"),
  },
  kb: {
    summary: "knowledge base: list, create, show, import, delete, search",
    load: () => import("./cli/kb.mjs"),
  },
  sessions: {
    summary: "sessions: list, info, link, unlink, rename, retention, store, forget, export, backfill",
    load: () => import("./cli/sessions.mjs"),
  },
  embeddings: {
    summary: "embeddings cache: status, rebuild [--resync]",
    load: () => import("./cli/embeddings.mjs"),
  },
};

/** The whole program: every registered command, built by its module. */
export async function program() {
  const root = define("akasha")
    .usage("<command> [options]")
    .description("the owner's CLI of Akasha (npm run akasha -- <command> --help for a command's options)");
  for (const [name, entry] of Object.entries(COMMANDS))
    root.addCommand((await entry.load()).command(name).summary(entry.summary));
  return root;
}

/** Runs argv (without node and the script); returns the exit code. */
export async function main(argv) {
  const root = await program();
  if (argv.length === 0) {
    root.outputHelp({ error: true });
    return 2;
  }
  try {
    await root.parseAsync(argv, { from: "user" });
    return Number(process.exitCode ?? 0);
  } catch (e) {
    if (e instanceof CommanderError) {
      // commander has printed its message (or the help, for --help / a bare group command).
      return e.code === "commander.helpDisplayed" || e.code === "commander.version" ? 0 : 2;
    }
    const name = argv.find((a) => !a.startsWith("-")) ?? "akasha";
    console.error(`akasha ${name}: ${e instanceof Error ? e.message : String(e)}`);
    return e instanceof CliError ? e.exitCode : 1;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) process.exitCode = await main(process.argv.slice(2));
