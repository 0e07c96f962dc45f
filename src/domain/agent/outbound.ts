/**
 * The outbound port: sends one reply into a chat. Adapters: the QQ OpenAPI client, the
 * OneBot HTTP API client, and a recorder used in local mode and tests.
 */
import type { ChatKey, TargetType } from "../chat/chat-address";
import type { ReplyHandle } from "../inbound/inbound-event";
import type { Result } from "../kernel/result";

export type OutboundTarget = {
  readonly key: ChatKey;
  readonly channel: string;
  readonly targetType: TargetType;
  readonly targetId: string;
};

export type OutboundMessage = {
  readonly chat: OutboundTarget;
  readonly text: string;
  /** Passive-reply handle of the inbound event being answered. */
  readonly reply: ReplyHandle;
  /**
   * 1-based sequence of this reply for its handle (QQ `msg_seq`). A retried send reuses the
   * same sequence, so the platform's dedupe turns a double send into a no-op.
   */
  readonly seq: number;
};

export type Delivered = {
  /** Platform id of the sent message, when the platform returns one. */
  readonly messageId: string | null;
  readonly ts: number;
  /** True when the platform said it already had this (msg_id, msg_seq): an earlier try landed. */
  readonly duplicate: boolean;
};

export type SendError = {
  readonly kind: "rejected" | "unavailable" | "rate-limited" | "expired" | "config";
  readonly message: string;
  readonly code?: number;
  readonly status?: number;
  /** Worth trying again later (network, 5xx, rate limit); false for permanent refusals. */
  readonly retryable: boolean;
};

export interface Outbound {
  send(message: OutboundMessage): Promise<Result<Delivered, SendError>>;
}
