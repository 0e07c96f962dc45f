/**
 * The outbound used in local mode and tests: accepts every reply without calling a platform
 * and remembers it. It keeps the platform's contract where it matters — a repeated
 * (reply handle, seq) is reported as a duplicate, as QQ does with msg_seq.
 */
import type { Delivered, Outbound, OutboundMessage, SendError } from "../../domain/agent/outbound";
import { ok, type Result } from "../../domain/kernel/result";

export type RecordedReply = OutboundMessage & { readonly messageId: string; readonly ts: number };

export class RecordingOutbound implements Outbound {
  readonly sent: RecordedReply[] = [];
  readonly #clock: () => number;
  constructor(clock: () => number = Date.now) {
    this.#clock = clock;
  }

  async send(message: OutboundMessage): Promise<Result<Delivered, SendError>> {
    const handle = message.reply.kind === "none" ? "none" : `${message.reply.kind}:${message.reply.id}`;
    const prior = this.sent.find(
      (r) =>
        r.chat.key === message.chat.key &&
        r.seq === message.seq &&
        handleOf(r) === handle &&
        handle !== "none",
    );
    if (prior) return ok({ messageId: prior.messageId, ts: prior.ts, duplicate: true });
    const ts = this.#clock();
    const messageId = `local-${crypto.randomUUID()}`;
    this.sent.push({ ...message, messageId, ts });
    return ok({ messageId, ts, duplicate: false });
  }
}

function handleOf(r: OutboundMessage): string {
  return r.reply.kind === "none" ? "none" : `${r.reply.kind}:${r.reply.id}`;
}
