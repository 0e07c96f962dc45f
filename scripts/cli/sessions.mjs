// `npm run akasha -- sessions <op> …`: the session registry through the Worker's admin API
// (local by default; --url https://<host> and AKASHA_ADMIN_TOKEN for a deployed Worker). Each
// operation is a commander subcommand that maps to one /api/sessions request (`requestOf`);
// validation, confirmation and audit happen in the Worker.
import { writeFileSync } from "node:fs";
import { CliError, command as define, withApiOptions } from "../lib/args.mjs";
import { client } from "./admin-api.mjs";

/** The operations: name, arguments, options, description. */
const OPERATIONS = [
  ["list", "", [["--all", "every session, not only those active in the last 30 days"]], "sessions"],
  ["info", "<ref>", [], "one session (id, alias or chat key), its cluster and whose private chats it reads"],
  [
    "link",
    "<a> <b>",
    [["--yes", "confirm a link between a private chat and a group"]],
    "put b into a's cluster",
  ],
  ["unlink", "<ref>", [], "leave the cluster"],
  ["rename", "<ref> <alias>", [], "set the session's alias"],
  ["retention", "<ref> <days>", [], "message retention for this chat, in days or 'default'"],
  ["store", "<ref> <state>", [], "store this chat (on) or not (off)"],
  [
    "forget",
    "<ref>",
    [["--yes", "confirm: deletes for good"]],
    "delete this chat's messages, memory, summaries, FTS rows and vectors",
  ],
  [
    "export",
    "<ref>",
    [
      ["--log", "include the message log"],
      ["--out <file>", "write the Markdown to a file"],
    ],
    "Markdown export: memory, summaries, optionally the log",
  ],
  [
    "forget-person",
    "<person>",
    [["--yes", "confirm: deletes for good (without it: only count what would go)"]],
    "delete a person's personal memory and observations",
  ],
  ["backfill", "", [], "the OneBot backfill's progress per followed group"],
  ["backfill-restart", "<chat>", [], "restart a failed OneBot group's backfill from its recorded cursor"],
];

const enc = encodeURIComponent;

/** The API request of an operation, or a usage error. */
export function requestOf({ op, rest, flags }) {
  const need = (n) => {
    if (rest.length !== n) throw new CliError(`${op} takes ${n} argument(s)`);
  };
  switch (op) {
    case "list":
      need(0);
      return ["GET", `/sessions${flags.all ? "?all=true" : ""}`];
    case "info":
      need(1);
      return ["GET", `/sessions/${enc(rest[0])}`];
    case "link":
      need(2);
      return [
        "POST",
        `/sessions/${enc(rest[0])}/link`,
        { with: rest[1], ...(flags.yes ? { confirm: true } : {}) },
      ];
    case "unlink":
      need(1);
      return ["POST", `/sessions/${enc(rest[0])}/unlink`];
    case "rename":
      need(2);
      return ["POST", `/sessions/${enc(rest[0])}/rename`, { alias: rest[1] }];
    case "retention": {
      need(2);
      const days = rest[1] === "default" ? null : Number(rest[1]);
      if (days !== null && !Number.isInteger(days))
        throw new CliError("retention takes a whole number of days or 'default'");
      return ["POST", `/sessions/${enc(rest[0])}/retention`, { days }];
    }
    case "store":
      need(2);
      if (rest[1] !== "on" && rest[1] !== "off") throw new CliError("store takes on or off");
      return ["POST", `/sessions/${enc(rest[0])}/store`, { enabled: rest[1] === "on" }];
    case "forget":
      need(1);
      // The API wants the session repeated; --yes is the CLI's way of saying so.
      return ["POST", `/sessions/${enc(rest[0])}/forget`, { confirm: flags.yes ? rest[0] : "" }];
    case "export":
      need(1);
      return ["GET", `/sessions/${enc(rest[0])}/export${flags.log ? "?log=true" : ""}`];
    case "forget-person":
      need(1);
      // Without --yes: the confirm step, which counts what would go and removes nothing.
      return flags.yes
        ? ["POST", `/sessions/people/${enc(rest[0])}/forget`, { confirm: rest[0] }]
        : ["GET", `/sessions/people/${enc(rest[0])}/forget`];
    case "backfill":
      need(0);
      return ["GET", "/backfill"];
    case "backfill-restart":
      need(1);
      return ["POST", `/backfill/${enc(rest[0])}/restart`];
    default:
      throw new CliError(`${op ? `unknown operation '${op}'` : "names no operation"}`);
  }
}

/** Sends one operation; returns the exit code (1 when the Worker refused it). */
export async function execute(parsed) {
  const [method, route, body] = requestOf(parsed);
  const api = client(parsed.flags);
  const r = await api.request(method, route, body);
  if (!r.ok) {
    if (parsed.flags.json) console.log(JSON.stringify(r.json, null, 2));
    else
      console.error(
        `${r.json.error ?? r.status}${r.json.field ? ` (${r.json.field})` : ""}: ${r.json.reason ?? r.json.what ?? ""}`,
      );
    return 1;
  }
  if (parsed.op === "export") {
    const markdown = r.json.raw ?? JSON.stringify(r.json);
    if (parsed.flags.out) {
      writeFileSync(parsed.flags.out, markdown);
      console.error(`wrote ${parsed.flags.out}`);
    } else process.stdout.write(markdown);
    return 0;
  }
  if (parsed.flags.json) console.log(JSON.stringify(r.json, null, 2));
  else if (parsed.op === "backfill") console.log(renderBackfill(r.json));
  else console.log(r.json.message ?? JSON.stringify(r.json, null, 2));
  return 0;
}

/** One line per group: status, cursor, counts, the last error of a failed one. */
export function renderBackfill({ configured, groups }) {
  const head = configured
    ? "backfill: on"
    : "backfill: not running (ONEBOT_API_BASE unset or backfill.enabled off)";
  const line = (g) =>
    g.status === "pending"
      ? `${g.chatKey}  pending`
      : `${g.chatKey}  ${g.status}${g.doneReason ? ` (${g.doneReason})` : ""}  cursor ${g.cursor ?? "-"}  stored ${g.stored}  pages ${g.pages}  errors ${g.errors}${g.restarts ? `  restarts ${g.restarts}` : ""}${g.followed ? "" : "  not followed"}${g.status === "failed" && g.lastError ? `\n    last error: ${g.lastError}` : ""}`;
  return [head, ...(groups.length ? groups.map(line) : ["no followed OneBot groups"])].join("\n");
}

export function command(name = "sessions") {
  const root = define(name).description(
    "the session registry: aliases, clusters, retention, storage, forget, export",
  );
  for (const [op, args, options, description] of OPERATIONS) {
    const sub = withApiOptions(define(op).description(description));
    if (args) sub.arguments(args);
    for (const [flags, help] of options) sub.option(flags, help);
    sub.action(async (...values) => {
      // commander passes the arguments, then the options, then the command itself.
      const flags = values.at(-2);
      process.exitCode = await execute({ op, rest: values.slice(0, -2), flags });
    });
    root.addCommand(sub);
  }
  return root;
}
