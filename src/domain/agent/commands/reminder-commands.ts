/**
 * "提醒我明天八点开会" / "remind me …" sets a reminder in this chat; `/reminders` lists this
 * chat's open reminders and `/reminders cancel <id>` (`取消`) cancels one. They answer before
 * and without the model, so they work the same offline (docs/memory.md#reminders).
 */
import type { AuditOutcome } from "../../kernel/audit";
import { formatLocalTime } from "../../kernel/local-time";
import { maskSensitiveData } from "../../privacy/credentials";
import { deliveryFor, type Reminder } from "../../reminders/reminder";
import { readReminderRequest } from "../../reminders/reminder-request";
import type { Command } from "../command";
import type { Intent } from "../intent";
import type { TurnContext } from "../turn-context";
import type { TurnServices } from "../turn-services";

const UNAVAILABLE = "这里不能设置提醒。";
/** QQ official bots speak only in reply to a message, within its window: say so up front. */
export const QQ_DELIVERY_NOTE =
  "注意：QQ 官方机器人不能主动发消息，到时间后你下次在这里和我说话时我会提醒你。";
const CANCEL_USAGE = "用法：/reminders cancel <编号>（编号见 /reminders 列表，例如 /reminders cancel 3）";

async function setReminder(text: string, ctx: TurnContext, services: TurnServices): Promise<string> {
  const book = services.reminders;
  if (!book) return UNAVAILABLE;
  const zone = ctx.settings.calendar.timeZone;
  const request = readReminderRequest(text, { now: ctx.now, timeZone: zone });
  if (request === null || request.kind === "no-time")
    return "要在什么时候提醒你？请带上时间再说一次，例如：提醒我明天早上8点开会、10分钟后提醒我喝水。";
  if (request.kind === "past")
    return `${formatLocalTime(request.at, zone)} 已经过去了，没有设置提醒。请换一个将来的时间。`;
  if (request.kind === "too-far") return "最多只能提前一年设置提醒，没有设置。";
  const delivery = deliveryFor(ctx.event.transport);
  const added = await book.add({
    eventId: ctx.event.eventId,
    setBy: ctx.sender?.account ?? null,
    setByName: ctx.sender?.displayName ?? null,
    // Credentials are never stored: the words are masked before they reach storage.
    text: maskSensitiveData(request.what),
    dueAt: request.at,
    now: ctx.now,
    delivery,
    chat: ctx.chat,
    transport: ctx.event.transport,
  });
  if (!added.ok) return `本聊天已有 ${added.error.limit} 条待发的提醒，请先用 /reminders 取消一些。`;
  const r = added.value;
  services.audit.record({
    action: "reminder.set",
    actor: ctx.sender?.account ?? null,
    target: `#${r.id}`,
    outcome: "ok",
    detail: { dueAt: r.dueAt, delivery },
  });
  const what = r.text === "" ? "" : `：${r.text}`;
  const lines = [
    `好的，${formatLocalTime(r.dueAt, zone)} 提醒你${what}（编号 #${r.id}，/reminders 查看或取消）`,
  ];
  if (delivery === "next-message") lines.push(QQ_DELIVERY_NOTE);
  return lines.join("\n");
}

export const reminderIntent: Intent = {
  name: "reminder",
  match: (text) => (readReminderRequest(text, { now: Date.now(), timeZone: "UTC" }) === null ? null : text),
  run: (args, ctx, services) => setReminder(args, ctx, services),
};

function listLine(r: Reminder, zone: string): string {
  const due = formatLocalTime(r.dueAt, zone);
  const by = r.setByName ? `（${r.setByName} 设置）` : "";
  return `#${r.id} ${due} ${r.text === "" ? "（时间到了）" : r.text}${by}`;
}

async function cancel(arg: string, ctx: TurnContext, services: TurnServices): Promise<string> {
  const book = services.reminders;
  if (!book) return UNAVAILABLE;
  const m = /^#?(\d{1,9})$/.exec(arg.trim());
  const audit = (outcome: AuditOutcome, cause: string | null) =>
    services.audit.record({
      action: "reminder.cancel",
      actor: ctx.sender?.account ?? null,
      target: arg.trim().slice(0, 20) || null,
      outcome,
      detail: { cause },
    });
  if (!m) {
    audit("invalid", "bad id");
    return `“${arg.trim().slice(0, 20)}”不是提醒编号。${CANCEL_USAGE}`;
  }
  const done = await book.cancel(Number(m[1]), {
    account: ctx.sender?.account ?? null,
    isAdmin: ctx.senderIsAdmin === true,
  });
  if (!done.ok) {
    audit("refused", done.error.kind);
    return done.error.kind === "not-yours"
      ? `提醒 #${m[1]} 不是你设置的，只有设置它的人或管理员可以取消。什么都没有改。`
      : `本聊天没有待发的提醒 #${m[1]}，什么都没有改。发 /reminders 查看列表。`;
  }
  audit("ok", null);
  return `已取消提醒 #${done.value.id}：${done.value.text || "（时间到了）"}`;
}

export const remindersCommand: Command = {
  name: "reminders",
  usage: "/reminders [cancel <编号>]",
  summary: "列出本聊天待发的提醒；cancel（或 取消）<编号> 取消一条。设置提醒直接说“提醒我明天8点开会”",
  async run(args, ctx, services) {
    const sub = /^(?:cancel|取消|删除|delete|rm)\s*([\s\S]*)$/i.exec(args.trim());
    if (sub) return cancel(sub[1] ?? "", ctx, services);
    if (args.trim() !== "") return CANCEL_USAGE;
    const book = services.reminders;
    if (!book) return UNAVAILABLE;
    const zone = ctx.settings.calendar.timeZone;
    const open = await book.open();
    if (open.length === 0) return "本聊天没有待发的提醒。说“提醒我明天8点开会”就能设置一条。";
    const note = deliveryFor(ctx.event.transport) === "next-message" ? [QQ_DELIVERY_NOTE] : [];
    return [`本聊天待发的提醒（${open.length} 条）：`, ...open.map((r) => listLine(r, zone)), ...note].join(
      "\n",
    );
  },
};
