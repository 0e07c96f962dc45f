/**
 * The OneBot v11 HTTP API as the Outbound port: replies go out through `send_msg` on the
 * implementation's HTTP server (NapCat, go-cqhttp, Lagrange.OneBot).
 */
import type { Delivered, Outbound, OutboundMessage, SendError } from "../../domain/agent/outbound";
import { type Clock, systemClock } from "../../domain/kernel/clock";
import { err, ok, type Result } from "../../domain/kernel/result";
import { OneBotApiResponseSchema } from "./onebot-event.schema";

export type OneBotClientOptions = {
  /** Base URL of the OneBot HTTP API, e.g. `http://127.0.0.1:3000`. Empty means not configured. */
  readonly apiBase: string;
  /** Sent as `Authorization: Bearer …` when set (the implementation's `access_token`). */
  readonly accessToken?: string;
  readonly fetch: typeof fetch;
  /** Default 10 s. */
  readonly timeoutMs?: number;
  readonly clock?: Clock;
};

type Target = { message_type: "private"; user_id: number } | { message_type: "group"; group_id: number };
type Segment = { type: "reply"; data: { id: string } } | { type: "text"; data: { text: string } };

const DEFAULT_TIMEOUT_MS = 10_000;
/** Retcodes that say the access token was refused: a configuration problem, not this message's. */
const AUTH_RETCODES: ReadonlySet<number> = new Set([401, 403, 1401, 1403]);

export class OneBotClient implements Outbound {
  readonly #apiBase: string;
  readonly #accessToken: string | undefined;
  readonly #fetch: typeof fetch;
  readonly #timeoutMs: number;
  readonly #clock: Clock;

  constructor(options: OneBotClientOptions) {
    this.#apiBase = options.apiBase.trim().replace(/\/+$/, "");
    this.#accessToken = options.accessToken || undefined;
    // workerd throws "Illegal invocation" when its fetch is called as a method of another object.
    const f = options.fetch;
    this.#fetch = (input, init) => f(input, init);
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.#clock = options.clock ?? systemClock;
  }

  /**
   * Sends `text` with `send_msg`, quoting the inbound message when the reply handle is a
   * msg_id. OneBot has no send dedupe, so `seq` is unused and `duplicate` is always false.
   * Network failures, timeouts and 5xx are `unavailable` and retryable; a timed-out send may
   * still have landed. Refusals by the implementation are `rejected`, token problems `config`.
   */
  async send(message: OutboundMessage): Promise<Result<Delivered, SendError>> {
    if (!this.#apiBase) return fail("config", "OneBot API base URL is not configured");
    const target = targetOf(message.chat);
    if (!target.ok) return target;
    const segments: Segment[] = [{ type: "text", data: { text: message.text } }];
    if (message.reply.kind === "msg_id") segments.unshift({ type: "reply", data: { id: message.reply.id } });

    const headers: Record<string, string> = { "Content-Type": "application/json" };
    if (this.#accessToken) headers.Authorization = `Bearer ${this.#accessToken}`;
    const signal = AbortSignal.timeout(this.#timeoutMs);
    let response: Response;
    try {
      response = await this.#fetch(`${this.#apiBase}/send_msg`, {
        method: "POST",
        headers,
        body: JSON.stringify({ ...target.value, message: segments }),
        signal,
      });
    } catch (error) {
      const why = signal.aborted ? `timed out after ${this.#timeoutMs} ms` : describe(error);
      return fail("unavailable", `OneBot API unreachable: ${why}`, { retryable: true });
    }
    if (!response.ok) return httpFailure(response.status);

    let body: unknown;
    try {
      body = await response.json();
    } catch {
      // Not retried: a 2xx without a readable body may still have sent the message.
      return fail("unavailable", "OneBot API answered with a body that is not JSON", {
        status: response.status,
      });
    }
    const parsed = OneBotApiResponseSchema.safeParse(body);
    if (!parsed.success) {
      return fail("unavailable", "OneBot API answered without status/retcode", { status: response.status });
    }
    const { status, retcode, data } = parsed.data;
    if ((status === "ok" && retcode === 0) || status === "async") {
      return ok({ messageId: data?.message_id ?? null, ts: this.#clock.now(), duplicate: false });
    }
    const detail = clip(parsed.data.wording || parsed.data.message || status);
    const kind = AUTH_RETCODES.has(retcode) ? "config" : "rejected";
    return fail(kind, `OneBot send_msg failed (retcode ${retcode}): ${detail}`, { code: retcode });
  }
}

function targetOf(chat: OutboundMessage["chat"]): Result<Target, SendError> {
  if (chat.channel !== "onebot") return fail("config", `chat '${chat.key}' is not a OneBot chat`);
  const id = Number(chat.targetId);
  if (!/^\d+$/.test(chat.targetId) || !Number.isSafeInteger(id)) {
    return fail("config", `chat '${chat.key}' has a non-numeric target id`);
  }
  if (chat.targetType === "group") return ok({ message_type: "group", group_id: id });
  if (chat.targetType === "private") return ok({ message_type: "private", user_id: id });
  return fail("config", `OneBot cannot send to target type '${chat.targetType}'`);
}

/** HTTP-level failures: the implementation answers 401/403 for token problems and 404 for unknown APIs. */
function httpFailure(status: number) {
  if (status === 401 || status === 403)
    return fail("config", `OneBot API refused the access token (HTTP ${status})`, { status });
  if (status === 404)
    return fail("config", "OneBot API has no send_msg endpoint (HTTP 404); check the base URL", { status });
  if (status === 429)
    return fail("rate-limited", "OneBot API rate-limited the send (HTTP 429)", { status, retryable: true });
  if (status >= 500)
    return fail("unavailable", `OneBot API failed (HTTP ${status})`, { status, retryable: true });
  return fail("rejected", `OneBot API rejected the send (HTTP ${status})`, { status });
}

function fail(
  kind: SendError["kind"],
  message: string,
  extra: { status?: number; code?: number; retryable?: boolean } = {},
) {
  const { retryable = false, ...codes } = extra;
  return err<SendError>({ kind, message, retryable, ...codes });
}

function describe(error: unknown): string {
  return clip(error instanceof Error ? error.message : String(error));
}

function clip(text: string): string {
  return text.length > 200 ? `${text.slice(0, 197)}...` : text;
}
