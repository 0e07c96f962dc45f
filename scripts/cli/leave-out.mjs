// `npm run akasha -- leave-out list|add|remove`: the people never recorded (privacy.doNotRecord).
// Their messages are answered when they address the bot, but never written to the log, the
// dream journal or a summary; `add --forget` also deletes what was already kept of them.
import { command as define, withApiOptions } from "../lib/args.mjs";
import { client } from "./admin-api.mjs";
import { output } from "./format.mjs";
import { t } from "./i18n/lang.mjs";

export function renderLeftOut({ accounts, fromConfig }) {
  if (accounts.length === 0) return t("leaveOut.empty");
  const mark = (a) => (fromConfig.includes(a) ? `  ${a}${t("admins.fromConfig")}` : `  ${a}`);
  return t("leaveOut.list", { count: accounts.length, lines: accounts.map(mark).join("\n") });
}

export function renderLeaveOut(r, op) {
  const lines = [];
  const account = { account: r.account };
  if (!r.changed) lines.push(t(op === "add" ? "leaveOut.alreadyIn" : "leaveOut.notIn", account));
  else lines.push(t(op === "add" ? "leaveOut.added" : "leaveOut.removed", account));
  const f = r.forgotten;
  if (f?.notDone?.length > 0)
    lines.push(t("leaveOut.notDone", { count: f.notDone.length, chats: f.notDone.join("、") }));
  else if (f) {
    const { messages, memory, candidates, observations } = f;
    lines.push(t("leaveOut.forgot", { messages, memory, candidates, observations }));
    if (f.linkedPerson) lines.push(t("leaveOut.linked", { person: f.linkedPerson }));
  } else if (op === "add" && r.changed) lines.push(t("leaveOut.kept"));
  return lines.join("\n");
}

export function command(name = "leave-out") {
  const root = define(name).description(t("leaveOut.desc"));
  root.addCommand(
    withApiOptions(define("list").description(t("leaveOut.desc.list"))).action(async (o) =>
      output(o, await client(o).call("GET", "/leave-out"), renderLeftOut),
    ),
  );
  root.addCommand(
    withApiOptions(
      define("add")
        .description(t("leaveOut.desc.add"))
        .argument("<account>", t("leaveOut.arg.account"))
        .option("--forget", t("leaveOut.opt.forget")),
    ).action(async (account, o) =>
      output(
        o,
        await client(o).call("POST", "/leave-out", { account, ...(o.forget ? { forget: true } : {}) }),
        (r) => renderLeaveOut(r, "add"),
      ),
    ),
  );
  root.addCommand(
    withApiOptions(
      define("remove")
        .description(t("leaveOut.desc.remove"))
        .argument("<account>", t("leaveOut.arg.accountShort")),
    ).action(async (account, o) =>
      output(o, await client(o).call("DELETE", "/leave-out", { account }), (r) =>
        renderLeaveOut(r, "remove"),
      ),
    ),
  );
  return root;
}
