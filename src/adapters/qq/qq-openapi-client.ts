/**
 * The Outbound port on the QQ OpenAPI (docs/qq-protocol.md#qq-sending-replies): passive text replies to groups, C2C,
 * guild channels and guild DMs, authorised with a cached access token.
 */
import type { Delivered, Outbound, OutboundMessage, SendError } from "../../domain/agent/outbound";
import type { ReplyHandle } from "../../domain/inbound/inbound-event";
import { type Logger, silentLogger } from "../../domain/kernel/logger";
import { err, ok, type Result } from "../../domain/kernel/result";
import { errorName, QqAccessToken } from "./qq-access-token";
import {
  isDuplicate,
  isFailureCode,
  isPendingAudit,
  isTokenRejection,
  readQqApiError,
  toSendError,
} from "./qq-api-error";
import { qqTimestampMs } from "./qq-timestamp";

/** The docs warn that a shorter timeout can report failure for a message that was sent. */
const MIN_TIMEOUT_MS = 5_000;
const DEFAULT_TIMEOUT_MS = 10_000;

export type QqOpenApiClientOptions = {
  readonly appId: string;
  readonly secret: string;
  /** `https://api.sgroup.qq.com`, the sandbox, or a fixed-IP egress proxy in front of either. */
  readonly apiBase: string;
  readonly tokenUrl: string;
  readonly fetch: typeof fetch;
  readonly clock?: () => number;
  readonly logger?: Logger;
  /** Per HTTP request; at least 5 s. */
  readonly timeoutMs?: number;
};

type Call = { readonly path: string; readonly body: Record<string, unknown> };
type Reply = { readonly status: number; readonly body: unknown; readonly traceId: string | null };

export class QqOpenApiClient implements Outbound {
  readonly #apiBase: string;
  readonly #fetch: typeof fetch;
  readonly #clock: () => number;
  readonly #logger: Logger;
  readonly #timeoutMs: number;
  readonly #token: QqAccessToken;

