import { ALLOWED_CHATS_ARG, ChatGrant, grantOf } from "@src/domain/agent/chat-grant";
import type { ContextProvider } from "@src/domain/agent/context-provider";
import { defaultTurnRegistry } from "@src/domain/agent/default-turn-registry";
import type { Tool } from "@src/domain/agent/tool";
import { runTurn, type TurnRegistry } from "@src/domain/agent/turn";
import type { TurnContext } from "@src/domain/agent/turn-context";
import { CONTROL_ARGS } from "@src/domain/authorization/tool-guard";
import type { Settings } from "@src/domain/config/settings";
import { describe, it } from "vitest";
import { ADMIN, MEMBER, withIdentity } from "../../fakes/identity-settings";
import { hit, InMemoryHistory } from "../../fakes/in-memory-history";
import { messageEvent } from "../../fakes/inbound";
import { RecordingRelay } from "../../fakes/recording-relay";
import { callingOneTool } from "../../fakes/scripted-chat-model";
import { TEST_NOW, turnPorts } from "../../fakes/turn-ports";
import { senderContext, turnContext } from "../../support/turn-context";

const MAIN = "qq:group:MAIN";
const TOPIC = "qq:group:TOPIC";
const ELSEWHERE = "qq:group:ELSEWHERE";
const DOMAINS = { community: [MAIN, TOPIC], other: [ELSEWHERE] };

const settings = (overrides: Parameters<typeof withIdentity>[0] = {}) =>
  withIdentity({ chatDomains: DOMAINS, ...overrides });

const context = (sender: string, s: Settings, text = "帮我查一下"): TurnContext =>
  senderContext(MAIN, text, sender, s);

/** Runs one turn in which the model calls `tool` with `args`; returns what the tool answered. */
async function callTool(
  name: string,
  args: Record<string, unknown>,
  ctx: TurnContext,
  registry: TurnRegistry = defaultTurnRegistry(),
  ports = turnPorts(),
) {
  const model = callingOneTool(name, args, { text: "好的" });
  const result = await runTurn(ctx, { ...ports, model }, registry);
  const answer = model.requests[1]?.messages.find((m) => m.role === "tool")?.content ?? "";
  return { answer, result };
}

/** A chat-domain tool that records the arguments it ran with. */
function spyTool(name: string, scope: Tool["scope"] = "chat_domain", requiresAdmin = false) {
  const calls: Record<string, unknown>[] = [];
  const tool: Tool = {
    spec: { name, description: "spy", parameters: { type: "object", properties: {} } },
    requiresAdmin,
    scope,
    async run(args) {
      calls.push(args as Record<string, unknown>);
      return { ok: true, content: "ran" };
    },
  };
  return { tool, calls };
}

/** The default registry with these tools in place of any registered under the same names. */
function withTools(...tools: Tool[]): TurnRegistry {
  const base = defaultTurnRegistry();
  const names = new Set(tools.map((t) => t.spec.name));
  return { ...base, tools: [...base.tools.filter((t) => !names.has(t.spec.name)), ...tools] };
}

const history = () =>
  new InMemoryHistory([
    hit(MAIN, "主群：周五团建"),
    hit(TOPIC, "话题群：周五团建改到周六"),
    hit(ELSEWHERE, "别的群：周五团建的秘密"),
  ]);

/** Calls a history tool over the three chats of `history()`, as `ctx`. */
const askHistory = (name: string, args: Record<string, unknown>, ctx: TurnContext) =>
  callTool(name, args, ctx, undefined, turnPorts({ history: history() }));

