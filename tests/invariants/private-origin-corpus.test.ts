// Own file: identity (a declared person with a group and a private account) and dreaming are
// set through the stored settings, and the chat objects' model is replaced, for the whole file.
// The whole labelled wording corpus (tests/fixtures/privacy/requests.jsonl, dev and held: requests
// and non-requests, every language and variant, with the messages before and after a marker) is
// said in the person's private chat through the real webhook — as `/remember`, and as an ordinary
// message the model writes down with memory_write marked public and dreaming extracts as public.
// Private by origin (docs/invariants.md#private-by-origin): then no group turn of that very
// person — its model input, its tool results, its reply, its preview — holds any of it, while the
// same searches in the private chat find it.
import { env } from "cloudflare:workers";
import { chatObjectServices } from "@src/composition/chat-object/chat-object-services";
import { shareRequested } from "@src/domain/memory/origin";
import type { ModelRequest, ModelResponse } from "@src/domain/model/chat-model";
import { beforeAll, describe, it, vi } from "vitest";
import { ScriptedChatModel } from "../fakes/scripted-chat-model";
import { settleDreams } from "../support/dream-settle";
import { uid as idOf } from "../support/identity";
import { declared, qqUsers, storeIdentity } from "../support/identity-settings";
import { uid } from "../support/memory";
import { preview } from "../support/preview";
import { PRIVACY_REQUESTS } from "../support/privacy-requests";
import { inGroupChat, inPrivateChat, toolTurn } from "../support/turns";
import { eventually } from "../support/wait";

const run = uid().slice(0, 6);
const ALICE = `alice${run}`;
const ALICE_G = idOf("CG");
/** One private account of the person per split, so each split reads only what it said. */
const ALICE_P = { dev: idOf("CPD"), held: idOf("CPH") };
const GROUP_ID = idOf("CGR");
const GROUP = `qq:group:${GROUP_ID}`;
/** memory_search calls per group turn. */
const BATCH = 12;

/** What the group turn is about: which corpus lines its model searches for. */
let searches: readonly string[] = [];

/**
 * The model of every chat object: in the private chat it writes each message down as a public
 * fact; dreaming extracts every user turn as a public fact; in a group it searches memory for the
 * lines of `searches` and then repeats every tool result it got, word for word.
 */
function answer(req: ModelRequest): Partial<ModelResponse> {
  if (req.jsonSchema) {
    const payload = JSON.parse(req.messages.at(-1)?.content ?? "{}") as {
      turns?: { turn: number; role: string; text: string }[];
    };
    const users = (payload.turns ?? []).filter((t) => t.role === "user").slice(0, 20);
    return {
      text: JSON.stringify({
        memories: users.map((t) => ({
          kind: "fact",
          text: `爱丽丝说过：${t.text}`.slice(0, 400),
          importance: 0.9,
          turn: t.turn,
          sensitivity: "public",
        })),
        archive: [],
        summary: `爱丽丝私聊里说了：${users.map((t) => t.text).join("；")}`.slice(0, 1000),
      }),
    };
  }
  const last = req.messages.at(-1);
  if (last?.role === "tool" || !req.tools?.length) {
    const results = req.messages.filter((m) => m.role === "tool").map((m) => m.content);
    return { text: results.length ? results.join("\n") : "好的" };
  }
  const inGroup = req.messages.some((m) => m.role === "user" && m.content.includes("那些事"));
  const calls = inGroup
    ? searches.map((q, i) => ({
        id: `s${i}`,
        name: "memory_search",
        arguments: JSON.stringify({ query: q, limit: 20 }),
      }))
    : [
        {
          id: "w",
          name: "memory_write",
          arguments: JSON.stringify({
            kind: "fact",
            text: `爱丽丝告诉我：${last?.content ?? ""}`.slice(0, 400),
            sensitivity: "public",
          }),
        },
      ];
  return { toolCalls: calls };
}

const model = new ScriptedChatModel(
  Array.from({ length: 20_000 }, () => async (req: ModelRequest) => answer(req)),
);

beforeAll(async () => {
  await storeIdentity(
    { people: [declared(ALICE, "爱丽丝", qqUsers(ALICE_G, ALICE_P.dev, ALICE_P.held))], admins: [] },
    {
      memory: {
        dreaming: { afterTurns: 10, maxTurnsPerRun: 40 },
        mandatory: { minImportance: 0.5, maxItems: 50, tokenBudget: 20_000 },
        retrieval: { recallLimit: 20, searchLimit: 20 },
      },
    },
  );
});

/** Every chat object's model is `model` (mocks are restored after each test by the config). */
function scriptedModel() {
  const real = chatObjectServices.create.bind(chatObjectServices);
  vi.spyOn(chatObjectServices, "create").mockImplementation((e) => ({ ...real(e), model }));
}

/** How long a turn of this file may take: 30 s, not the usual 10. */
const TURN_MS = 30_000;
const inPrivate = (user: string, text: string) => inPrivateChat(user, text, TURN_MS);

