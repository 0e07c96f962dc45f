// Own file: a chat domain is set through the stored settings, which every test of a file shares.
// A group message whose speaker asked for privacy ("我下个月去做手术，别外传") is served to its own
// chat only (docs/invariants.md#one-read-gate). Dreaming reads that group's turns, marked ones
// included, and the model's summary of the run is a node a sibling chat's recall_cross_chat
// searches: whatever the model writes, nothing of a marked turn may reach the sibling that way.
import { env } from "cloudflare:workers";
import { D1MemoryStore } from "@src/adapters/d1/d1-memory-store";
import type { AccountKey } from "@src/domain/chat/chat-address";
import { silentLogger } from "@src/domain/kernel/logger";
import { type DreamTurn, dream } from "@src/domain/memory/dreaming";
import { explicitSensitivity } from "@src/domain/memory/sensitivity";
import { beforeAll, describe, expect, it } from "vitest";
import { ScriptedChatModel } from "../fakes/scripted-chat-model";
import { uid as idOf } from "../support/identity";
import { uid } from "../support/memory";
import { sessionsApi } from "../support/sessions";
import { siblingGroups } from "../support/sibling-groups";
import { toolTurn } from "../support/turns";

const run = uid().slice(0, 6);
const GROUP_A = `qq:group:${idOf("GA")}`;
const GROUP_B = `qq:group:${idOf("GB")}`;
const MEMBER_A = idOf("MA");
const OTHER_A = idOf("OA");
const MEMBER_B = idOf("MB");

beforeAll(async () => {
  await siblingGroups(`team${run}`, GROUP_A, GROUP_B);
  // A cluster link: B's turns read A's public memory items (docs/sessions.md#clusters).
  const linked = await sessionsApi(`/${GROUP_A}/link`, { with: GROUP_B });
  if (linked.status !== 200) throw new Error(`link: ${linked.status}`);
});

/** A group turn as the chat object journals it: the privacy request read from its words. */
function groupTurn(seq: number, member: string, text: string): DreamTurn {
  return {
    seq,
    role: "user",
    name: `群友${member.slice(-3)}`,
    account: `qq:user:${member}`,
    messageId: `${run}-${seq}-${member}`,
    text,
    ts: Date.now() - 60_000 + seq,
    explicitSensitivity: explicitSensitivity(text),
    identity: { enabled: false, account: `qq:user:${member}` as AccountKey, personId: null, declared: false },
  };
}

type ModelMemory = { kind: string; text: string; importance: number; turn: number; sensitivity: null };

/** Dreams group A's turns through a model that answers `summary` and `memories`. */
async function dreamGroupA(
  tag: string,
  turns: readonly DreamTurn[],
  summary: string | null,
  memories: readonly ModelMemory[] = [],
) {
  const model = new ScriptedChatModel([{ text: JSON.stringify({ memories, archive: [], summary }) }]);
  const report = await dream(
    { runId: `dream:${tag}`, session: GROUP_A, turns, now: Date.now(), useModel: true },
    { model, store: new D1MemoryStore(env.DB), logger: silentLogger, now: () => Date.now() },
  );
  if (!report.ok) throw new Error(report.error.reason);
}

/** Everything sibling group B's model receives from recall_cross_chat about `query`. */
async function siblingRecalls(query: string): Promise<string> {
  const { answers } = await toolTurn(GROUP_B, MEMBER_B, [
    { name: "recall_cross_chat", args: { query, limit: 20 } },
  ]);
  return answers.join("\n");
}

/** Everything `member`'s turn in `chat` receives from memory_search about `query`. */
async function memorySearch(chat: string, member: string, query: string): Promise<string> {
  const { answers } = await toolTurn(chat, member, [{ name: "memory_search", args: { query, limit: 50 } }]);
  return answers.join("\n");
}

/** The two ways a speaker marks a statement: in the message itself, or bare in the next one. */
const MARKINGS: [string, (said: string) => string[]][] = [
  ["in the message itself", (said) => [`${said}，别外传`]],
  ["as a bare request in the speaker's next message", (said) => [said, "这个别说出去哈"]],
];