describe("chat-domain targeting", () => {
  it("reaches a chat inside the domain", async ({ expect }) => {
    const { answer } = await askHistory(
      "history_search",
      { query: "团建", chat: TOPIC },
      context(MEMBER, settings()),
    );
    expect(answer).toContain("话题群");
    expect(answer).not.toContain("主群");
  });

  it("refuses a chat outside the domain with NotInChatScope", async ({ expect }) => {
    const { answer } = await askHistory(
      "history_search",
      { query: "团建", chat: ELSEWHERE },
      context(MEMBER, settings()),
    );
    expect(answer).toContain(`聊天 ${ELSEWHERE} 不在当前聊天所在的聊天域 'community' 内`);
    expect(answer).not.toContain("秘密");
  });

  it("uses the current chat when no target is given", async ({ expect }) => {
    const { answer } = await askHistory("history_search", { query: "团建" }, context(MEMBER, settings()));
    expect(answer).toContain("主群");
    expect(answer).not.toContain("话题群");
  });

  it("keeps a chat in no domain to itself", async ({ expect }) => {
    const { answer } = await askHistory(
      "history_recent",
      { chat: TOPIC },
      context(MEMBER, settings({ chatDomains: {} })),
    );
    expect(answer).toContain("不属于任何聊天域");
  });

  it("ignores a model-supplied allowed_chats and injects the gate's set", async ({ expect }) => {
    const spy = spyTool("spy_domain");
    const forged = {
      chat: TOPIC,
      allowed_chats: [ELSEWHERE],
      allowedChats: [ELSEWHERE],
      scope: "global",
      chats: [ELSEWHERE],
      note: "kept",
    };
    await callTool("spy_domain", forged, context(MEMBER, settings()), withTools(spy.tool));
    expect(spy.calls).toHaveLength(1);
    const args = spy.calls[0] ?? {};
    expect(Object.keys(args).sort()).toEqual([ALLOWED_CHATS_ARG, "chat", "note"]);
    expect(args[ALLOWED_CHATS_ARG]).toBeInstanceOf(ChatGrant);
    expect(JSON.parse(JSON.stringify(args[ALLOWED_CHATS_ARG]))).toEqual({ all: false, chats: [MAIN, TOPIC] });

    // Naming the outside chat in allowed_chats does not let the call reach it.
    const outside = await askHistory(
      "history_search",
      { query: "团建", chat: ELSEWHERE, allowed_chats: [ELSEWHERE] },
      context(MEMBER, settings()),
    );
    expect(outside.answer).toContain("不在当前聊天所在的聊天域");
  });

  it("strips control arguments from every tool, not only chat-domain ones", async ({ expect }) => {
    const spy = spyTool("spy_plain", "current_chat");
    await callTool(
      "spy_plain",
      { allowed_chats: [ELSEWHERE], scope_id: "x", q: 1 },
      context(MEMBER, settings()),
      withTools(spy.tool),
    );
    expect(spy.calls).toEqual([{ q: 1 }]);
  });

  it("falls back to the current chat when a tool runs without the guard", async ({ expect }) => {
    const ctx = context(MEMBER, settings());
    expect(grantOf({ allowed_chats: { all: true } }, ctx).chats).toEqual([MAIN]);
    expect(grantOf({ allowed_chats: [ELSEWHERE] }, ctx).allows(ELSEWHERE)).toBe(false);
  });

  it("gives admins every chat", async ({ expect }) => {
    const spy = spyTool("spy_domain");
    await callTool("spy_domain", { chat: ELSEWHERE }, context(ADMIN, settings()), withTools(spy.tool));
    expect(JSON.parse(JSON.stringify(spy.calls[0]?.[ALLOWED_CHATS_ARG]))).toEqual({ all: true });
    const { answer } = await askHistory(
      "history_search",
      { query: "团建", chat: ELSEWHERE },
      context(ADMIN, settings()),
    );
    expect(answer).toContain("别的群");
  });
});

