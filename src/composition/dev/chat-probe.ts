/**
 * A chat object's local probe (local mode only: `chatProbe` answers null for any other mode,
 * so a production object has none): its SQLite statements and alarm runs counted, and one
 * turn billed over a counting D1 with nothing persisted (`npm run bench -- turn`). The chat
 * object wraps its storage with it and lends it what a turn reads of that storage; the dev
 * wing reaches it through the object's `fetch` (chat-probe-client.ts), which answers 404 when
 * there is no probe.
 *
 *   GET  /work  the object's statements and alarm runs since it started
 *   POST /bill  one turn for the posted inbound event, billed (turn-bill.ts); `?history=d1`
 *               reads its history from D1's log instead of the objects' logs
 *   GET  /size  the object's SQLite size in bytes (`databaseSize`)
 *   POST /read  one history read made from this chat (history-probe.ts)
 */

import type { InboundEvent } from "../../domain/inbound/inbound-event";
import { maskInboundEvent } from "../../domain/inbound/mask-inbound-event";
import { modeOf } from "../common/runtime-config";
import { type ChatWork, countedSql } from "./counted-sql";
import { type HistoryProbe, probeHistory } from "./history-probe";
import { billTurn, type ProbedChat } from "./turn-bill";

export type { ProbedChat };

export type ChatProbe = {
  /** The object's SQLite, every statement counted. */
  storage(sql: SqlStorage): SqlStorage;
  alarmRan(): void;
  serve(request: Request, chat: ProbedChat): Promise<Response>;
};

export function chatProbe(env: Env): ChatProbe | null {
  if (modeOf(env.AKASHA_ENV) !== "local") return null;
  const work: ChatWork = { statements: 0, alarms: 0 };
  return {
    storage: (sql) => countedSql(sql, work),
    alarmRan: () => {
      work.alarms++;
    },
    async serve(request, chat) {
      const path = new URL(request.url).pathname;
      if (request.method === "GET" && path === "/work") return Response.json({ ...work });
      if (request.method === "POST" && path === "/bill") {
        const event = (await request.json()) as InboundEvent;
        // ?history=d1: the same turn with its history read from D1's log, the path before the move.
        const history = new URL(request.url).searchParams.get("history") === "d1" ? "d1" : "object";
        return Response.json(await billTurn(env, chat, maskInboundEvent(event), history));
      }
      if (request.method === "GET" && path === "/size")
        return Response.json({ bytes: chat.sql.databaseSize });
      if (request.method === "POST" && path === "/read") {
        const { reader, ...q } = (await request.json()) as HistoryProbe & { reader: string };
        return Response.json(await probeHistory(env, chat, reader, q));
      }
      return new Response(null, { status: 404 });
    },
  };
}
