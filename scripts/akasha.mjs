// `npm run akasha -- <command> [options]`: the owner's CLI. Each command lives in scripts/cli/
// and registers here. Commands that touch D1 take --local (default) or --remote.
const COMMANDS = {
  "scope-migration": {
    summary: "move chat-specific global memory into its chat's scope",
    load: () => import("./cli/scope-migration.mjs"),
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
    summary: "sessions: list, info, link, unlink, rename, retention, store, forget, export",
    load: () => import("./cli/sessions.mjs"),
  },
  embeddings: {
    summary: "embeddings cache: status, rebuild [--resync]",
    load: () => import("./cli/embeddings.mjs"),
  },
};

function usage() {
  const names = Object.keys(COMMANDS);
  console.log(
    `usage: npm run akasha -- <command> [options]\n\ncommands:\n${
      names.length === 0
        ? "  (none yet)"
        : names.map((n) => `  ${n.padEnd(22)} ${COMMANDS[n].summary}`).join("\n")
    }\n\nRun a command with --help for its options.`,
  );
}

const [name, ...args] = process.argv.slice(2);
if (!name || name === "--help" || name === "-h" || name === "help") {
  usage();
  process.exit(name ? 0 : 2);
}
const command = COMMANDS[name];
if (!command) {
  console.error(`unknown command '${name}'\n`);
  usage();
  process.exit(2);
}
try {
  const module = await command.load();
  process.exitCode = (await module.run(args)) ?? 0;
} catch (e) {
  console.error(`akasha ${name}: ${e instanceof Error ? e.message : String(e)}`);
  process.exitCode = 1;
}
