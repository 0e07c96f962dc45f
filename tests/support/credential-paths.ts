// What the credentials-*-stored-nowhere invariants share: the admin and the settings they run
// under, the corpus samples, and the paths a credential takes in: QQ and OneBot messages,
// scripted model turns and dreams, and the chat's log read back.
import { env, exports } from "cloudflare:workers";
import { chatObjectServices } from "@src/composition/chat-object/chat-object-services";
import type { ModelRequest, ModelResponse } from "@src/domain/model/chat-model";
import { vi } from "vitest";
import { POSITIVES } from "../domain/privacy/credential-corpus";
import { ScriptedChatModel } from "../fakes/scripted-chat-model";
import { uid } from "./memory";
import { logQuery } from "./object-log";
import { oneBotMessage, SELF } from "./onebot-events";
import { signedOneBotRequest } from "./onebot-signing";
import { eventIdOf, postQq, turnDone } from "./qq-events";
import { storeSettings } from "./stored-settings";
import { eventually } from "./wait";

export const ADMIN_USER = `ADM${uid()}`;

/** What memory answers when what it is asked to keep holds a credential. */
export const REFUSED = "这看起来像密码、令牌或密钥，我不会记下来。";

/** A fresh person, their private chat, and a fresh group they speak in. */
export function personAndGroup(prefix: string) {
  const tag = uid();
  const user = `U${prefix}${tag}`;
  const group = `G${prefix}${tag}`;
  return { user, chatKey: `qq:private:${user}`, group, groupKey: `qq:group:${group}` };
}

/** The corpus message that carries `secret`: the project's own samples, not made up here. */
export function sample(secret: string): string {
  const found = POSITIVES.find(([, s]) => s === secret);
  if (!found) throw new Error(`no corpus sample carries ${secret}`);
  return found[0];
}

// ---------------------------------------------------------------------------------------------
// Driving the paths.

export async function say(body: string, chatKey: string) {
  const res = await postQq(body);
  if (res.status !== 200) throw new Error(`webhook answered ${res.status}`);
  return turnDone(chatKey, eventIdOf(body), 20_000);
}

export const postOneBot = async (body: string) =>
  exports.default.fetch(await signedOneBotRequest("https://bot.test/webhook/onebot", body));

export const randomId = (base: number) => base + Math.floor(Math.random() * 90_000_000);

/**
 * Posts a OneBot message to a new group (ids drawn above `groupBase`); the webhook's status, the
 * chat's key, and a wait for the message's turn.
 */
export async function postOneBotGroup(
  message: Omit<Parameters<typeof oneBotMessage>[0], "kind" | "group" | "user" | "messageId">,
  groupBase: number,
) {
  const group = randomId(groupBase);
  const messageId = randomId(1);
  const body = oneBotMessage({ kind: "group", group, user: randomId(20_000), messageId, ...message });
  const { status } = await postOneBot(body);
  const chatKey = `onebot:group:${group}`;
  return { status, chatKey, turnDone: () => turnDone(chatKey, `onebot:${SELF}:msg:${messageId}`, 20_000) };
}

export const EMPTY_DREAM = JSON.stringify({ memories: [], archive: [], summary: null });

/**
 * A model for the chat objects created while the spy is in place: turns are answered by
 * `turn`, dreaming's extraction (the request with a JSON schema) by `dream`.
 */
export function scripted(turn: (req: ModelRequest) => Partial<ModelResponse>, dream = EMPTY_DREAM) {
  const step = async (req: ModelRequest): Promise<Partial<ModelResponse>> =>
    req.jsonSchema ? { text: dream } : turn(req);
  const model = new ScriptedChatModel(Array.from({ length: 30 }, () => step));
  const real = chatObjectServices.create.bind(chatObjectServices);
  vi.spyOn(chatObjectServices, "create").mockImplementation((e) => ({ ...real(e), model }));
  return model;
}

export const logText = async (chatKey: string) =>
  (
    await logQuery<{ text: string }>(
      chatKey,
      "SELECT text FROM messages WHERE direction = 'in' ORDER BY ts, seq",
    )
  ).map((r) => r.text);

export const logged = (chatKey: string, n: number) =>
  eventually(async () => {
    const rows = await logText(chatKey);
    return rows.length >= n ? rows : undefined;
  }, 20_000);

/** Identity enabled with one admin, dreaming after two turns: the settings every path runs under. */
export async function enableIdentityAndDreaming() {
  await storeSettings(env, {
    memory: { dreaming: { afterTurns: 2 } },
    identity: { enabled: true, people: [], admins: [`qq:user:${ADMIN_USER}`], chatDomains: {} },
  });
}
