// `npm run akasha -- audit [--actor A] [--action X] [--chat C] [--since T] [--until T] [--limit N]`.
import { command as define, integer, withApiOptions } from "../lib/args.mjs";
import { client, query } from "./admin-api.mjs";
import { clip, output, table, time } from "./format.mjs";

const detail = (d) =>
  Object.entries(d ?? {})
    .map(([k, v]) => `${k}=${typeof v === "object" ? JSON.stringify(v) : v}`)
    .join(" ");

export const renderAudit = ({ entries }) =>
  table(
    entries,
    [
      { title: "time", value: (e) => time(e.at) },
      { title: "actor", value: (e) => clip(e.actor ?? "—", 24) },
      { title: "action", value: (e) => e.action },
      { title: "chat", value: (e) => clip(e.chatKey ?? "—", 28) },
      { title: "detail", value: (e) => clip(detail(e.detail), 70) },
    ],
    { empty: "No audit entries match." },
  );

export function command(name = "audit") {
  return withApiOptions(
    define(name)
      .description("the audit log, newest first")
      .option("--actor <actor>", "e.g. admin-api, qq:user:<id>")
      .option("--action <action>", "an action, or a family with a trailing dot (memory.)")
      .option("--chat <chat>")
      .option("--since <time>", "epoch ms or ISO date")
      .option("--until <time>", "epoch ms or ISO date")
      .option("--before <id>", "entries older than this id (paging)", integer(1, Number.MAX_SAFE_INTEGER))
      .option("--limit <n>", "1–500", integer(1, 500), 100),
  ).action(async (o) => {
    const q = query({
      actor: o.actor,
      action: o.action,
      chat: o.chat,
      since: o.since,
      until: o.until,
      before: o.before,
      limit: o.limit,
    });
    output(o, await client(o).call("GET", `/audit${q}`), renderAudit);
  });
}
