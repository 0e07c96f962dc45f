/**
 * `get_group_msg_history` on the OneBot v11 HTTP API (a go-cqhttp extension NapCat,
 * Lagrange.OneBot and others implement): POST `{group_id, message_seq?, count}`, answered
 * `{status, retcode, data: {messages: [...]}}` with message events oldest first. Each message
 * is normalized by the same `toInboundEvent` as a live webhook event, so ids, text and the
 * message time — and with them the log's unique key — come out exactly as if it had arrived
 * live. The bot's own messages (`message_sent`) are skipped.
 */
import { z } from "zod";
import type {
  GroupHistorySource,
  HistoryEntry,
  HistoryPageError,
} from "../../domain/backfill/group-history-source";
import { err, ok, type Result } from "../../domain/kernel/result";
import { toInboundEvent } from "./onebot-event";

export type OneBotHistoryClientOptions = {
  readonly apiBase: string;
  readonly accessToken?: string;
  readonly fetch: typeof fetch;
  /** Default 15 s. */
  readonly timeoutMs?: number;
};

const HistoryResponseSchema = z.object({
  status: z.string(),
  retcode: z.number(),
  data: z.object({ messages: z.array(z.unknown()) }).nullish(),
  message: z.string().nullish(),
  wording: z.string().nullish(),
});

const AUTH_RETCODES: ReadonlySet<number> = new Set([401, 403, 1401, 1403]);
const Seq = z.union([
  z.number().int(),
  z
    .string()
    .regex(/^\d{1,18}$/)
    .transform(Number),
]);

export class OneBotHistoryClient implements GroupHistorySource {
  readonly #apiBase: string;
  readonly #accessToken: string | undefined;
  readonly #fetch: typeof fetch;
  readonly #timeoutMs: number;

  constructor(options: OneBotHistoryClientOptions) {
    this.#apiBase = options.apiBase.trim().replace(/\/+$/, "");
    this.#accessToken = options.accessToken || undefined;
    // workerd throws "Illegal invocation" when its fetch is called as a method of another object.
    const f = options.fetch;
    this.#fetch = (input, init) => f(input, init);
    this.#timeoutMs = options.timeoutMs ?? 15_000;
  }

  async page(
    groupId: string,
    before: number | null,
    count: number,
  ): Promise<Result<HistoryEntry[], HistoryPageError>> {
    if (!this.#apiBase) return fail("config", "OneBot API base URL is not configured");
    const headers: Record<string, string> = { "Content-Type": "application/json" };
    if (this.#accessToken) headers.Authorization = `Bearer ${this.#accessToken}`;
    const body: Record<string, number> = { group_id: Number(groupId), count };
    if (before !== null) body.message_seq = before;
    const signal = AbortSignal.timeout(this.#timeoutMs);
    let response: Response;
    try {
      response = await this.#fetch(`${this.#apiBase}/get_group_msg_history`, {
        method: "POST",
        headers,
        body: JSON.stringify(body),
        signal,
      });
    } catch (e) {
      return fail("unavailable", signal.aborted ? `timed out after ${this.#timeoutMs} ms` : clip(String(e)));
    }
    if (!response.ok) {
      if (response.status === 401 || response.status === 403)
        return fail("config", `OneBot API refused the access token (HTTP ${response.status})`);
      if (response.status === 404)
        return fail("config", "OneBot API has no get_group_msg_history (HTTP 404)");
      if (response.status === 429) return fail("rate-limited", "OneBot API rate-limited (HTTP 429)");
      return fail(
        response.status >= 500 ? "unavailable" : "rejected",
        `OneBot API answered HTTP ${response.status}`,
      );
    }
    let json: unknown;
    try {
      json = await response.json();
    } catch {
      return fail("bad-response", "OneBot API answered with a body that is not JSON");
    }
    const parsed = HistoryResponseSchema.safeParse(json);
    if (!parsed.success) return fail("bad-response", "OneBot API answered without status/retcode");
    const { status, retcode, data } = parsed.data;
    if (status !== "ok" || retcode !== 0) {
      const detail = clip(parsed.data.wording || parsed.data.message || status);
      return fail(AUTH_RETCODES.has(retcode) ? "config" : "rejected", `retcode ${retcode}: ${detail}`);
    }
    if (!data) return fail("bad-response", "OneBot API answered ok without data.messages");
    const received = Date.now();
    return ok(data.messages.flatMap((m) => entryOf(m, groupId, received)));
  }
}

function entryOf(item: unknown, groupId: string, receivedAt: number): HistoryEntry[] {
  if (typeof item !== "object" || item === null) return [];
  const m = item as Record<string, unknown>;
  const seq = Seq.safeParse(m.message_seq ?? m.message_id);
  // Without a sequence number the message cannot place the cursor; it is left out.
  if (!seq.success) return [];
  if (m.post_type === "message_sent")
    return [{ seq: seq.data, event: null, skipped: "the bot's own message" }];
  const payload = {
    ...m,
    post_type: m.post_type ?? "message",
    message_type: m.message_type ?? "group",
    group_id: m.group_id ?? groupId,
  };
  const event = toInboundEvent(payload, receivedAt);
  if (!event.ok) return [{ seq: seq.data, event: null, skipped: event.error.reason }];
  return [{ seq: seq.data, event: event.value, skipped: null }];
}

function fail(kind: HistoryPageError["kind"], message: string) {
  return err<HistoryPageError>({ kind, message });
}

function clip(text: string): string {
  return text.length > 200 ? `${text.slice(0, 197)}...` : text;
}
