/**
 * Turns for the adversarial tests: a real turn over the chat object's own services with a
 * scripted model (every tool answer and everything the model received), and a message sent
 * through the real webhook (the replies). Integration tests only.
 */
import { env } from "cloudflare:workers";
import { chatObjectServices } from "@src/composition/chat-object/chat-object-services";
import { loadSettings } from "@src/composition/settings/settings-loader";
import { runTurn } from "@src/domain/agent/turn";
import type { TurnContext } from "@src/domain/agent/turn-context";
import { FakeShortTermContext } from "../fakes/fake-short-term-context";
import { messageEvent } from "../fakes/inbound";
import { ScriptedChatModel } from "../fakes/scripted-chat-model";
import { c2cBodyWithIdentity, groupBodyWithIdentity } from "./identity";
import { c2cBody, eventIdOf, postQq, turnDone } from "./qq-events";

export type ToolCallSpec = { readonly name: string; readonly args: Record<string, unknown> };

/** A real turn of `userId` in `chat` over the chat object's own services, `model` in place of the real one. */
export async function scriptedTurn(chat: string, userId: string, text: string, model: ScriptedChatModel) {
  const deps = chatObjectServices.create(env);
  const event = messageEvent({ chat, text, sender: userId, name: userId });
  const sender = event.sender;
  if (!sender) throw new Error("no sender");
  const identity = await deps.identity.resolve({ account: sender.account, chatKey: chat, unionId: null });
  const ctx: TurnContext = {
    event,
    chat: event.chat,
    sender,
    identity,
    text,
    recent: [],
    settings: await loadSettings(env),
    now: Date.now(),
  };
  const ports = {
    ...deps,
    model,
    shortTermContext: new FakeShortTermContext(() => Date.now()),
    relay: deps.relayLoggingTo(() => {}),
  };
  return runTurn(ctx, ports, deps.registry);
}

/**
 * A real turn in `chat` by `userId` over the chat object's own services (D1, links, identity,
 * the default registry and its guard), the scripted model calling every tool of `calls` at
 * once. Returns each tool's answer in order, everything the model received, the replies and
 * what the turn recorded for the audit log.
 */
export async function toolTurn(
  chat: string,
  userId: string,
  calls: readonly ToolCallSpec[],
  text = "查一下",
) {
  const model = new ScriptedChatModel([
    {
      toolCalls: calls.map((c, i) => ({ id: `c${i}`, name: c.name, arguments: JSON.stringify(c.args) })),
    },
    { text: "好" },
  ]);
  const result = await scriptedTurn(chat, userId, text, model);
  if (!result.ok) throw new Error(`turn failed: ${JSON.stringify(result.error)}`);
  const answers = (model.requests[1]?.messages ?? []).filter((m) => m.role === "tool").map((m) => m.content);
  if (answers.length !== calls.length) throw new Error(`expected ${calls.length} tool answers`);
  return {
    answers,
    received: JSON.stringify(model.requests),
    replies: result.value.replies,
    audit: result.value.audit,
  };
}

/** Posts a signed QQ body through the Worker and waits for its turn: the replies, joined. */
export async function say(body: string, chatKey: string, timeoutMs?: number): Promise<string> {
  const res = await postQq(body);
  if (res.status !== 200) throw new Error(`webhook answered ${res.status}`);
  const status = await turnDone(chatKey, eventIdOf(body), timeoutMs);
  return status.replies.map((r) => r.text).join("\n");
}

/** `user` says `text` in their private chat as a plain QQ message: the replies, joined. */
export const inPlainPrivateChat = (user: string, text: string) =>
  say(c2cBody({ user, text }), `qq:private:${user}`);

/** `user` says `text` in their private chat, with the identity fields QQ sends (union id, name). */
export const inPrivateChat = (user: string, text: string, timeoutMs?: number) =>
  say(c2cBodyWithIdentity({ user, text }), `qq:private:${user}`, timeoutMs);

/** `member` says `text` in the group `group` (its id), with the identity fields QQ sends. */
export const inGroupChat = (group: string, member: string, text: string, timeoutMs?: number) =>
  say(groupBodyWithIdentity({ group, member, text }), `qq:group:${group}`, timeoutMs);
