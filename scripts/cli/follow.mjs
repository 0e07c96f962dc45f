// `npm run akasha -- follow list|add|remove`: the groups whose log is kept (follow.groups):
// history, daily summaries and dreaming exist only for them; private chats are always kept.
import { command as define, withApiOptions } from "../lib/args.mjs";
import { client } from "./admin-api.mjs";
import { renderListChange } from "./admins.mjs";
import { output } from "./format.mjs";

export function renderFollows({ groups }) {
  if (groups.length === 0)
    return "没有关注任何群：群聊记录、总结和记忆都不会保存。\n在群里 @机器人 发 /whoami 查看群标识，再运行 npm run akasha -- follow add <群标识>。";
  if (groups.includes("*")) return "关注所有群（*）。";
  return `关注的群（${groups.length}）：\n${groups.map((g) => `  ${g}`).join("\n")}`;
}

const op = (method, chat, o) =>
  client(o)
    .call(method, "/follow", { chat })
    .then((r) => output(o, r, (x) => renderListChange(x, "群", chat)));

export function command(name = "follow") {
  const root = define(name).description("关注的群（保存聊天记录）：list、add、remove");
  root.addCommand(
    withApiOptions(define("list").description("列出关注的群")).action(async (o) =>
      output(o, await client(o).call("GET", "/follow"), renderFollows),
    ),
  );
  root.addCommand(
    withApiOptions(
      define("add").argument("<chat>", "群的聊天标识，如 qq:group:<id>，或 * 关注所有群"),
    ).action((chat, o) => op("POST", chat, o)),
  );
  root.addCommand(
    withApiOptions(define("remove").description("取消关注一个群").argument("<chat>", "群的聊天标识")).action(
      (chat, o) => op("DELETE", chat, o),
    ),
  );
  return root;
}
