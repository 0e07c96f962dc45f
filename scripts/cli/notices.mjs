// `npm run akasha -- notices [--all]` and `notices ack <id>`: the notices to the owner
// (docs/decisions/0280-notices-to-the-owner.md) through the admin API, as the dashboard's
// overview shows them — open ones, newest first — and the acknowledgement of one, audited
// `notice.ack` with the acting admin like the dashboard's button. A notice's words are stored in
// Chinese; in English each is told again from its kind and subject (its facts).
import { CliError, command as define, withApiOptions } from "../lib/args.mjs";
import { client, outputTimed } from "./admin-api.mjs";
import { table, time } from "./format.mjs";
import { lang, t } from "./i18n/lang.mjs";

const ID = /^[1-9]\d{0,11}$/;

/** The notice in English from its facts: `kind` and `subject` (owner-notice.ts noticeSubject). */
function englishText(n) {
  const parts = String(n.subject).split(":");
  switch (n.kind) {
    case "spend-cap":
      return parts[0] === "global"
        ? t("notices.text.spendGlobal", { day: parts[1] ?? "?" })
        : t("notices.text.spendChat", { chat: parts.slice(1, -1).join(":"), day: parts.at(-1) });
    case "backfill-failed":
      return n.subject === "run"
        ? t("notices.text.backfillRun", { count: n.count })
        : t("notices.text.backfillChat", { chat: n.subject, count: n.count });
    case "model-errors":
      return t("notices.text.modelErrors", {
        provider: parts[0],
        errorKind: parts[1] ?? "?",
        count: n.count,
      });
    default:
      return n.text;
  }
}

const textOf = (n) => (lang() === "en" ? englishText(n) : n.text);

export const renderNotices = ({ notices }, timeZone) =>
  table(
    notices,
    [
      { title: t("notices.col.id"), value: (n) => `#${n.id}` },
      { title: t("notices.col.count"), value: (n) => n.count },
      { title: t("notices.col.lastSeen"), value: (n) => time(n.lastSeen, timeZone) },
      {
        title: t("notices.col.state"),
        value: (n) =>
          n.acknowledgedAt ? t("notices.acked") : n.notifiedAt ? t("notices.told") : t("notices.waiting"),
      },
      { title: t("notices.col.text"), value: textOf },
    ],
    { empty: t("notices.none") },
  );

export function command(name = "notices") {
  const root = withApiOptions(
    define(name).description(t("notices.desc")).option("--all", t("notices.opt.all")),
  ).action(async (o) => {
    const api = client(o);
    await outputTimed(api, o, await api.call("GET", `/notices${o.all ? "?all=1" : ""}`), renderNotices);
  });
  root.addCommand(
    withApiOptions(
      define("ack").description(t("notices.desc.ack")).argument("<id>", t("notices.arg.id")),
    ).action(async (raw, o) => {
      const id = String(raw).replace(/^#/, "");
      if (!ID.test(id)) throw new CliError(t("notices.badId", { id: raw }));
      const api = client(o);
      const r = await api.call("POST", `/notices/${id}/ack`, undefined, {
        "not-found": () => t("notices.notFound", { id }),
      });
      await outputTimed(api, o, r, () => t("notices.ackDone", { id }));
    }),
  );
  return root;
}