/** Every active item and summary the private chat taught, by the session it was written from. */
async function learnedInPrivate(chat: string) {
  const { results } = await env.DB.prepare(
    `SELECT node_id, node_type, raw_text, sensitivity, sensitivity_source FROM nodes
     WHERE node_type IN ('memory', 'summary') AND status = 'active' AND json_extract(provenance, '$.session') = ?`,
  )
    .bind(chat)
    .all<{
      node_id: string;
      node_type: string;
      raw_text: string;
      sensitivity: string;
      sensitivity_source: string;
    }>();
  return results;
}

/**
 * Dreaming runs after the turns, once they are older than a naming's wait: the items once a
 * summary exists and nothing new came for a while.
 */
async function settled(chat: string) {
  await settleDreams(chat);
  let last = -1;
  let still = 0;
  return eventually(
    async () => {
      const now = await learnedInPrivate(chat);
      still = now.length === last ? still + 1 : 0;
      last = now.length;
      if (still < 8 || !now.some((r) => r.node_type === "summary")) {
        await new Promise((r) => setTimeout(r, 250));
        return undefined;
      }
      return now;
    },
    120_000,
    "dreaming to settle",
  );
}

const chunks = <T>(xs: readonly T[], n: number): T[][] =>
  Array.from({ length: Math.ceil(xs.length / n) }, (_, i) => xs.slice(i * n, (i + 1) * n));

describe.each(["dev", "held"] as const)("the %s wording corpus said in a private chat", (split) => {
  const lines = PRIVACY_REQUESTS.filter((l) => l.split === split);
  const user = ALICE_P[split];
  const chat = `qq:private:${user}`;

  it("reaches no group turn of the same person: model input, tool results, reply or preview", {
    timeout: 1_800_000,
  }, async ({ expect }) => {
    scriptedModel();
    // 1. Said privately: /remember, and as a message (memory_write, then dreaming).
    for (const l of lines) {
      for (const text of [l.previous, l.text, l.next]) if (text) await inPrivate(user, text);
      await inPrivate(user, `/remember ${l.text}`);
    }
    await inPrivate(user, "好了，就这些");
    const items = await settled(chat);
    expect(items.length).toBeGreaterThan(2 * lines.length);
    // Every one is private by origin (or stricter), whatever the wording and the model's "public" —
    // except what the person's own message said may be shared ("这个可以告诉大家", "不用保密").
    const shareLines = lines
      .flatMap((l) => [l.previous, l.text, l.next])
      .filter((t) => t && shareRequested(t));
    expect(shareLines.length).toBeLessThan(lines.length / 10);
    const published = items.filter((r) => r.sensitivity === "public");
    // A /remember keeps the statement in the third person: "我要结婚了" as "用户E4F4要结婚了"
    // (speaker-name.ts).
    const firstPerson = (raw: string) => raw.replace(/^用户[0-9A-Za-z]{4}/, "我");
    expect(
      published.filter(
        // The marker is cut from a /remember's text: what is left is words of the marked message.
        (r) =>
          !shareLines.some(
            (t) => t && (r.raw_text.includes(t) || [...firstPerson(r.raw_text)].every((c) => t.includes(c))),
          ),
      ),
    ).toEqual([]);
    const hidden = items.filter((r) => r.sensitivity !== "public");

    // 2. The person asks in the group, and the group's model searches for every line.
    // A text that short, or inside a shared item's, can be in a group turn without a leak
    // ("你" is in the group message itself); the ids below cover those items too.
    const texts = hidden
      .map((r) => r.raw_text)
      .filter((t) => [...t].length >= 6 && !published.some((p) => p.raw_text.includes(t)));
    expect(texts.length).toBeGreaterThan(lines.length);
    const ids = new Set(hidden.map((r) => r.node_id));
    const leaks: string[] = [];
    let foundInPrivate = 0;
    for (const [i, batch] of chunks(lines, BATCH).entries()) {
      searches = batch.map((l) => l.text);
      const from = model.requests.length;
      const reply = await inGroupChat(GROUP_ID, ALICE_G, `那些事你还记得吗 ${split}${i}`, TURN_MS);
      // What the group's model received, without its own scripted calls (they carry the queries).
      const received = model.requests
        .slice(from)
        .flatMap((r) => r.messages.filter((m) => m.role !== "assistant").map((m) => m.content))
        .join("\n");
      const p = await preview({ chat: GROUP, sender: ALICE_G, text: searches.join(" ").slice(0, 800) });
      const shown = [...p.mandatory.pinned, ...p.recalled];
      const seen = `${reply}\n${received}\n${shown.map((s) => s.text).join("\n")}\n${p.mandatory.summary ?? ""}`;
      for (const t of texts) if (seen.includes(t)) leaks.push(t);
      for (const s of shown) if (s.nodeId && ids.has(s.nodeId)) leaks.push(s.nodeId);
      // Control: the same searches in the person's private chat find what was said there.
      const own = await toolTurn(
        chat,
        user,
        searches.map((query) => ({ name: "memory_search", args: { query, limit: 20 } })),
        "查一下",
      );
      foundInPrivate += texts.filter((t) => own.answers.some((a) => a.includes(t))).length;
    }
    expect(leaks).toEqual([]);
    expect(foundInPrivate).toBeGreaterThan(lines.length);
  });
});
