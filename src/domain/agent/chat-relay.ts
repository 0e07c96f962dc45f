/**
 * Cross-chat messages (`send_message`): one text into another chat, through the outbound
 * port. What the platforms allow decides what this can do:
 *
 *   onebot:group / onebot:private   active `send_msg`: works
 *   qq:channel / qq:dm              active guild messages: work within QQ's quotas
 *                                   (about 20 per channel and 2 per user per day)
 *   qq:group / qq:private           refused here: QQ stopped active messages to groups and
 *                                   C2C on 2025-04-21; a message there can only be a passive
 *                                   reply to someone who just addressed the bot in that chat
 *
 * A message to the current chat is not relayed (it belongs in the turn's own reply).
 */
import type { ChatKey, TargetType } from "../chat/chat-address";
import { parseChatKey } from "../chat/chat-address";
import type { MessageRecord } from "../history/message-record";
import { outboundRecord } from "../history/message-record";
import type { Transport } from "../inbound/inbound-event";
import type { Clock } from "../kernel/clock";
import type { Logger } from "../kernel/logger";
import { err, ok, type Result } from "../kernel/result";
import { maskSensitiveData } from "../privacy/credentials";
import type { Outbound } from "./outbound";

export type RelayRequest = { readonly from: ChatKey; readonly to: ChatKey; readonly text: string };

export type RelayError = {
  /** `unsupported`: the platform cannot deliver such a message at all. */
  readonly kind: "unsupported" | "rejected" | "unavailable" | "rate-limited" | "expired" | "config";
  readonly message: string;
};

export interface ChatRelay {
  /** Sends once (no retry: a cross-chat send is an admin's one-off action). */
  send(request: RelayRequest): Promise<Result<{ messageId: string | null }, RelayError>>;
}

/** Whether a chat can receive a message nobody there asked for, and over which transport. */
export function relayRoute(
  to: ChatKey,
): Result<{ transport: Transport; targetType: TargetType; channel: string; targetId: string }, RelayError> {
  const address = parseChatKey(to);
  if (!address.ok) return err({ kind: "unsupported", message: `${to} 不是聊天地址` });
  const { channel, targetType, targetId } = address.value;
  if (channel === "onebot" && (targetType === "group" || targetType === "private")) {
    return ok({ transport: "onebot", targetType, channel, targetId });
  }
  if (channel === "qq" && (targetType === "channel" || targetType === "dm")) {
    return ok({ transport: "qq", targetType, channel, targetId });
  }
  if (channel === "qq" && (targetType === "group" || targetType === "private")) {
    return err({
      kind: "unsupported",
      message:
        "QQ 官方机器人自 2025-04-21 起不能向 QQ 群和 QQ 私聊主动发消息，只能被动回复在该聊天里 @ 机器人的消息；无法跨聊天发送。",
    });
  }
  return err({ kind: "unsupported", message: `不支持向 ${channel}:${targetType} 聊天发送消息` });
}

export type OutboundChatRelayDeps = {
  readonly outbound: (transport: Transport) => Outbound;
  readonly clock: Clock;
  readonly botName: string;
  readonly logger: Logger;
  /** Writes the sent message into the target chat's log (when that chat is stored). */
  readonly log: (record: MessageRecord) => Promise<void>;
};

/** ChatRelay over the outbound port: active sends only, per `relayRoute`. */
export class OutboundChatRelay implements ChatRelay {
  readonly #deps: OutboundChatRelayDeps;
  constructor(deps: OutboundChatRelayDeps) {
    this.#deps = deps;
  }

  async send(request: RelayRequest): Promise<Result<{ messageId: string | null }, RelayError>> {
    if (request.to === request.from) {
      return err({ kind: "unsupported", message: "发往当前聊天的内容直接写在回复里即可" });
    }
    const route = relayRoute(request.to);
    if (!route.ok) return route;
    const { transport, ...chat } = route.value;
    // What the bot sends to another chat is masked like its replies here.
    const text = maskSensitiveData(request.text);
    const sent = await this.#deps.outbound(transport).send({
      chat: { key: request.to, ...chat },
      text,
      reply: { kind: "none" },
      seq: 1,
    });
    if (!sent.ok) return err({ kind: sent.error.kind, message: sent.error.message });
    const messageId = sent.value.messageId ?? `relay:${request.from}:${this.#deps.clock.now()}`;
    const record = outboundRecord({
      transport,
      chatKey: request.to,
      messageId,
      ts: sent.value.ts,
      text,
      botName: this.#deps.botName,
    });
    try {
      await this.#deps.log(record);
    } catch (e) {
      // The message went out; a missing log row must not make the admin send it again.
      this.#deps.logger.warn("relayed message not logged", { chat: request.to, error: String(e) });
    }
    return ok({ messageId: sent.value.messageId });
  }
}
