// `npm run akasha -- sessions <op> …`: the session registry through the Worker's admin API
// (local by default; --url https://<host> and AKASHA_ADMIN_TOKEN for a deployed Worker). Each
// operation is a commander subcommand that maps to one /api/sessions request (`requestOf`);
// validation, confirmation and audit happen in the Worker.
import { writeFileSync } from "node:fs";
import { CliError, command as define, withApiOptions } from "../lib/args.mjs";
import { client, problemMessage } from "./admin-api.mjs";
import { t } from "./i18n/lang.mjs";

/**
 * The operations: name, arguments, option flags. Each one's description is the catalogue's
 * `sessions.desc.<op>`, each option's `sessions.opt.<op>.<name>`.
 */
const OPERATIONS = [
  ["list", "", ["--all"]],
  ["info", "<ref>", []],
  ["link", "<a> <b>", ["--yes"]],
  ["unlink", "<ref>", []],
  ["rename", "<ref> <alias>", []],
  ["retention", "<ref> <days>", []],
  ["store", "<ref> <state>", []],
  ["forget", "<ref>", ["--yes"]],
  ["export", "<ref>", ["--log", "--out <file>"]],
  ["forget-person", "<person>", ["--yes"]],
  ["backfill", "", []],
  ["backfill-restart", "<chat>", []],
];

const enc = encodeURIComponent;

/** The API request of an operation, or a usage error. */
export function requestOf({ op, rest, flags }) {
  const need = (n) => {
    if (rest.length !== n) throw new CliError(t("sessions.argCount", { op, n }));
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
      if (days !== null && !Number.isInteger(days)) throw new CliError(t("sessions.retentionDays"));
      return ["POST", `/sessions/${enc(rest[0])}/retention`, { days }];
    }
    case "store":
      need(2);
      if (rest[1] !== "on" && rest[1] !== "off") throw new CliError(t("sessions.storeOnOff"));
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
      throw new CliError(op ? t("sessions.unknownOp", { op }) : t("sessions.noOp"));
  }
}

/** Sends one operation; returns the exit code (1 when the Worker refused it). */
export async function execute(parsed) {
  const [method, route, body] = requestOf(parsed);
  const api = client(parsed.flags);
  const r = await api.request(method, route, body);
  if (!r.ok) {
    if (parsed.flags.json) console.log(JSON.stringify(r.json, null, 2));
    else console.error(problemMessage(r.status, r.json));
    return 1;
  }
  if (parsed.op === "export") {
    const markdown = r.json.raw ?? JSON.stringify(r.json);
    if (parsed.flags.out) {
      writeFileSync(parsed.flags.out, markdown);
      console.error(t("sessions.wrote", { file: parsed.flags.out }));
    } else process.stdout.write(markdown);
    return 0;
  }
  if (parsed.flags.json) console.log(JSON.stringify(r.json, null, 2));
  else if (parsed.op === "backfill") console.log(renderBackfill(r.json));
  else if (parsed.op === "backfill-restart") console.log(renderRestart(r.json));
  else console.log(r.json.message ?? JSON.stringify(r.json, null, 2));
  return 0;
}

/** One line per group: status, cursor, counts, the last error of a failed one. */
export function renderBackfill({ configured, groups }) {
  const head = configured ? t("backfill.on") : t("backfill.off");
  const line = (g) =>
    g.status === "pending"
      ? t("backfill.pending", { chat: g.chatKey })
      : t("backfill.line", {
          chat: g.chatKey,
          status: g.status,
          reason: g.doneReason ? ` (${g.doneReason})` : "",
          cursor: g.cursor ?? "-",
          stored: g.stored,
          pages: g.pages,
          errors: g.errors,
        }) +
        (g.restarts ? t("backfill.restarts", { n: g.restarts }) : "") +
        (g.followed ? "" : t("backfill.notFollowed")) +
        (g.status === "failed" && g.lastError ? t("backfill.lastError", { error: g.lastError }) : "");
  return [head, ...(groups.length ? groups.map(line) : [t("backfill.none")])].join("\n");
}

/** A restart's answer from its data (`changed`, `progress`), not from the Worker's English message. */
export function renderRestart({ changed, progress }) {
  const chat = progress?.chatKey ?? "?";
  return changed
    ? t("sessions.restarted", { chat, cursor: progress?.cursor ?? t("sessions.newest") })
    : t("sessions.alreadyRunning", { chat });
}

export function command(name = "sessions") {
  const root = define(name).description(t("sessions.desc"));
  for (const [op, args, options] of OPERATIONS) {
    const sub = withApiOptions(define(op).description(t(`sessions.desc.${op}`)));
    if (args) sub.arguments(args);
    for (const flags of options) sub.option(flags, t(`sessions.opt.${op}.${flags.slice(2).split(" ")[0]}`));
    sub.action(async (...values) => {
      // commander passes the arguments, then the options, then the command itself.
      const flags = values.at(-2);
      process.exitCode = await execute({ op, rest: values.slice(0, -2), flags });
    });
    root.addCommand(sub);
  }
  return root;
}