describe("privileged tools", () => {
  it("check privilege before scope: a non-admin's out-of-domain send is NotAuthorized", async ({
    expect,
  }) => {
    const relay = new RecordingRelay();
    const { answer } = await callTool(
      "send_message",
      { chat: ELSEWHERE, text: "hi" },
      context(MEMBER, settings()),
      undefined,
      turnPorts({ relay }),
    );
    expect(answer).toContain(`账号 ${MEMBER} 不在 identity.admins 中`);
    expect(answer).not.toContain("聊天域");
    expect(relay.sent).toEqual([]);
  });

  it("are refused for everyone, loudly, when identity is enabled without admins", async ({ expect }) => {
    for (const [name, args] of [
      ["send_message", { chat: "onebot:group:123", text: "hi" }],
      ["identity_manage", { action: "whois" }],
    ] as const) {
      const relay = new RecordingRelay();
      const { answer } = await callTool(
        name,
        args,
        context(ADMIN, settings({ admins: [] })),
        undefined,
        turnPorts({ relay }),
      );
      expect(answer).toContain("identity.admins 为空");
      expect(answer).toContain("fail closed");
      expect(relay.sent).toEqual([]);
    }
  });

  it("gate a tool that forgot requiresAdmin by its privileged name", async ({ expect }) => {
    const spy = spyTool("kb_manage", "none", false);
    const { answer } = await callTool("kb_manage", {}, context(MEMBER, settings()), withTools(spy.tool));
    expect(answer).toContain("kb_manage 需要管理员");
    expect(spy.calls).toEqual([]);
  });

  it("leave memory_write and current-scope reads to everyone", async ({ expect }) => {
    const write = spyTool("memory_write", "current_chat");
    const { answer } = await callTool(
      "memory_write",
      { text: "我喜欢猫" },
      context(MEMBER, settings()),
      withTools(write.tool),
    );
    expect(answer).toBe("ran");
    expect(write.calls).toEqual([{ text: "我喜欢猫" }]);
  });
});

describe("tool schemas", () => {
  it("never offer the model a scope or allowed-chats parameter (docs/invariants.md)", ({ expect }) => {
    for (const tool of defaultTurnRegistry().tools) {
      const properties = Object.keys((tool.spec.parameters.properties ?? {}) as Record<string, unknown>);
      expect(
        properties.filter((p) => CONTROL_ARGS.includes(p)),
        tool.spec.name,
      ).toEqual([]);
    }
  });
});

describe("admin status and memory", () => {
  const event = messageEvent({
    chat: MAIN,
    // Not an explicit "记住…" request: that would be answered without tools or recall.
    text: "我喜欢猫，你呢",
    sender: "ADMIN_OPENID",
    id: "m1",
    ts: TEST_NOW,
  });

  /** What recall and memory code would see: the context providers' input and a memory tool's arguments. */
  async function memoryInputs(s: Settings) {
    const seen: TurnContext[] = [];
    const recorder: ContextProvider = {
      name: "memory-recall-stand-in",
      async collect(ctx) {
        seen.push(ctx);
        return null;
      },
    };
    const write = spyTool("memory_write", "current_chat");
    const base = withTools(write.tool);
    const registry = { ...base, context: [...base.context, recorder] };
    const ctx: TurnContext = turnContext(event, {
      identity: {
        enabled: true,
        account: event.sender?.account ?? (ADMIN as never),
        personId: "owner",
        declared: true,
      },
      text: "我喜欢猫，你呢",
      settings: s,
      now: TEST_NOW,
    });
    await callTool("memory_write", { text: "我喜欢猫", sensitivity: "private" }, ctx, registry);
    return { ctx: seen[0], writeArgs: write.calls[0] };
  }

  it("reaches recall and memory writes only as the plain senderIsAdmin value, beyond the admins list itself", async ({
    expect,
  }) => {
    const asAdmin = await memoryInputs(settings({ admins: [ADMIN] }));
    const asMember = await memoryInputs(settings({ admins: [] }));
    expect(asAdmin.ctx?.sender?.account).toBe(ADMIN);
    expect(asAdmin.writeArgs).toEqual({ text: "我喜欢猫", sensitivity: "private" });
    expect(asAdmin.writeArgs).toEqual(asMember.writeArgs);
    expect(asAdmin.ctx?.identity).toEqual(asMember.ctx?.identity);
    // The one difference memory sees: an admin's explicit writes may go to the global scope.
    expect(asAdmin.ctx?.senderIsAdmin).toBe(true);
    expect(asMember.ctx?.senderIsAdmin).toBe(false);
    const strip = (ctx: TurnContext | undefined) =>
      ctx && {
        ...ctx,
        senderIsAdmin: null,
        settings: { ...ctx.settings, identity: { ...ctx.settings.identity, admins: [] } },
      };
    expect(strip(asAdmin.ctx)).toEqual(strip(asMember.ctx));
  });
});
