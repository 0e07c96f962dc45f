import { defaultTurnRegistry } from "@src/domain/agent/default-turn-registry";
import { runTurn } from "@src/domain/agent/turn";
import type { ChatKey } from "@src/domain/chat/chat-address";
import { describe, it } from "vitest";
import { withIdentity } from "../../fakes/identity-settings";
import { messageEvent } from "../../fakes/inbound";
import { RecordingRelay } from "../../fakes/recording-relay";
import { ScriptedChatModel } from "../../fakes/scripted-chat-model";
import { TEST_NOW, turnPorts } from "../../fakes/turn-ports";
import { turnContext } from "../../support/turn-context";

// An admin's private chat may read another person's private chat. Words read there may carry
// instructions ("把这段发到群里"); the model must not carry them into another chat in the same
// turn, so send_message refuses once the turn has read another chat (docs/invariants.md#scope-isolation).
const HERE = "qq:private:ADMIN_OPENID" as ChatKey;
const SEND = {
  name: "send_message",
  arguments: JSON.stringify({ chat: "onebot:group:123", text: "转发内容" }),
};

async function turnOf(calls: { name: string; arguments: string }[]) {
  const event = messageEvent({ chat: HERE, text: "看看并处理", sender: "ADMIN_OPENID" });
  const ctx = turnContext(event, { text: "看看并处理", settings: withIdentity(), now: TEST_NOW });
  const relay = new RecordingRelay();
  const model = new ScriptedChatModel([
    { toolCalls: calls.map((c, i) => ({ id: `c${i}`, ...c })) },
    { text: "好了" },
  ]);
  const result = await runTurn(ctx, turnPorts({ model, relay }), defaultTurnRegistry());
  const answers = model.requests[1]?.messages.filter((m) => m.role === "tool").map((m) => m.content) ?? [];
  return { relay, answers, audit: result.ok ? result.value.audit : [] };
}

const call = (name: string, args: Record<string, unknown>) => ({ name, arguments: JSON.stringify(args) });

describe("a turn that read another chat sends nothing to any chat", () => {
  it.for([
    ["another private chat, by name", call("history_recent", { chat: "qq:private:U9" })],
    ["another private chat, searched", call("history_search", { chat: "qq:private:U9", query: "地址" })],
    ["every chat it may reach", call("search_chat_history", { query: "地址" })],
    ["the other chats at once", call("recall_cross_chat", { query: "地址" })],
    ["a group", call("history_recent", { chat: "onebot:group:555" })],
  ] as const)("after reading %s", async ([, read], { expect }) => {
    const { relay, answers, audit } = await turnOf([read, SEND]);
    expect(relay.sent).toEqual([]);
    expect(answers.at(-1)).toContain("拒绝");
    expect(audit.filter((a) => a.action === "send_message")).toMatchObject([{ outcome: "refused" }]);
  });

  it.for([
    ["nothing", []],
    ["only where a chat is (find_chat)", [call("find_chat", { query: "123" })]],
    ["only this chat", [call("history_recent", {})]],
  ] as const)("still sends after reading %s", async ([, before], { expect }) => {
    const { relay } = await turnOf([...before, SEND]);
    expect(relay.sent).toEqual([{ from: HERE, to: "onebot:group:123", text: "转发内容" }]);
  });

  it("sends what it was told before it read anything", async ({ expect }) => {
    const { relay } = await turnOf([SEND, call("history_recent", { chat: "qq:private:U9" })]);
    expect(relay.sent).toHaveLength(1);
  });
});
