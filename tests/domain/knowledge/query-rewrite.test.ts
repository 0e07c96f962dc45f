import { DEFAULT_QUERY_REWRITE_SETTINGS } from "@src/domain/config/query-rewrite-settings";
import { ManualClock } from "@src/domain/kernel/clock";
import {
  MAX_REWRITE_CHARS,
  REWRITE_PURPOSE,
  rewriteFollowUp,
  standaloneLine,
} from "@src/domain/knowledge/query-rewrite";
import type { ChatModel, ModelRequest, UsageRecord } from "@src/domain/model/chat-model";
import { describe, it } from "vitest";
import { ScriptedChatModel, type ScriptStep } from "../../fakes/scripted-chat-model";

const user = (text: string) => ({ role: "user" as const, text });
const bot = (text: string) => ({ role: "assistant" as const, text });
const RECENT = [user("异步组件怎么定义？"), bot("用 defineAsyncComponent。")];
const FOLLOW_UP = "那它在服务端渲染时能等到进入视口再激活吗？";
const FUSED = `异步组件怎么定义？\n${FOLLOW_UP}`;
const settings = DEFAULT_QUERY_REWRITE_SETTINGS;

function deps(
  model: ChatModel,
  extra: { mayCall?: () => Promise<boolean>; after?: (ms: number) => Promise<void> } = {},
) {
  const clock = new ManualClock(1_700_000_000_000);
  const recorded: UsageRecord[] = [];
  const deadlines: number[] = [];
  return {
    recorded,
    deadlines,
    deps: {
      model,
      clock,
      chatKey: "qq:group:G1",
      record: (u: UsageRecord) => recorded.push(u),
      // The deadline never passes unless a test says so.
      after: extra.after ?? ((ms: number) => (deadlines.push(ms), new Promise<void>(() => {}))),
      ...(extra.mayCall ? { mayCall: extra.mayCall } : {}),
    },
  };
}

const scripted = (...steps: ScriptStep[]) => new ScriptedChatModel(steps);

