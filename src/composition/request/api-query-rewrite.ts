/**
 * The follow-up rewrite for `POST /api/kb/search`: the configured chat model, the global
 * daily caps (the API is no chat, so its calls are billed to `API_USAGE_CHAT`), and each call
 * written to model_usage right away (there is no chat object outbox to carry it).
 */
import { openDatabase } from "../../adapters/d1/database";
import { modelUsage } from "../../adapters/d1/schema";
import type { Settings } from "../../domain/config/settings";
import { systemClock } from "../../domain/kernel/clock";
import type { EarlierTurn } from "../../domain/knowledge/follow-up-query";
import { type RewrittenQuery, rewriteFollowUp } from "../../domain/knowledge/query-rewrite";
import type { ChatModel, UsageRecord } from "../../domain/model/chat-model";
import { dailySpendGate } from "../../domain/spend/spend-gate";
import { createChatModel } from "../common/model-and-outbound";
import { readRuntimeConfig } from "../common/runtime-config";
import { spendLedger } from "../common/spend-reader";

/** The chat key the API's model calls are recorded under. */
export const API_USAGE_CHAT = "api:kb-search";

export async function apiSearchQuery(
  env: Env,
  settings: Settings,
  question: string,
  recent: readonly EarlierTurn[],
  model: ChatModel = createChatModel(env, readRuntimeConfig(env)),
): Promise<RewrittenQuery> {
  const recorded: UsageRecord[] = [];
  const gate = dailySpendGate({
    chatKey: API_USAGE_CHAT,
    caps: settings.spend,
    timeZone: settings.calendar.timeZone,
    ledger: spendLedger(env),
    clock: systemClock,
    unflushed: () => 0,
  });
  const rewritten = await rewriteFollowUp(
    {
      model,
      clock: systemClock,
      after: (ms) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
      chatKey: API_USAGE_CHAT,
      mayCall: async () => (await gate.check(recorded)).allowed,
      record: (u) => recorded.push(u),
    },
    settings.queryRewrite,
    question,
    recent,
  );
  const db = openDatabase(env.DB);
  for (const u of recorded)
    await db
      .insert(modelUsage)
      .values({ ...u, dedupeKey: `${API_USAGE_CHAT}:${u.at}:${crypto.randomUUID()}` })
      .onConflictDoNothing();
  return rewritten;
}