/** MEMBER_A's turns from `seq` on that say they will have surgery, marked as `marked` marks it. */
function markedSurgery(marked: (said: string) => string[], tag: string, seq: number): DreamTurn[] {
  return marked(`我下个月去做手术${tag}`).map((text, i) => groupTurn(seq + i, MEMBER_A, text));
}

describe("dreaming a group never carries a marked message to a sibling chat", () => {
  it.each(MARKINGS)(
    "a run's summary that quotes a statement marked %s is not recalled from the sibling",
    async (_, marked) => {
      const tag = uid();
      const turns = [groupTurn(1, OTHER_A, `周六去爬山吗${tag}`), ...markedSurgery(marked, tag, 2)];
      // The premise: the chat object's journal reads the request.
      expect(turns.some((t) => t.explicitSensitivity !== null)).toBe(true);
      await dreamGroupA(tag, turns, `大家约了周六爬山${tag}；有人说下个月去做手术${tag}`);
      expect(await siblingRecalls(`做手术 ${tag}`)).not.toContain(`做手术${tag}`);
    },
  );

  it.each(MARKINGS)(
    "a statement marked %s, which the model cites as another member's turn, is not recalled from the sibling",
    async (_, marked) => {
      const tag = uid();
      // Both cases write the same sentence but for the tag, and a tag whose letters the other's
      // holds makes it a restatement the write path merges (restatement.ts): start with none.
      const cleared = await env.DB.prepare(
        "DELETE FROM nodes WHERE node_type = 'memory' AND scope_type = 'chat' AND scope_id = ?",
      )
        .bind(GROUP_A)
        .run();
      expect(cleared.success).toBe(true);
      const turns = [...markedSurgery(marked, tag, 1), groupTurn(5, OTHER_A, "祝顺利")];
      // The model writes the marked statement down under the unmarked reply's turn.
      const memory = {
        kind: "fact",
        text: `群友下个月去做手术${tag}`,
        importance: 0.9,
        turn: turns.length - 1,
      };
      await dreamGroupA(tag, turns, null, [{ ...memory, sensitivity: null }]);
      expect(await memorySearch(GROUP_B, MEMBER_B, `做手术 ${tag}`)).not.toContain(`做手术${tag}`);
      // Group A itself still recalls it: it was said there.
      expect(await memorySearch(GROUP_A, OTHER_A, `做手术 ${tag}`)).toContain(`做手术${tag}`);
    },
  );

  it("a run whose bot reply may repeat marked words (journaled private) is not recalled from the sibling", async ({
    expect,
  }) => {
    const tag = uid();
    // The statement was marked in an earlier run; this run holds only the bot's reply quoting it,
    // journaled at private because its turn held the marked words (turn-privacy.ts).
    const reply: DreamTurn = {
      ...groupTurn(2, OTHER_A, `祝你下个月做手术${tag}顺利`),
      role: "assistant",
      name: null,
      account: null,
      messageId: null,
      explicitSensitivity: "private",
      identity: null,
    };
    const turns = [groupTurn(1, OTHER_A, `周六去爬山吗${tag}`), reply];
    await dreamGroupA(tag, turns, `大家约了周六爬山${tag}；机器人祝一位群友下个月做手术${tag}顺利`);
    expect(await siblingRecalls(`做手术 ${tag}`)).not.toContain(`做手术${tag}`);
  });

  it("a run with no marked turn is summarized and remembered for the siblings as before (the control)", async () => {
    const tag = uid();
    const memory = {
      kind: "decision",
      text: `周六去爬山${tag}`,
      importance: 0.9,
      turn: 0,
      sensitivity: null,
    };
    await dreamGroupA(tag, [groupTurn(1, OTHER_A, `周六去爬山吗${tag}`)], `大家约了周六爬山${tag}`, [memory]);
    expect(await siblingRecalls(`爬山 ${tag}`)).toContain(`周六爬山${tag}`);
    expect(await memorySearch(GROUP_B, MEMBER_B, `爬山 ${tag}`)).toContain(`周六去爬山${tag}`);
  });
});
