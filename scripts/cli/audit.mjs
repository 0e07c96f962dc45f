// `npm run akasha -- audit [--actor A] [--action X] [--chat C] [--since T] [--until T] [--limit N]`.
import { command as define, integer, withApiOptions } from "../lib/args.mjs";
import { client, outputTimed, query } from "./admin-api.mjs";
import { clip, table, time } from "./format.mjs";
import { t } from "./i18n/lang.mjs";

/** `key=value …`; an `…At` epoch is shown on the one clock, like the dashboard's detail. */
export const detail = (d, timeZone) =>
  Object.entries(d ?? {})
    .map(([k, v]) => {
      if (/At$/.test(k) && typeof v === "number" && Number.isFinite(v)) return `${k}=${time(v, timeZone)}`;
      return `${k}=${typeof v === "object" ? JSON.stringify(v) : v}`;
    })
    .join(" ");

/** The audit log as a table, times in `timeZone` with their offset. */
export const renderAudit = ({ entries }, timeZone) =>
  table(
    entries,
    [
      { title: t("audit.col.time"), value: (e) => time(e.at, timeZone) },
      { title: t("audit.col.actor"), value: (e) => clip(e.actor ?? "—", 24) },
      { title: t("audit.col.action"), value: (e) => e.action },
      { title: t("audit.col.chat"), value: (e) => clip(e.chatKey ?? "—", 28) },
      { title: t("audit.col.detail"), value: (e) => clip(detail(e.detail, timeZone), 70) },
    ],
    { empty: t("audit.none") },
  );

export function command(name = "audit") {
  return withApiOptions(
    define(name)
      .description(t("audit.desc"))
      .option("--actor <actor>", t("audit.opt.actor"))
      .option("--action <action>", t("audit.opt.action"))
      .option("--chat <chat>", t("audit.opt.chat"))
      .option("--since <time>", t("audit.opt.time"))
      .option("--until <time>", t("audit.opt.time"))
      .option("--before <id>", t("audit.opt.before"), integer(1, Number.MAX_SAFE_INTEGER))
      .option("--limit <n>", t("audit.opt.limit"), integer(1, 500), 100),
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
    const api = client(o);
    await outputTimed(api, o, await api.call("GET", `/audit${q}`), renderAudit);
  });
}
