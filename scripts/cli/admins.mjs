// `npm run akasha -- admins list|add|remove|claim`: who may run admin commands
// (identity.admins). `claim` prints a one-time code for the first admin, who sends
// `/claim <code>` to the bot in a private chat (docs/identity.md#the-first-admin). Every
// change is validated and audited by the Worker (PUT-like, through its one settings write path).
import { CliError, command as define, withApiOptions } from "../lib/args.mjs";
import { client, outputTimed } from "./admin-api.mjs";
import { output, time } from "./format.mjs";
import { t } from "./i18n/lang.mjs";

export function renderAdmins(a) {
  if (a.admins.length === 0) return t("admins.none");
  const lines = a.admins.map((x) => `  ${x}${a.fromConfig.includes(x) ? t("admins.fromConfig") : ""}`);
  const off = a.identityEnabled ? "" : t("admins.identityOff");
  return `${t("admins.list", { count: a.admins.length, lines: lines.join("\n") })}${off}`;
}

/** What an add or remove did, as the Worker reported it; `list` is "admins" or "follow". */
export function renderListChange(r, list, entry) {
  const what = t(`${list}.what`);
  const groups = list === "follow";
  if (!r.changed)
    return r.after.includes("*") && groups
      ? t("list.starUnchanged")
      : t(r.after.includes(entry) ? "list.alreadyIn" : "list.notIn", { entry, what });
  const verb = t(r.after.includes(entry) ? "list.added" : "list.removed", { entry, what });
  const extra = r.enabledIdentity ? t("list.identityOn") : "";
  const star = groups && !r.after.includes(entry) && r.after.includes("*") ? t("list.starStill") : "";
  return `${verb}${extra}${star}${t("list.count", { count: r.after.length })}`;
}

export function renderClaim(c, timeZone) {
  return [
    t("claim.code", { until: time(c.expiresAt, timeZone) }),
    `  ${c.code}`,
    t("claim.send", { code: c.code }),
    t("claim.notInGroup"),
  ].join("\n");
}

const listOp = (op, account, o) => {
  const api = client(o);
  return api
    .call(op === "add" ? "POST" : "DELETE", "/admins", { account })
    .then((r) => output(o, r, (x) => renderListChange(x, "admins", account)));
};

export function command(name = "admins") {
  const root = define(name).description(t("summary.admins"));
  root.addCommand(
    withApiOptions(define("list").description(t("admins.desc.list"))).action(async (o) =>
      output(o, await client(o).call("GET", "/admins"), renderAdmins),
    ),
  );
  root.addCommand(
    withApiOptions(
      define("add").description(t("admins.desc.add")).argument("<account>", t("admins.arg.account")),
    ).action((account, o) => listOp("add", account, o)),
  );
  root.addCommand(
    withApiOptions(
      define("remove")
        .description(t("admins.desc.remove"))
        .argument("<account>", t("admins.arg.accountShort")),
    ).action((account, o) => listOp("remove", account, o)),
  );
  root.addCommand(
    withApiOptions(define("claim").description(t("admins.desc.claim"))).action(async (o) => {
      const api = client(o);
      const r = await api.request("POST", "/admins/claim");
      // The claim route answers 409 for one case only, an admin already declared: said in full
      // in the chosen language, without the Worker's English reason.
      if (r.status === 409) throw new CliError(t("claim.already"), 1);
      if (!r.ok) throw new CliError(`HTTP ${r.status}: ${r.json.reason ?? r.json.error ?? ""}`, 1);
      await outputTimed(api, o, r.json, renderClaim);
    }),
  );
  return root;
}
