import { env } from "cloudflare:workers";
import { API_USAGE_CHAT, apiSearchQuery } from "@src/composition/request/api-query-rewrite";
import { DEFAULT_SETTINGS } from "@src/domain/config/settings";
import { REWRITE_PURPOSE } from "@src/domain/knowledge/query-rewrite";
import { describe, it } from "vitest";
import { ScriptedChatModel } from "../../fakes/scripted-chat-model";
import { api } from "../../support/knowledge-api";

const turns = [{ role: "user" as const, text: "KeepAlive 是什么？" }];

async function usageRows(since: number) {
  const { results } = await env.DB.prepare(
    "SELECT chat_key, purpose, ok, error_kind, prompt_tokens, completion_tokens FROM model_usage WHERE purpose = ?1 AND at >= ?2 ORDER BY id",
  )
    .bind(REWRITE_PURPOSE, since)
    .all();
  return results;
}

describe("the search API's follow-up rewrite", () => {
  it("writes each rewrite call to model_usage under the API's key, failed ones too", async ({ expect }) => {
    const since = Date.now();
    const model = new ScriptedChatModel([
      { text: "KeepAlive 的 max 属性" },
      { error: { kind: "unavailable", message: "503", status: 503 } },
    ]);
    expect(await apiSearchQuery(env, DEFAULT_SETTINGS, "那它的 max 呢？", turns, model)).toEqual({
      query: "KeepAlive 的 max 属性",
      via: "model",
    });
    expect(await apiSearchQuery(env, DEFAULT_SETTINGS, "那它的 max 呢？", turns, model)).toEqual({
      query: "KeepAlive 是什么？\n那它的 max 呢？",
      via: "fusion",
    });
    expect(await usageRows(since)).toEqual([
      {
        chat_key: API_USAGE_CHAT,
        purpose: REWRITE_PURPOSE,
        ok: 1,
        error_kind: null,
        prompt_tokens: 10,
        completion_tokens: 5,
      },
      {
        chat_key: API_USAGE_CHAT,
        purpose: REWRITE_PURPOSE,
        ok: 0,
        error_kind: "unavailable",
        prompt_tokens: null,
        completion_tokens: null,
      },
    ]);
  });

  it("over the global daily cap it makes no call", async ({ expect }) => {
    const since = Date.now();
    const model = new ScriptedChatModel([{ text: "不该用到" }]);
    const capped = { ...DEFAULT_SETTINGS, spend: { ...DEFAULT_SETTINGS.spend, globalDailyTokens: 0 } };
    expect(await apiSearchQuery(env, capped, "那它的 max 呢？", turns, model)).toEqual({
      query: "KeepAlive 是什么？\n那它的 max 呢？",
      via: "fusion",
    });
    expect(model.requests).toHaveLength(0);
    expect(await usageRows(since)).toEqual([]);
  });

  it("the route says how it read the question; offline (the default) a follow-up is fused", async ({
    expect,
  }) => {
    const res = await api("/api/kb/search", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: "那它的 max 呢？", turns: ["KeepAlive 是什么？"] }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { query: { text: string; via: string } };
    expect(body.query).toEqual({ text: "KeepAlive 是什么？\n那它的 max 呢？", via: "fusion" });
  });
});
