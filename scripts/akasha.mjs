// `npm run akasha -- <command> [options]`: the owner's CLI. Each command lives in scripts/cli/,
// exports `command(name)` (a commander Command) and registers here with one entry. Commands
// that talk to the Worker take --url (AKASHA_URL) and the token from AKASHA_ADMIN_TOKEN; those
// that touch D1 directly take --local (default) or --remote. Exit codes: 0 done, 1 failed
// (HTTP error, unreachable Worker, wrangler failure), 2 refused (bad command, option or input).
// Human output is Simplified Chinese; `--lang en` (or AKASHA_LANG=en) asks for English. Each
// entry's summary is its catalogue key `summary.<name>` (scripts/cli/i18n).
import { CommanderError } from "commander";
import { t, takeLang } from "./cli/i18n/lang.mjs";
import { CliError, command as define } from "./lib/args.mjs";

export const COMMANDS = {
  doctor: {
    load: () => import("./cli/doctor.mjs"),
  },
  admins: {
    load: () => import("./cli/admins.mjs"),
  },
  follow: { load: () => import("./cli/follow.mjs") },
  "leave-out": {
    load: () => import("./cli/leave-out.mjs"),
  },
  settings: {
    load: () => import("./cli/settings.mjs"),
  },
  status: { load: () => import("./cli/status.mjs") },
  chats: { load: () => import("./cli/chats.mjs") },
  messages: {
    load: () => import("./cli/messages.mjs"),
  },
  memory: {
    load: () => import("./cli/memory.mjs"),
  },
  audit: { load: () => import("./cli/audit.mjs") },
  notices: { load: () => import("./cli/notices.mjs") },
  usage: { load: () => import("./cli/usage.mjs") },
  backup: {
    load: () => import("./cli/backup.mjs"),
  },
  "scope-migration": {
    load: () => import("./cli/scope-migration.mjs"),
  },
  "private-origin": {
    load: () => import("./cli/private-origin.mjs"),
  },
  "sensitivity-backfill": {
    load: () => import("./cli/sensitivity-backfill.mjs"),
  },
  kb: {
    load: () => import("./cli/kb.mjs"),
  },
  sessions: {
    load: () => import("./cli/sessions.mjs"),
  },
  embeddings: {
    load: () => import("./cli/embeddings.mjs"),
  },
  log: { load: () => import("./cli/log.mjs") },
};

/** The whole program: every registered command, built by its module. */
export async function program() {
  const root = define("akasha").usage("<command> [options]").description(t("root.description"));
  for (const [name, entry] of Object.entries(COMMANDS))
    root.addCommand((await entry.load()).command(name).summary(t(`summary.${name}`)));
  return root;
}

/** Runs argv (without node and the script); returns the exit code. */
export async function main(argvWithLang) {
  const argv = takeLang(argvWithLang);
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
