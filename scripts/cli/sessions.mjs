// `npm run akasha -- sessions <op> …`: the session registry through the Worker's admin API
// (local by default; --url https://<host> --token <ADMIN_TOKEN> for a deployed Worker). The
// options are parsed in one place (`parse`), with Node's own util.parseArgs, and each operation
// maps to one /api/sessions request; validation, confirmation and audit happen in the Worker.
import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { client } from "./admin-api.mjs";

const USAGE = `usage: npm run akasha -- sessions <op> [options]

  list [--all]                      sessions (default: active in the last 30 days)
  info <id|alias|chat>              one session, its cluster and whose private chats it reads
  link <a> <b> [--yes]              put b into a's cluster (a private chat with a group needs --yes)
  unlink <id>                       leave the cluster
  rename <id> <alias>
  retention <id> <days|default>     message retention for this chat
  store <id> on|off                 store this chat or not
  forget <id> --yes                 delete this chat's messages, memory, summaries, FTS rows and vectors
  export <id> [--log] [--out FILE]  Markdown export (memory, summaries, optionally the log)
  forget-person <person> --yes      delete a person's personal memory and observations

common: --json (raw API answers), --url <worker url> (AKASHA_URL), --token <admin token> (AKASHA_ADMIN_TOKEN)`;

const OPTIONS = {
  all: { type: "boolean" },
  yes: { type: "boolean" },
  log: { type: "boolean" },
  json: { type: "boolean" },
  out: { type: "string" },
  url: { type: "string" },
  token: { type: "string" },
  help: { type: "boolean", short: "h" },
};

/** The one parse of the command line: the operation, its arguments and its flags. */
export function parse(args) {
  const { values, positionals } = parseArgs({ args, options: OPTIONS, allowPositionals: true, strict: true });
  const [op, ...rest] = positionals;
  return { op, rest, flags: values };
}

const enc = encodeURIComponent;

/** The API request of an operation, or a usage error. */
export function requestOf({ op, rest, flags }) {
  const need = (n) => {
    if (rest.length !== n) throw new Error(`${op} takes ${n} argument(s)\n\n${USAGE}`);
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
        throw new Error("retention takes a whole number of days or 'default'");
      return ["POST", `/sessions/${enc(rest[0])}/retention`, { days }];
    }
    case "store":
      need(2);
      if (rest[1] !== "on" && rest[1] !== "off") throw new Error("store takes on or off");
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
      return ["POST", `/sessions/people/${enc(rest[0])}/forget`, { confirm: flags.yes ? rest[0] : "" }];
    default:
      throw new Error(`${op ? `unknown operation '${op}'` : "names no operation"}\n\n${USAGE}`);
  }
}

export async function run(args) {
  const parsed = parse(args);
  if (parsed.flags.help || !parsed.op) {
    console.log(USAGE);
    return parsed.op ? 0 : 2;
  }
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
  else console.log(r.json.message ?? JSON.stringify(r.json, null, 2));
  return 0;
}