describe("follow-up rewrite through the chat model", () => {
  it("asks for one bounded query with the earlier user turns, and searches what the model wrote", async ({
    expect,
  }) => {
    const model = scripted({ text: "查询：异步组件在服务端渲染时进入视口再激活\n（解释……）" });
    const d = deps(model);
    const out = await rewriteFollowUp(d.deps, settings, FOLLOW_UP, RECENT);
    expect(out).toEqual({ query: "异步组件在服务端渲染时进入视口再激活", via: "model" });
    const req = model.requests[0] as ModelRequest;
    expect(req.maxTokens).toBe(settings.maxTokens);
    expect(req.temperature).toBe(0);
    expect(req.tools).toBeUndefined();
    const prompt = req.messages.map((m) => m.content).join("\n");
    expect(prompt).toContain("异步组件怎么定义？");
    expect(prompt).toContain(FOLLOW_UP);
    expect(prompt).not.toContain("defineAsyncComponent"); // the bot's turns are not carried
    expect(d.deadlines).toEqual([settings.timeoutMs]);
    expect(d.recorded).toEqual([
      expect.objectContaining({
        chatKey: "qq:group:G1",
        provider: "scripted",
        model: "scripted-1",
        purpose: REWRITE_PURPOSE,
        promptTokens: 10,
        completionTokens: 5,
        ok: true,
        errorKind: null,
      }),
    ]);
  });

  it("a question that stands alone is searched as it is, without a call", async ({ expect }) => {
    const model = scripted({ text: "不该用到" });
    const d = deps(model);
    const out = await rewriteFollowUp(d.deps, settings, "异步组件怎么定义？", RECENT);
    expect(out).toEqual({ query: "异步组件怎么定义？", via: "as-is" });
    expect(model.requests).toHaveLength(0);
    expect(d.recorded).toEqual([]);
  });

  it("the offline model, rewriting off, no earlier turn or no deps: the fusion, no call", async ({
    expect,
  }) => {
    const offline = { provider: "offline", model: "offline", complete: scripted().complete } as ChatModel;
    const model = scripted({ text: "不该用到" });
    expect(await rewriteFollowUp(deps(offline).deps, settings, FOLLOW_UP, RECENT)).toEqual({
      query: FUSED,
      via: "fusion",
    });
    expect(
      await rewriteFollowUp(deps(model).deps, { ...settings, enabled: false }, FOLLOW_UP, RECENT),
    ).toEqual({
      query: FUSED,
      via: "fusion",
    });
    expect(await rewriteFollowUp(deps(model).deps, settings, FOLLOW_UP, [bot("你好")])).toEqual({
      query: FOLLOW_UP,
      via: "fusion",
    });
    expect(await rewriteFollowUp(null, settings, FOLLOW_UP, RECENT)).toEqual({ query: FUSED, via: "fusion" });
    expect(model.requests).toHaveLength(0);
  });

  it("over the spend cap: the fusion, no call", async ({ expect }) => {
    const model = scripted({ text: "不该用到" });
    const d = deps(model, { mayCall: async () => false });
    expect(await rewriteFollowUp(d.deps, settings, FOLLOW_UP, RECENT)).toEqual({
      query: FUSED,
      via: "fusion",
    });
    expect(model.requests).toHaveLength(0);
    expect(d.recorded).toEqual([]);
  });

  it("a model error: the fusion, and the failed call recorded with its kind", async ({ expect }) => {
    const d = deps(scripted({ error: { kind: "rate-limited", message: "429", status: 429 } }));
    expect(await rewriteFollowUp(d.deps, settings, FOLLOW_UP, RECENT)).toEqual({
      query: FUSED,
      via: "fusion",
    });
    expect(d.recorded).toEqual([
      expect.objectContaining({
        purpose: REWRITE_PURPOSE,
        ok: false,
        errorKind: "rate-limited",
        promptTokens: null,
      }),
    ]);
  });

  it("past the deadline: the fusion, recorded as a timeout, whatever the model says later", async ({
    expect,
  }) => {
    let answer: (v: { text: string }) => void = () => {};
    const model = scripted(() => new Promise((resolve) => (answer = resolve)));
    const d = deps(model, { after: async () => {} });
    expect(await rewriteFollowUp(d.deps, settings, FOLLOW_UP, RECENT)).toEqual({
      query: FUSED,
      via: "fusion",
    });
    answer({ text: "太晚了" });
    expect(d.recorded).toEqual([
      expect.objectContaining({ ok: false, errorKind: "timeout", completionTokens: null }),
    ]);
  });

  it("an adapter that throws loses no search", async ({ expect }) => {
    const model = scripted(async () => {
      throw new Error("socket hang up");
    });
    const d = deps(model);
    expect(await rewriteFollowUp(d.deps, settings, FOLLOW_UP, RECENT)).toEqual({
      query: FUSED,
      via: "fusion",
    });
    expect(d.recorded).toEqual([expect.objectContaining({ ok: false, errorKind: "bad-response" })]);
  });

  it("an empty or over-long answer is no query: the fusion, the call still recorded", async ({ expect }) => {
    for (const text of ["", "  \n ", "长".repeat(MAX_REWRITE_CHARS + 1)]) {
      const d = deps(scripted({ text }));
      expect(await rewriteFollowUp(d.deps, settings, FOLLOW_UP, RECENT)).toEqual({
        query: FUSED,
        via: "fusion",
      });
      expect(d.recorded).toEqual([expect.objectContaining({ ok: true, purpose: REWRITE_PURPOSE })]);
    }
  });

  it("reads the query off the first line, labels and quotes stripped", ({ expect }) => {
    expect(standaloneLine("“KeepAlive 的 max 属性”")).toBe("KeepAlive 的 max 属性");
    expect(standaloneLine("\n改写后的查询: 插槽默认内容\n")).toBe("插槽默认内容");
    expect(standaloneLine('""')).toBeNull();
  });
});
