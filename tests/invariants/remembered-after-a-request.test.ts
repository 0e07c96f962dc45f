// Own file: a chat domain is set through the stored settings, which every test of a file shares.
// A member asks the group for discretion ("跟你们说个事，别外传啊"), then asks the bot to remember
// what they say next. The item is the group's, and a sibling group linked to it reads the group's
// public items: it must not read this one (docs/sessions.md#marked-messages). Through the real
// OneBot webhook and chat objects, which log every group message, addressed or not.
import { exports } from "cloudflare:workers";
import { beforeAll, describe, it } from "vitest";
import { uid as idOf } from "../support/identity";
import { uid } from "../support/memory";
import { objectLogRows } from "../support/object-log";
import { atBot, oneBotMessage, SELF, text } from "../support/onebot-events";
import { signedOneBotRequest } from "../support/onebot-signing";
import { turnDone } from "../support/qq-events";
import { sessionsApi } from "../support/sessions";
import { siblingGroups } from "../support/sibling-groups";
import { toolTurn } from "../support/turns";
import { eventually } from "../support/wait";

const run = uid().slice(0, 6);
const GROUP = 710_000 + Math.floor(Math.random() * 80_000);
const GROUP_A = `onebot:group:${GROUP}`;
const GROUP_B = `qq:group:${idOf("GB")}`;
const MEMBER_B = idOf("MB");
let nextId = Math.floor(Math.random() * 2 ** 29);

/** Posts a group message of `user`, @-ing the bot when `addressed`; its event id. */
async function say(user: number, said: string, addressed: boolean): Promise<string> {
  const messageId = nextId++;
  const body = oneBotMessage({
    kind: "group",
    group: GROUP,
    user,
    messageId,
    segments: addressed ? [atBot, text(` ${said}`)] : [text(said)],
    rawMessage: addressed ? `[CQ:at,qq=${SELF}] ${said}` : said,
  });
  const res = await exports.default.fetch(await signedOneBotRequest("https://bot.test/webhook/onebot", body));
  if (res.status >= 300) throw new Error(`webhook: ${res.status}`);
  return `onebot:${SELF}:msg:${messageId}`;
}

/** What a turn of `chat` receives from memory_search about `query`. */
async function searched(chat: string, member: string, query: string): Promise<string> {
  const { answers } = await toolTurn(chat, member, [{ name: "memory_search", args: { query, limit: 50 } }]);
  return answers.join("\n");
}

beforeAll(async () => {
  await siblingGroups(`team${run}`, GROUP_A, GROUP_B);
  // A cluster link: B's turns read A's public memory items (docs/sessions.md#clusters).
  const linked = await sessionsApi(`/${GROUP_A}/link`, { with: GROUP_B });
  if (linked.status !== 200) throw new Error(`link: ${linked.status}`);
});

describe("what a member asks the bot to remember after asking for discretion", () => {
  it.for([
    ["跟你们说个事，别外传啊", `/remember 我下个月离职去创业${run}`, `离职去创业${run}`],
    ["有件事想跟大家说，但是千万别传出去", `记住：我欠了网贷八万${run}`, `网贷八万${run}`],
    ["just between us, ok?", `/remember 我在偷偷考公${run}`, `偷偷考公${run}`],
  ] as const)("stays in the group: %s", async ([request, remember, words], { expect }) => {
    const user = 20_000_000 + Math.floor(Math.random() * 9_000_000);
    await say(user, request, false);
    await eventually(
      async () => (await objectLogRows(GROUP_A)).some((r) => r.text.includes(request)) || undefined,
    );
    await turnDone(GROUP_A, await say(user, remember, true), 20_000);
    expect(await searched(GROUP_B, MEMBER_B, words)).not.toContain(words);
    // Group A's own turn reads it.
    expect(await searched(GROUP_A, `${user}`, words)).toContain(words);
  });

  it("a member who asked nothing is remembered for the linked group as before (the control)", async ({
    expect,
  }) => {
    const user = 30_000_000 + Math.floor(Math.random() * 9_000_000);
    await say(user, "今天天气真好", false);
    await turnDone(GROUP_A, await say(user, `/remember 我周末去钓鱼${run}`, true), 20_000);
    expect(await searched(GROUP_B, MEMBER_B, `周末去钓鱼${run}`)).toContain(`周末去钓鱼${run}`);
  });
});
