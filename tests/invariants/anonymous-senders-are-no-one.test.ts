// A OneBot group message is taken only when it names the member who said it
// (docs/invariants.md#an-event-is-taken-only-when-its-chat-and-sender-are-certain). Anonymous
// members all arrive as user 80000000: taken as messages, they would be one account, and one
// anonymous member's /memory would list, and /forget delete, what another anonymous member
// asked the bot to remember. Through the real webhook and chat objects, D1 read afterwards.
import { env, exports } from "cloudflare:workers";
import { describe, it } from "vitest";
import { atBot, oneBotMessage, SELF, text } from "../support/onebot-events";
import { signedOneBotRequest } from "../support/onebot-signing";
import { turnDone } from "../support/qq-events";

const GROUP = 700_000 + Math.floor(Math.random() * 90_000);
const CHAT = `onebot:group:${GROUP}`;
const ANONYMOUS_USER = 80_000_000;
let nextId = Math.floor(Math.random() * 2 ** 29);

/** A group message @-ing the bot; `anonymous` makes it an anonymous member's, as go-cqhttp reports it. */
function groupMessage(said: string, from: { user: number; anonymous?: { id: number; name: string } }) {
  const messageId = nextId++;
  const body = JSON.parse(
    oneBotMessage({
      kind: "group",
      group: GROUP,
      user: from.user,
      messageId,
      segments: [atBot, text(` ${said}`)],
      rawMessage: `[CQ:at,qq=${SELF}] ${said}`,
      nickname: from.anonymous?.name ?? "小明",
    }),
  ) as Record<string, unknown>;
  if (from.anonymous) {
    body.sub_type = "anonymous";
    body.anonymous = { ...from.anonymous, flag: `${from.anonymous.name}|${from.anonymous.id}` };
  }
  return { body: JSON.stringify(body), eventId: `onebot:${SELF}:msg:${messageId}` };
}

async function post(body: string) {
  return exports.default.fetch(await signedOneBotRequest("https://bot.test/webhook/onebot", body));
}

async function memoryRowsHolding(fragment: string) {
  const { results } = await env.DB.prepare(
    "SELECT node_id FROM nodes WHERE node_type = 'memory' AND raw_text LIKE ?",
  )
    .bind(`%${fragment}%`)
    .all<{ node_id: string }>();
  return results;
}

describe("anonymous group members", () => {
  it("are answered 204 and taken nowhere: no turn, no memory, no /memory of another's items", async ({
    expect,
  }) => {
    const stub = env.CHAT_SESSION.getByName(CHAT);
    const first = groupMessage("/remember 我每周三晚上去游泳", {
      user: ANONYMOUS_USER,
      anonymous: { id: 1, name: "匿名甲" },
    });
    expect((await post(first.body)).status).toBe(204);
    // The webhook answers once the chat object stored the event: one it dropped has no state.
    const firstState = (await stub.turnStatus(first.eventId)).state;
    if (firstState !== "unknown") await turnDone(CHAT, first.eventId, 20_000);

    const second = groupMessage("/memory", { user: ANONYMOUS_USER, anonymous: { id: 2, name: "匿名乙" } });
    expect((await post(second.body)).status).toBe(204);
    const secondState = (await stub.turnStatus(second.eventId)).state;
    if (secondState !== "unknown") {
      const listed = await turnDone(CHAT, second.eventId, 20_000);
      expect(JSON.stringify(listed.replies), "another anonymous member's /memory").not.toContain("游泳");
    }
    expect([firstState, secondState]).toEqual(["unknown", "unknown"]);
    expect(await memoryRowsHolding("每周三晚上去游泳")).toEqual([]);
  });

  it("a named member's same words are taken and remembered (the control)", async ({ expect }) => {
    const said = groupMessage("/remember 我每周四晚上去跑步", { user: 20_001 });
    expect((await post(said.body)).status).toBe(204);
    const status = await turnDone(CHAT, said.eventId, 20_000);
    expect(status.replies.length).toBeGreaterThan(0);
    expect(await memoryRowsHolding("每周四晚上去跑步")).toHaveLength(1);
  });
});
