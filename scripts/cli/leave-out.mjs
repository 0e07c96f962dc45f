// `npm run akasha -- leave-out list|add|remove`: the people never recorded (privacy.doNotRecord).
// Their messages are answered when they address the bot, but never written to the log, the
// dream journal or a summary; `add --forget` also deletes what was already kept of them.
import { command as define, withApiOptions } from "../lib/args.mjs";
import { client } from "./admin-api.mjs";
import { output } from "./format.mjs";

export function renderLeftOut({ accounts, fromConfig }) {
  if (accounts.length === 0) return "不记录名单为空：所有人的消息都按设置保存。";
  const mark = (a) => (fromConfig.includes(a) ? `  ${a}（来自 AKASHA_CONFIG）` : `  ${a}`);
  return `不记录名单（${accounts.length}）：\n${accounts.map(mark).join("\n")}`;
}

export function renderLeaveOut(r, op) {
  const lines = [];
  if (!r.changed)
    lines.push(`${r.account} ${op === "add" ? "已经在" : "本来就不在"}不记录名单中，名单没有改变。`);
  else if (op === "add")
    lines.push(
      `已把 ${r.account} 加入不记录名单：此后 ta 的消息照常回答，但不写入记录、不做记忆整理、不进总结（约 10 秒内所有会话生效）。`,
    );
  else lines.push(`已把 ${r.account} 移出不记录名单：此后 ta 的消息按设置保存。`);
  const f = r.forgotten;
  if (f) {
    lines.push(
      `已删除该账号的消息 ${f.messages} 条、个人记忆 ${f.memory} 条、记忆候选 ${f.candidates} 条、观察记录 ${f.observations} 条。`,
    );
    if (f.linkedPerson)
      lines.push(
        `该账号关联到人物 ${f.linkedPerson}：人物的共同记忆和其它账号未删除；要全部删除请运行 npm run akasha -- sessions forget-person ${f.linkedPerson} --yes。`,
      );
  } else if (op === "add" && r.changed) lines.push("已有的记录保留；要一并删除，请加 --forget。");
  return lines.join("\n");
}

export function command(name = "leave-out") {
  const root = define(name).description("不记录名单（某人的消息照常回答但不保存）：list、add、remove");
  root.addCommand(
    withApiOptions(define("list").description("列出不记录的账号")).action(async (o) =>
      output(o, await client(o).call("GET", "/leave-out"), renderLeftOut),
    ),
  );
  root.addCommand(
    withApiOptions(
      define("add")
        .description("把一个账号加入不记录名单")
        .argument(
          "<account>",
          "账号标识，如 qq:user:<openid> 或 onebot:user:<QQ号>（在 QQ 里发 /whoami 查看）",
        )
        .option("--forget", "同时删除该账号已保存的消息、个人记忆和观察记录（不可恢复）"),
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
      define("remove").description("把一个账号移出不记录名单").argument("<account>", "账号标识"),
    ).action(async (account, o) =>
      output(o, await client(o).call("DELETE", "/leave-out", { account }), (r) =>
        renderLeaveOut(r, "remove"),
      ),
    ),
  );
  return root;
}
