/**
 * The dev wing's side of a chat object's local probe (chat-probe.ts): one billed turn, and the
 * object's work so far. Local mode only: elsewhere the object has no probe and answers 404.
 */
import type { D1Bill } from "../../adapters/d1/counting-d1";
import type { ChatKey } from "../../domain/chat/chat-address";
import type { InboundEvent } from "../../domain/inbound/inbound-event";
import { chatObject } from "../common/chat-stub";
import type { ChatWork } from "./counted-sql";
import type { HistoryProbe, HistoryProbeAnswer } from "./history-probe";
import type { TurnBill } from "./turn-bill";

export type { ChatWork, D1Bill, HistoryProbe, HistoryProbeAnswer, TurnBill };

const PROBE = "https://chat-probe.local";

async function answer<T>(res: Response): Promise<T> {
  if (!res.ok) throw new Error(`the chat object's probe answered ${res.status} (local mode only)`);
  return (await res.json()) as T;
}

export function chatProbeClient(env: Env, chat: ChatKey) {
  const stub = chatObject(env, chat);
  return {
    bill: async (event: InboundEvent, history: "object" | "d1" = "object") =>
      answer<TurnBill>(
        await stub.fetch(`${PROBE}/bill${history === "d1" ? "?history=d1" : ""}`, {
          method: "POST",
          body: JSON.stringify(event),
        }),
      ),
    work: async () => answer<ChatWork>(await stub.fetch(`${PROBE}/work`)),
    size: async () => (await answer<{ bytes: number }>(await stub.fetch(`${PROBE}/size`))).bytes,
    /** A history read made from this chat (its own key is the reader). */
    read: async (q: HistoryProbe) =>
      answer<HistoryProbeAnswer>(
        await stub.fetch(`${PROBE}/read`, { method: "POST", body: JSON.stringify({ ...q, reader: chat }) }),
      ),
  };
}
