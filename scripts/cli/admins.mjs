// `npm run akasha -- admins list|add|remove|claim`: who may run admin commands
// (identity.admins). `claim` prints a one-time code for the first admin, who sends
// `/claim <code>` to the bot in a private chat (docs/identity.md#the-first-admin). Every
// change is validated and audited by the Worker (PUT-like, through its one settings write path).
import { CliError, command as define, withApiOptions } from "../lib/args.mjs";
import { client } from "./admin-api.mjs";
import { output, time } from "./format.mjs";

export function renderAdmins(a) {
  if (a.admins.length === 0)
    return "还没有管理员：所有管理命令都会被拒绝。\n运行 npm run akasha -- admins claim 生成一次性口令，再私聊机器人发送 /claim <口令>。";
  const lines = a.admins.map((x) => `  ${x}${a.fromConfig.includes(x) ? "（来自 AKASHA_CONFIG）" : ""}`);
  const off = a.identityEnabled
    ? ""
    : "\n注意：身份系统未启用（identity.enabled = false），管理员命令仍会被拒绝。";
  return `管理员（${a.admins.length}）：\n${lines.join("\n")}${off}`;
}

/** What an add or remove did, as the Worker reported it. */
export function renderListChange(r, what, entry) {
  if (!r.changed)
    return r.after.includes("*") && what === "群"
      ? `follow.groups 含 *：所有群都已关注，什么都没有改变。`
      : `${entry} ${r.after.includes(entry) ? "已经在" : "本来就不在"}${what}列表中，什么都没有改变。`;
  const verb = r.after.includes(entry) ? "已添加" : "已移除";
  const extra = r.enabledIdentity ? "；身份系统已开启（identity.enabled = true）" : "";
  const star =
    what === "群" && !r.after.includes(entry) && r.after.includes("*") ? "；但 * 仍关注所有群" : "";
  return `${verb}${what} ${entry}${extra}${star}。现在共 ${r.after.length} 个，约 10 秒内生效。`;
}

export function renderClaim(c) {
  return [
    `一次性口令（${time(c.expiresAt)} 前有效，只能用一次）：`,
    `  ${c.code}`,
    `在 QQ 里私聊机器人，发送：/claim ${c.code}`,
    "不要发到群里：在群里发出的口令会立即作废。",
  ].join("\n");
}

const listOp = (op, account, o) => {
  const api = client(o);
  return api
    .call(op === "add" ? "POST" : "DELETE", "/admins", { account })
    .then((r) => output(o, r, (x) => renderListChange(x, "管理员", account)));
};

export function command(name = "admins") {
  const root = define(name).description("管理员：list、add、remove、claim（首位管理员的一次性口令）");
  root.addCommand(
    withApiOptions(define("list").description("列出管理员")).action(async (o) =>
      output(o, await client(o).call("GET", "/admins"), renderAdmins),
    ),
  );
  root.addCommand(
    withApiOptions(
      define("add").argument("<account>", "账号，如 qq:user:<openid>（在聊天里发 /whoami 可查看）"),
    ).action((account, o) => listOp("add", account, o)),
  );
  root.addCommand(
    withApiOptions(define("remove").description("移除管理员").argument("<account>", "账号")).action(
      (account, o) => listOp("remove", account, o),
    ),
  );
  root.addCommand(
    withApiOptions(
      define("claim").description("还没有管理员时：生成首位管理员的一次性口令（10 分钟有效）"),
    ).action(async (o) => {
      const r = await client(o).request("POST", "/admins/claim");
      if (r.status === 409)
        throw new CliError(`已经有管理员了，口令认领只用于第一位管理员：${r.json.reason ?? ""}`, 1);
      if (!r.ok) throw new CliError(`HTTP ${r.status}: ${r.json.reason ?? r.json.error ?? ""}`, 1);
      output(o, r.json, renderClaim);
    }),
  );
  return root;
}