  constructor(options: QqOpenApiClientOptions) {
    this.#apiBase = options.apiBase.replace(/\/+$/, "");
    this.#fetch = options.fetch;
    this.#clock = options.clock ?? Date.now;
    this.#logger = options.logger ?? silentLogger;
    this.#timeoutMs = Math.max(MIN_TIMEOUT_MS, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    this.#token = new QqAccessToken({
      appId: options.appId,
      secret: options.secret,
      tokenUrl: options.tokenUrl,
      fetch: options.fetch,
      clock: this.#clock,
      logger: this.#logger,
      timeoutMs: this.#timeoutMs,
    });
  }

  /**
   * Sends `message.text` as a passive reply (`msg_id` or `event_id` from `message.reply`).
   * Group and C2C bodies carry `msg_type` 0 and `msg_seq` = `message.seq`; guild bodies have
   * neither. A token the API rejects is refetched and the send retried once.
   *
   * Outcomes: the platform's dedupe error (40054005) is success with `duplicate: true`, since
   * only an earlier attempt with the same seq can cause it; a guild message held for audit is
   * success without an id. An expired reply handle is `expired`, a missing IP whitelist entry
   * `config`, rate limits, 5xx, timeouts and network errors are retryable.
   */
  async send(message: OutboundMessage): Promise<Result<Delivered, SendError>> {
    const call = toCall(message);
    if (!call.ok) return call;
    const fields = { chatKey: message.chat.key, seq: message.seq, reply: message.reply.kind };

    let reply = await this.#authorisedPost(call.value);
    if (reply.ok && reply.value.rejectedToken !== null) {
      this.#token.invalidate(reply.value.rejectedToken);
      this.#logger.info("qq.send.token_rejected", fields);
      reply = await this.#authorisedPost(call.value);
      // Refused again: forget this one too, but do not loop; the outcome reports it.
      if (reply.ok && reply.value.rejectedToken !== null) this.#token.invalidate(reply.value.rejectedToken);
    }
    if (!reply.ok) {
      this.#logger.warn("qq.send.failed", { ...fields, kind: reply.error.kind });
      return reply;
    }
    return this.#outcome(reply.value.reply, fields);
  }

  #outcome(reply: Reply, fields: Record<string, string | number>): Result<Delivered, SendError> {
    const apiError = readQqApiError(reply.status, reply.body);
    const log = { ...fields, status: reply.status, code: apiError.code, traceId: reply.traceId };
    if (isDuplicate(apiError)) {
      this.#logger.info("qq.send.duplicate", log);
      return ok({ messageId: null, ts: this.#clock(), duplicate: true });
    }
    if (isPendingAudit(apiError)) {
      this.#logger.info("qq.send.pending_audit", log);
      return ok({ messageId: null, ts: this.#clock(), duplicate: false });
    }
    const succeeded = reply.status >= 200 && reply.status < 300 && !isFailureCode(apiError.code);
    if (!succeeded) {
      const error = toSendError(apiError);
      this.#logger.warn("qq.send.failed", { ...log, kind: error.kind });
      return err(error);
    }
    const sent = readSent(reply.body);
    this.#logger.info("qq.send.ok", log);
    return ok({ messageId: sent.id, ts: sent.ts ?? this.#clock(), duplicate: false });
  }

  /** One POST with the current token; `rejectedToken` is set when the API refused that token. */
  async #authorisedPost(
    call: Call,
  ): Promise<Result<{ reply: Reply; rejectedToken: string | null }, SendError>> {
    const token = await this.#token.get();
    if (!token.ok) return token;
    const reply = await this.#post(call, token.value);
    if (!reply.ok) return reply;
    const rejected = isTokenRejection(readQqApiError(reply.value.status, reply.value.body));
    return ok({ reply: reply.value, rejectedToken: rejected ? token.value : null });
  }

  async #post(call: Call, token: string): Promise<Result<Reply, SendError>> {
    const fetchFn = this.#fetch; // called unbound: workerd's fetch throws when `this` is another object
    try {
      const response = await fetchFn(`${this.#apiBase}${call.path}`, {
        method: "POST",
        headers: { Authorization: `QQBot ${token}`, "Content-Type": "application/json" },
        body: JSON.stringify(call.body),
        signal: AbortSignal.timeout(this.#timeoutMs),
      });
      const text = await response.text();
      return ok({
        status: response.status,
        body: parseJson(text),
        traceId: response.headers.get("x-tps-trace-id"),
      });
    } catch (error) {
      // A timed-out send may still have landed; the retry's same msg_seq makes that harmless.
      return err({
        kind: "unavailable",
        retryable: true,
        message: `QQ API request failed: ${errorName(error)}`,
      });
    }
  }
}

/** Path and JSON body for the chat's scene (docs/qq-protocol.md#qq-sending-replies). */
function toCall(message: OutboundMessage): Result<Call, SendError> {
  const { chat, text, reply, seq } = message;
  if (chat.channel !== "qq") return refuse(`chat ${chat.key} is not a QQ chat`);
  if (text.trim().length === 0) return refuse("message text is empty"); // the API answers 50006
  const id = encodeURIComponent(chat.targetId);
  const handle = replyFields(reply);
  switch (chat.targetType) {
    case "group":
      return ok({
        path: `/v2/groups/${id}/messages`,
        body: { msg_type: 0, content: text, ...handle, msg_seq: seq },
      });
    case "private":
      return ok({
        path: `/v2/users/${id}/messages`,
        body: { msg_type: 0, content: text, ...handle, msg_seq: seq },
      });
    case "channel":
      return ok({ path: `/channels/${id}/messages`, body: { content: text, ...handle } });
    case "dm":
      return ok({ path: `/dms/${id}/messages`, body: { content: text, ...handle } });
    default:
      return refuse(`chat ${chat.key} has no QQ target type`);
  }
}

/** Without a handle the message is active, which the platform refuses for most scenes since 2025-04. */
function replyFields(reply: ReplyHandle): Record<string, string> {
  if (reply.kind === "msg_id") return { msg_id: reply.id };
  if (reply.kind === "event_id") return { event_id: reply.id };
  return {};
}

function refuse(message: string): Result<never, SendError> {
  return err({ kind: "rejected", retryable: false, message });
}

/** `{id, timestamp}` of a sent message; both optional (guild replies return a full Message). */
function readSent(body: unknown): { id: string | null; ts: number | null } {
  const record = typeof body === "object" && body !== null ? (body as Record<string, unknown>) : {};
  const id = typeof record.id === "string" && record.id.length > 0 ? record.id : null;
  const raw = record.timestamp;
  const ts = typeof raw === "string" || typeof raw === "number" ? qqTimestampMs(raw) : null;
  return { id, ts };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
