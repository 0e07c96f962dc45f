// `npm run akasha -- follow list|add|remove`: the groups whose log is kept (follow.groups):
// history, daily summaries and dreaming exist only for them; private chats are always kept.
import { command as define, withApiOptions } from "../lib/args.mjs";
import { client } from "./admin-api.mjs";
import { renderListChange } from "./admins.mjs";
import { output } from "./format.mjs";
import { t } from "./i18n/lang.mjs";

export function renderFollows({ groups }) {
  if (groups.length === 0) return t("follow.none");
  if (groups.includes("*")) return t("follow.all");
  return t("follow.list", { count: groups.length, lines: groups.map((g) => `  ${g}`).join("\n") });
}

const op = (method, chat, o) =>
  client(o)
    .call(method, "/follow", { chat })
    .then((r) => output(o, r, (x) => renderListChange(x, "follow", chat)));

export function command(name = "follow") {
  const root = define(name).description(t("summary.follow"));
  root.addCommand(
    withApiOptions(define("list").description(t("follow.desc.list"))).action(async (o) =>
      output(o, await client(o).call("GET", "/follow"), renderFollows),
    ),
  );
  root.addCommand(
    withApiOptions(
      define("add").description(t("follow.desc.add")).argument("<chat>", t("follow.arg.chat")),
    ).action((chat, o) => op("POST", chat, o)),
  );
  root.addCommand(
    withApiOptions(
      define("remove").description(t("follow.desc.remove")).argument("<chat>", t("follow.arg.chatShort")),
    ).action((chat, o) => op("DELETE", chat, o)),
  );
  return root;
}
