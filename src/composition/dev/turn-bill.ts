/**
 * The per-turn bill (`npm run bench -- turn`, local mode only): runs one turn of a chat the
 * way the alarm does (identity, recall, model, tools) over a counting D1 binding, and reports
 * what it cost — D1 statements, round trips and rows, the object's own SQLite rows, the
 * tokens packed into each model request, the model calls. It persists nothing: no plan, no
 * reply, no outbox row; a tool's writes (a `/remember`) would go through, so the bench sends
 * ordinary messages.
 */
import { coalescingD1 } from "../../adapters/d1/coalescing-d1";
import { countingD1, type D1Bill } from "../../adapters/d1/counting-d1";
import type { ShortTermContext } from "../../domain/agent/short-term-context";
import { runTurn } from "../../domain/agent/turn";
import type { RecentTurn } from "../../domain/agent/turn-context";
import { turnContextOf } from "../../domain/agent/turn-context-of";
import type { HistorySearch } from "../../domain/history/history-search-port";
import type { InboundEvent } from "../../domain/inbound/inbound-event";
import type { ChatModel } from "../../domain/model/chat-model";
import { estimateTokens } from "../../domain/text/token-estimate";
import { type ChatObjectServices, chatObjectServices } from "../chat-object/chat-object-services";
import { historySearch } from "../common/history-search";
import { readRuntimeConfig } from "../common/runtime-config";
import { sqlCursors } from "./sql-cursors";

/** What a chat object lends its probe: what a turn reads of its storage, and how it runs the model. */
export type ProbedChat = {
  /** The object's own SQLite, whose cursors the bill counts. */
  readonly sql: SqlStorage;
  readonly recent: (limit: number) => readonly RecentTurn[];
  readonly shortTermContext: ShortTermContext;
  /** The model as the alarm's turn runs it (with the object's event loop let in). */
  readonly model: (model: ChatModel) => ChatModel;
  /** The history the object's turn reads (its own log in place, others by fan-out), over these bindings. */
  readonly history: (bindings: Env) => HistorySearch;
};

export type TurnBill = {
  readonly d1: D1Bill;
  /** The chat object's SQLite, from each cursor's rowsRead / rowsWritten. */
  readonly doRowsRead: number;
  readonly doRowsWritten: number;
  /** Estimated tokens of each model request (system + recent + tool results + message). */
  readonly promptTokens: readonly number[];
  readonly contextTokenBudget: number;
  readonly replies: readonly string[];
  readonly ok: boolean;
  /** Wall time of the turn inside the object (context, recall, model, tools), ms. */
  readonly turnMs: number;
};

/** `history`: where the turn reads the log — the objects (as the alarm's turn does) or D1's copy. */
export async function billTurn(
  env: Env,
  chat: ProbedChat,
  event: InboundEvent,
  history: "object" | "d1" = "object",
): Promise<TurnBill> {
  const counter = countingD1(env.DB, readRuntimeConfig(env).mode);
  const counted: Env = { ...env, DB: counter.db };
  const services: ChatObjectServices = chatObjectServices.create(counted);
  // The settings come from the isolate's cache, as in an alarm run; a cold cache's one read
  // is not part of a turn.
  const settings = await services.settings.current();
  counter.bill();
  const promptTokens: number[] = [];
  // Yielding like the alarm's turn (chat-parts.ts), so the bill times the same turn.
  const model: ChatModel = chat.model({
    provider: services.model.provider,
    model: services.model.model,
    complete: (request) => {
      promptTokens.push(request.messages.reduce((n, m) => n + estimateTokens(m.content), 0));
      return services.model.complete(request);
    },
  });
  const cursors = sqlCursors(chat.sql);
  const started = performance.now();
  try {
    const ctx = await turnContextOf({
      event,
      identity: services.identity,
      recent: chat.recent,
      settings,
      now: Date.now(),
    });
    const ports = {
      ...services,
      // As the alarm's turn reads it: this chat in the object's SQLite, the others by fan-out.
      // The D1 path as it was: over the turn's coalescing binding, its reads shared in one batch.
      history:
        history === "d1"
          ? historySearch({ ...counted, DB: coalescingD1(counter.db) })
          : chat.history(counted),
      model,
      shortTermContext: chat.shortTermContext,
      relay: services.relayLoggingTo(() => {}),
    };
    const result = await runTurn(ctx, ports, services.registry);
    const turnMs = performance.now() - started;
    return {
      d1: counter.bill(),
      doRowsRead: cursors.rowsRead(),
      doRowsWritten: cursors.rowsWritten(),
      promptTokens,
      contextTokenBudget: settings.turn.contextTokenBudget,
      replies: result.ok ? result.value.replies : [],
      ok: result.ok,
      turnMs,
    };
  } finally {
    cursors.stop();
  }
}
