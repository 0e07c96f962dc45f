import { exports } from "cloudflare:workers";
import { describe, it } from "vitest";
import { logQuery } from "../../support/object-log";
import { atBot, oneBotMessage, SELF, text } from "../../support/onebot-events";
import { signedOneBotRequest } from "../../support/onebot-signing";
import { messageRows, turnDone } from "../../support/qq-events";
import { eventually } from "../../support/wait";
import { webhookTraces } from "../../support/webhook-traces";

const groupMessage = (group: number, messageId: number, t: string, mentioned = true) =>
  oneBotMessage({
    kind: "group",
    group,
    user: 20001,
    messageId,
    segments: [...(mentioned ? [atBot] : []), text(t)],
    rawMessage: t,
  });

const post = (request: Request) => exports.default.fetch(request);
const url = "https://bot.test/webhook/onebot";

describe("POST /webhook/onebot", () => {
  it("accepts a correctly signed group message, replies to @bot and logs it", async ({ expect }) => {
    const group = 700_000 + Math.floor(Math.random() * 100_000);
    const messageId = Math.floor(Math.random() * 2 ** 30);
    const res = await post(await signedOneBotRequest(url, groupMessage(group, messageId, " /ping")));
    expect(res.status).toBe(204);
    const status = await turnDone(`onebot:group:${group}`, `onebot:${SELF}:msg:${messageId}`);
    expect(status.replies).toEqual([{ text: "pong", state: "sent" }]);
    const rows = await eventually(async () => {
      const r = await messageRows(`onebot:group:${group}`);
      return r.length === 2 ? r : undefined;
    });
    expect(rows.map((r) => r.text)).toEqual(["/ping", "pong"]);
  });

  it("logs unaddressed group chatter without a turn", async ({ expect }) => {
    const group = 800_000 + Math.floor(Math.random() * 100_000);
    const res = await post(await signedOneBotRequest(url, groupMessage(group, 42, "大家好", false)));
    expect(res.status).toBe(204);
    const rows = await eventually(async () => {
      const r = await messageRows(`onebot:group:${group}`);
      return r.length === 1 ? r : undefined;
    });
    expect(rows[0]).toMatchObject({ direction: "in", text: "大家好", nick: "小红" });
  });

  it.for([
    ["a wrong secret", async (body: string) => signedOneBotRequest(url, body, "wrong-secret")],
    [
      "a tampered body",
      async (body: string) => {
        const signed = await signedOneBotRequest(url, body);
        return new Request(url, {
          method: "POST",
          headers: signed.headers,
          body: body.replace("ping", "pong"),
        });
      },
    ],
    [
      "no signature",
      async (body: string) =>
        new Request(url, { method: "POST", body, headers: { "content-type": "application/json" } }),
    ],
  ] as const)("rejects %s with 401 and no state change", async ([, build], { expect }) => {
    const before = await webhookTraces();
    const res = await post(await build(groupMessage(900_001, 1, " /ping")));
    expect(res.status).toBe(401);
    expect(await webhookTraces()).toEqual(before);
  });

  it("answers malformed JSON and invalid events with 400, ignores meta events with 204", async ({
    expect,
  }) => {
    const before = await webhookTraces();
    expect((await post(await signedOneBotRequest(url, "{oops"))).status).toBe(400);
    expect(
      (await post(await signedOneBotRequest(url, '{"post_type":"message","message_type":"group"}'))).status,
    ).toBe(400);
    const heartbeat = JSON.stringify({
      time: Math.floor(Date.now() / 1000),
      self_id: SELF,
      post_type: "meta_event",
      meta_event_type: "heartbeat",
    });
    expect((await post(await signedOneBotRequest(url, heartbeat))).status).toBe(204);
    expect(await webhookTraces()).toEqual(before);
  });

  it("marks a recalled message in the log", async ({ expect }) => {
    const group = 600_000 + Math.floor(Math.random() * 100_000);
    await post(await signedOneBotRequest(url, groupMessage(group, 77, "说错了", false)));
    await eventually(async () => (await messageRows(`onebot:group:${group}`)).length === 1);
    const recall = JSON.stringify({
      time: Math.floor(Date.now() / 1000),
      self_id: SELF,
      post_type: "notice",
      notice_type: "group_recall",
      group_id: group,
      user_id: 20001,
      operator_id: 20001,
      message_id: 77,
    });
    expect((await post(await signedOneBotRequest(url, recall))).status).toBe(204);
    await eventually(async () => {
      const [row] = await logQuery<{ recalled: number }>(
        `onebot:group:${group}`,
        "SELECT recalled FROM messages",
      );
      return row?.recalled === 1;
    });
  });
});
