/**
 * A OneBot HTTP API serving `get_group_msg_history` the way NapCat does: POST
 * `{group_id, message_seq?, count}` → `{status, retcode, data: {messages}}`, the `count`
 * messages ending at `message_seq` (inclusive; the newest when absent), oldest first. Failures
 * can be queued per call: an HTTP status, a body that is not JSON, a `retcode` refusal.
 */

export const FAKE_SELF_ID = 10000;

export type FakeGroupMessage = {
  seq: number;
  messageId: number;
  time: number;
  userId: number;
  nick: string;
  text: string;
  /** The bot's own send, as NapCat reports it in history. */
  own?: boolean;
};

export type FakeFailure =
  | { http: number }
  | { notJson: true }
  | { retcode: number; wording: string }
  | { throws: string };

export function wireMessage(group: number, m: FakeGroupMessage) {
  return {
    self_id: FAKE_SELF_ID,
    user_id: m.own ? FAKE_SELF_ID : m.userId,
    time: m.time,
    message_id: m.messageId,
    real_id: m.messageId,
    message_seq: m.seq,
    message_type: "group",
    sender: { user_id: m.own ? FAKE_SELF_ID : m.userId, nickname: m.nick, card: "", role: "member" },
    raw_message: m.text,
    font: 14,
    sub_type: "normal",
    message: [{ type: "text", data: { text: m.text } }],
    message_format: "array",
    post_type: m.own ? "message_sent" : "message",
    group_id: group,
  };
}

export class FakeOneBotHistory {
  readonly calls: { group_id: number; message_seq?: number; count: number; authorization: string | null }[] =
    [];
  readonly failures: FakeFailure[] = [];
  readonly #groups = new Map<number, FakeGroupMessage[]>();

  add(group: number, messages: readonly FakeGroupMessage[]): void {
    const all = [...(this.#groups.get(group) ?? []), ...messages].sort((a, b) => a.seq - b.seq);
    this.#groups.set(group, all);
  }

  readonly fetch: typeof fetch = async (input, init) => {
    const url = new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url);
    if (url.pathname !== "/get_group_msg_history") return new Response("not found", { status: 404 });
    const body = JSON.parse(String(init?.body)) as { group_id: number; message_seq?: number; count: number };
    const headers = new Headers(init?.headers);
    this.calls.push({ ...body, authorization: headers.get("authorization") });
    const failure = this.failures.shift();
    if (failure) {
      if ("throws" in failure) throw new TypeError(failure.throws);
      if ("http" in failure) return new Response("upstream error", { status: failure.http });
      if ("notJson" in failure) return new Response("<html>oops</html>", { status: 200 });
      return Response.json({
        status: "failed",
        retcode: failure.retcode,
        data: null,
        message: "",
        wording: failure.wording,
      });
    }
    const all = this.#groups.get(body.group_id) ?? [];
    const upTo = body.message_seq === undefined || body.message_seq === 0 ? Infinity : body.message_seq;
    const eligible = all.filter((m) => m.seq <= upTo);
    const page = eligible.slice(Math.max(0, eligible.length - body.count));
    return Response.json({
      status: "ok",
      retcode: 0,
      data: { messages: page.map((m) => wireMessage(body.group_id, m)) },
      message: "",
      wording: "",
    });
  };
}
