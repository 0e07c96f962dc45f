import { RecordingOutbound } from "@src/adapters/recorder/recording-outbound";
import { OutboundChatRelay, relayRoute } from "@src/domain/agent/chat-relay";
import { defaultTurnRegistry } from "@src/domain/agent/default-turn-registry";
import { runTurn } from "@src/domain/agent/turn";
import type { TurnContext } from "@src/domain/agent/turn-context";
import type { ChatKey } from "@src/domain/chat/chat-address";
import type { MessageRecord } from "@src/domain/history/message-record";
import type { Transport } from "@src/domain/inbound/inbound-event";
import { ManualClock } from "@src/domain/kernel/clock";
import { silentLogger } from "@src/domain/kernel/logger";
import { describe, it } from "vitest";
import { ADMIN, withIdentity } from "../../fakes/identity-settings";
import { messageEvent } from "../../fakes/inbound";
import { RecordingRelay } from "../../fakes/recording-relay";
import { ScriptedChatModel } from "../../fakes/scripted-chat-model";
import { TEST_NOW, turnPorts } from "../../fakes/turn-ports";
import { turnContext } from "../../support/turn-context";

const CHAT = "qq:group:G1" as ChatKey;

describe("relayRoute: what a cross-chat message can reach", () => {
  it.for([
    ["onebot:group:748394300", true],
    ["onebot:private:10001", true],
    ["qq:channel:C1", true],
    ["qq:dm:D1", true],
    ["qq:group:G2", false],
    ["qq:private:U1", false],
    ["milky:group:1", false],
  ] as const)("%s → %s", ([target, reachable], { expect }) => {
    const route = relayRoute(target as ChatKey);
    expect(route.ok).toBe(reachable);
    if (!route.ok && target.startsWith("qq:")) expect(route.error.message).toContain("只能被动回复");
  });
});

describe("OutboundChatRelay", () => {
  function relay() {
    const outbounds = new Map<Transport, RecordingOutbound>();
    const logged: MessageRecord[] = [];
    const r = new OutboundChatRelay({
      outbound: (t) => {
        const o = outbounds.get(t) ?? new RecordingOutbound(() => TEST_NOW);
        outbounds.set(t, o);
        return o;
      },
      clock: new ManualClock(TEST_NOW),
      botName: "Akasha",
      logger: silentLogger,
      log: async (record) => {
        logged.push(record);
      },
    });
    return { r, outbounds, logged };
  }

  it("sends an active message to a OneBot group and logs it in that chat", async ({ expect }) => {
    const { r, outbounds, logged } = relay();
    const sent = await r.send({ from: CHAT, to: "onebot:group:123" as ChatKey, text: "通知：明天停电" });
    expect(sent.ok).toBe(true);
    expect(outbounds.get("onebot")?.sent).toMatchObject([
      { chat: { key: "onebot:group:123", targetType: "group", targetId: "123" }, reply: { kind: "none" } },
    ]);
    expect(logged).toMatchObject([{ chatKey: "onebot:group:123", direction: "out", text: "通知：明天停电" }]);
  });

  it("refuses QQ groups and the current chat without calling any platform", async ({ expect }) => {
    const { r, outbounds } = relay();
    expect(await r.send({ from: CHAT, to: "qq:group:G2" as ChatKey, text: "x" })).toMatchObject({
      ok: false,
      error: { kind: "unsupported" },
    });
    expect(await r.send({ from: CHAT, to: CHAT, text: "x" })).toMatchObject({ ok: false });
    expect(outbounds.size).toBe(0);
  });
});

describe("send_message", () => {
  async function send(args: Record<string, unknown>) {
    const event = messageEvent({ chat: CHAT, text: "帮我通知一下", sender: "ADMIN_OPENID" });
    const ctx: TurnContext = turnContext(event, {
      text: event.message?.text ?? "",
      settings: withIdentity(),
      now: TEST_NOW,
    });
    const relay = new RecordingRelay();
    const model = new ScriptedChatModel([
      { toolCalls: [{ id: "c1", name: "send_message", arguments: JSON.stringify(args) }] },
      { text: "done" },
    ]);
    const result = await runTurn(ctx, turnPorts({ model, relay }), defaultTurnRegistry());
    const answer = model.requests[1]?.messages.find((m) => m.role === "tool")?.content ?? "";
    return { answer, relay, audit: result.ok ? result.value.audit : [] };
  }

  it("lets an admin message another chat, and audits it", async ({ expect }) => {
    const { answer, relay, audit } = await send({ chat: "onebot:group:123", text: "大家好" });
    expect(answer).toBe("已发送到 onebot:group:123。");
    expect(relay.sent).toEqual([{ from: CHAT, to: "onebot:group:123", text: "大家好" }]);
    expect(audit).toMatchObject([
      {
        action: "send_message",
        actor: ADMIN,
        target: "onebot:group:123",
        outcome: "ok",
        detail: { chars: 3 },
      },
    ]);
  });

  it("explains what QQ cannot do, and audits the refusal", async ({ expect }) => {
    const { answer, relay, audit } = await send({ chat: "qq:group:G2", text: "大家好" });
    expect(answer).toContain("只能被动回复");
    expect(relay.sent).toEqual([]);
    expect(audit).toMatchObject([
      { action: "send_message", outcome: "refused", detail: { error: "unsupported" } },
    ]);
  });

  it("sends nothing to the current chat or without text", async ({ expect }) => {
    expect((await send({ chat: CHAT, text: "x" })).answer).toContain("直接写在回复里");
    expect((await send({ text: "x" })).answer).toContain("直接写在回复里");
    expect((await send({ chat: "onebot:group:1", text: "  " })).answer).toContain("非空");
  });
});
