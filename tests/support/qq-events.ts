/** QQ webhook bodies and helpers to post them through the real Worker entry. */
import { runInDurableObject } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import type { ChatSession } from "@src/durable-objects/chat-session";
import { signedQqRequest } from "./qq-signing";
import { eventually } from "./wait";

export const TEST_APP_ID = "102000000";
export const TEST_SECRET = "kV8sZ2pQ7xR4mN1b";

/** A QQ message dispatch of type `t`; the event's and the message's ids are fresh unless given. */
export function qqMessageBody(
  t: string,
  d: Record<string, unknown>,
  ids: { id?: string | undefined; eventId?: string | undefined } = {},
) {
  return JSON.stringify({
    op: 0,
    id: ids.eventId ?? `${t}:${crypto.randomUUID()}`,
    t,
    d: { id: ids.id ?? `ROBOT1.0_${crypto.randomUUID()}`, ...d },
  });
}

export function groupAtBody(input: {
  group: string;
  member: string;
  text: string;
  id?: string;
  eventId?: string;
  ts?: string;
}) {
  return qqMessageBody(
    "GROUP_AT_MESSAGE_CREATE",
    {
      content: ` ${input.text}`,
      timestamp: input.ts ?? new Date().toISOString(),
      author: { id: input.member, member_openid: input.member },
      group_id: input.group,
      group_openid: input.group,
    },
    input,
  );
}

export function c2cBody(input: { user: string; text: string; id?: string; eventId?: string }) {
  return qqMessageBody(
    "C2C_MESSAGE_CREATE",
    {
      content: input.text,
      timestamp: new Date().toISOString(),
      author: { id: input.user, user_openid: input.user },
    },
    input,
  );
}

/** The QQ webhook request for `body`, signed with the test app's secret and id unless given. */
export const signedQq = (
  body: string,
  options: { timestamp?: string; secret?: string; appId?: string } = {},
) =>
  signedQqRequest("https://bot.test/webhook/qq", body, {
    secret: options.secret ?? TEST_SECRET,
    appId: options.appId ?? TEST_APP_ID,
    ...(options.timestamp ? { timestamp: options.timestamp } : {}),
  });

export async function postQq(
  body: string,
  options: { timestamp?: string; secret?: string; appId?: string } = {},
) {
  return exports.default.fetch(await signedQq(body, options));
}

/** Posts a private QQ message from `user` and waits for its turn; a post the webhook refuses throws. */
export async function sayInPrivate(user: string, text: string) {
  const body = c2cBody({ user, text });
  const res = await postQq(body);
  if (res.status !== 200) throw new Error(`webhook answered ${res.status}`);
  return turnDone(`qq:private:${user}`, eventIdOf(body));
}

export function eventIdOf(body: string): string {
  return (JSON.parse(body) as { id: string }).id;
}

/** Waits until the chat object finished the turn for this event. */
export async function turnDone(chatKey: string, eventId: string, timeoutMs = 10_000) {
  const stub = env.CHAT_SESSION.getByName(chatKey);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = await stub.turnStatus(eventId);
    if (status.state === "done") return status;
    if (Date.now() > deadline) throw new Error(`turn ${eventId} not done: ${status.state}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** The chat's rows in D1's log (the copy of a chat not yet migrated; the D1 adapters' own tests). */
export async function d1MessageRows(chatKey: string) {
  const { results } = await env.DB.prepare(
    "SELECT message_id, direction, text, user_id, nick FROM messages WHERE chat_key = ? ORDER BY ts, seq",
  )
    .bind(chatKey)
    .all<{
      message_id: string;
      direction: string;
      text: string;
      user_id: string | null;
      nick: string | null;
    }>();
  return results;
}

/** The chat's logged messages, oldest first, from its log: the chat's own object (decision 0471). */
export async function messageRows(chatKey: string) {
  return runInDurableObject(env.CHAT_SESSION.getByName(chatKey), (_o: ChatSession, state) =>
    state.storage.sql
      .exec<{
        message_id: string;
        direction: string;
        text: string;
        user_id: string | null;
        nick: string | null;
      }>(
        "SELECT message_id, direction, text, user_id, nick FROM messages WHERE chat_key = ? ORDER BY ts, seq",
        chatKey,
      )
      .toArray(),
  );
}

/** The chat's stored messages once there are `count` of them: the log is written after the turn. */
export const messageRowsOnceThere = (chatKey: string, count: number, timeoutMs?: number, what?: string) =>
  eventually(
    async () => {
      const r = await messageRows(chatKey);
      return r.length === count ? r : undefined;
    },
    timeoutMs,
    what,
  );
