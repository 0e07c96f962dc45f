/**
 * Reminder tests through the real webhook and chat object: OneBot private and group messages,
 * an outbound that records what the object pushed, and the object's reminder rows made due.
 */
import { runInDurableObject } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { chatObjectServices } from "@src/composition/chat-object/chat-object-services";
import type { Outbound, OutboundMessage } from "@src/domain/agent/outbound";
import { ok } from "@src/domain/kernel/result";
import type { ChatSession } from "@src/durable-objects/chat-session";
import { beforeEach, vi } from "vitest";
import { atBot, oneBotMessage, SELF, text } from "./onebot-events";
import { signedOneBotRequest } from "./onebot-signing";
import { turnDone } from "./qq-events";

/** Every message the chat objects pushed or replied, with the chat it went to. */
export class RecordingPushes implements Outbound {
  readonly sent: { chat: string; text: string; reply: string }[] = [];
  /** When set, the next send is recorded as delivered and then throws (evicted mid-send). */
  dieAfterDelivering = false;
  async send(message: OutboundMessage) {
    this.sent.push({ chat: message.chat.key, text: message.text, reply: message.reply.kind });
    if (this.dieAfterDelivering) {
      this.dieAfterDelivering = false;
      throw new Error("evicted after the platform accepted the message");
    }
    return ok({ messageId: `OUT-${crypto.randomUUID()}`, ts: Date.now(), duplicate: false });
  }
}

/** Chat objects created from now on send through `pushes`. */
export function recordPushes(pushes: RecordingPushes): void {
  const real = chatObjectServices.create.bind(chatObjectServices);
  vi.spyOn(chatObjectServices, "create").mockImplementation((e) => ({ ...real(e), outbound: () => pushes }));
}

/** One RecordingPushes that every chat object of each test sends through, emptied before each test. */
export function pushesOfEachTest(): RecordingPushes {
  const pushes = new RecordingPushes();
  beforeEach(() => {
    pushes.sent.length = 0;
    pushes.dieAfterDelivering = false;
    recordPushes(pushes);
  });
  return pushes;
}

/** Runs the chat object's alarm handler now, as a retried alarm would (whether or not one is set). */
export const alarmNow = (chat: string) =>
  runInDurableObject(env.CHAT_SESSION.getByName(chat), (o: ChatSession) => o.alarm());

let nextMessageId = 1 + Math.floor(Math.random() * 1_000_000) * 1000;

/** A OneBot message through the Worker; resolves with the replies once its turn is done. */
export async function sayOneBot(input: { user: number; group?: number; text: string }): Promise<string> {
  const messageId = nextMessageId++;
  const kind = input.group === undefined ? "private" : "group";
  const body = oneBotMessage({
    kind,
    user: input.user,
    ...(input.group === undefined ? {} : { group: input.group }),
    messageId,
    segments: [...(kind === "group" ? [atBot] : []), text(input.text)],
    rawMessage: input.text,
    nickname: "小明",
  });
  const res = await exports.default.fetch(await signedOneBotRequest("https://bot.test/webhook/onebot", body));
  if (res.status !== 204) throw new Error(`webhook answered ${res.status}`);
  const chat = kind === "group" ? `onebot:group:${input.group}` : `onebot:private:${input.user}`;
  const status = await turnDone(chat, `onebot:${SELF}:msg:${messageId}`, 20_000);
  return status.replies.map((r) => r.text).join("\n");
}

export type ReminderRow = { id: number; state: string; text: string; due_at: number; attempts: number };

/** The chat object's reminder rows. */
export function reminderRows(chat: string): Promise<ReminderRow[]> {
  return runInDurableObject(env.CHAT_SESSION.getByName(chat), (_o, state) =>
    state.storage.sql
      .exec<ReminderRow>("SELECT id, state, text, due_at, attempts FROM reminders ORDER BY id")
      .toArray(),
  );
}

/** Moves every open reminder of the chat to a moment ago: the clock need not be faked. */
export function makeDue(chat: string): Promise<void> {
  return runInDurableObject(env.CHAT_SESSION.getByName(chat), (_o, state) => {
    state.storage.sql.exec("UPDATE reminders SET due_at = ? WHERE state = 'open'", Date.now() - 1000);
  });
}

/** The alarm the chat object has set, or null. */
export function alarmOf(chat: string): Promise<number | null> {
  return runInDurableObject(env.CHAT_SESSION.getByName(chat), (_o, state) => state.storage.getAlarm());
}
