/**
 * A notice to the owner handed to this chat's object (ChatSession.deliverNotice). It becomes a
 * reminder of kind `notice`, due now, so it rides the reminders' delivery and their at-most-once
 * rules: OneBot pushes it from the alarm; on QQ official, which only answers, it is said with the
 * reply to the owner's next message here. Taken only by a one-to-one private chat the object
 * has seen (it must know where it speaks) and whose key is the one the sender meant: a group's
 * object refuses, whatever it is handed.
 */
import type { ChatKey } from "../domain/chat/chat-address";
import type { Transport } from "../domain/inbound/inbound-event";
import type { NoticeHandOver } from "../domain/notices/notice-book";
import { deliveryFor } from "../domain/reminders/reminder";
import type { ChatInfo } from "./dream-runner";
import type { Reminders } from "./reminders";

/** Said with a notice on QQ official, so the owner knows why it comes now and not then. */
export const QQ_NOTICE_LATE = "（QQ 官方机器人不能主动发消息，这条通知在你这次发消息时一并送达。）";

const TRANSPORTS: Readonly<Record<string, Transport>> = { qq: "qq", onebot: "onebot" };

export async function acceptNotice(
  deps: { reminders: Reminders; info: ChatInfo | null | undefined; now: number },
  chat: ChatKey,
  notice: { key: string; text: string },
): Promise<NoticeHandOver> {
  const info = deps.info;
  if (!info) return "unknown-chat";
  const transport = TRANSPORTS[info.channel];
  if (info.key !== chat || info.targetType !== "private" || !transport) return "refused";
  const delivery = deliveryFor(transport);
  const added = await deps.reminders.add({
    eventId: notice.key,
    setBy: null,
    setByName: null,
    text: delivery === "push" ? notice.text : `${notice.text}\n${QQ_NOTICE_LATE}`,
    dueAt: deps.now,
    now: deps.now,
    delivery,
    chat: { key: info.key as ChatKey, channel: info.channel, targetType: "private", targetId: info.targetId },
    transport,
    kind: "notice",
  });
  return added.ok ? delivery : "refused";
}
