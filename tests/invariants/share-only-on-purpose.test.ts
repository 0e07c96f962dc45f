// docs/invariants.md#private-by-origin: what a person says in their private chat becomes public
// only by their clear permission. Every near miss of the share-marker corpus (a permission
// negated, asked, deferred, wished, reported from someone else, taken back, partial or joked) is
// said in a private chat through the real webhook, as /remember and as a message the model
// writes down as "public": no item of that chat is public. The clear permissions, said the same
// way in another private chat, do publish (the control that the path can publish at all).
// Dreaming is off in this file: dreaming's placement is the same reading (candidate-placement.ts).
import { env } from "cloudflare:workers";
import { chatObjectServices } from "@src/composition/chat-object/chat-object-services";
import type { ModelRequest, ModelResponse } from "@src/domain/model/chat-model";
import { beforeAll, describe, it, vi } from "vitest";
import { ScriptedChatModel } from "../fakes/scripted-chat-model";
import { uid } from "../support/memory";
import { SHARE_LINES } from "../support/share-markers";
import { storeSettings } from "../support/stored-settings";
import { inPlainPrivateChat } from "../support/turns";

/** In a private chat the model writes every message down as a public fact. */
function answer(req: ModelRequest): Partial<ModelResponse> {
  const last = req.messages.at(-1);
  if (last?.role === "tool" || !req.tools?.length) return { text: "好的" };
  const args = {
    kind: "fact",
    text: `他告诉我：${last?.content ?? ""}`.slice(0, 400),
    sensitivity: "public",
  };
  return { toolCalls: [{ id: "w", name: "memory_write", arguments: JSON.stringify(args) }] };
}

const model = new ScriptedChatModel(
  Array.from({ length: 2_000 }, () => async (req: ModelRequest) => answer(req)),
);

beforeAll(() => storeSettings(env, { memory: { dreaming: { enabled: false } } }));

/** Sensitivity of every memory item the chat taught. */
async function taught(chat: string) {
  const { results } = await env.DB.prepare(
    `SELECT raw_text, sensitivity FROM nodes
     WHERE node_type = 'memory' AND status = 'active' AND json_extract(provenance, '$.session') = ?`,
  )
    .bind(chat)
    .all<{ raw_text: string; sensitivity: string }>();
  return results;
}

/** Every chat object's model is `with` (mocks are restored after each test by the config). */
function scripted(with_: ScriptedChatModel) {
  const real = chatObjectServices.create.bind(chatObjectServices);
  vi.spyOn(chatObjectServices, "create").mockImplementation((e) => ({ ...real(e), model: with_ }));
}

async function sayEachTwice(user: string, lines: readonly string[]) {
  scripted(model);
  for (const text of lines) {
    await inPlainPrivateChat(user, `/remember ${text}`);
    await inPlainPrivateChat(user, text);
  }
}

describe("a private chat's words are shared only on purpose", () => {
  it("no near miss of a permission publishes anything, through /remember or memory_write", {
    timeout: 600_000,
  }, async ({ expect }) => {
    const user = `SN${uid()}`;
    const lines = SHARE_LINES.filter((l) => l.label === "none").map((l) => l.text);
    await sayEachTwice(user, lines);
    const items = await taught(`qq:private:${user}`);
    // Both paths wrote (a line that holds a credential-like value or no statement may not).
    expect(items.length).toBeGreaterThan(lines.length);
    expect(items.filter((i) => i.sensitivity === "public")).toEqual([]);
  });

  it("the clear permissions do publish, through both paths", { timeout: 600_000 }, async ({ expect }) => {
    const user = `SP${uid()}`;
    const lines = SHARE_LINES.filter((l) => l.label === "share").map((l) => l.text);
    await sayEachTwice(user, lines);
    const items = await taught(`qq:private:${user}`);
    const published = items.filter((i) => i.sensitivity === "public");
    expect(published.length).toBeGreaterThanOrEqual(Math.floor(1.6 * lines.length));
  });

  it("a model that writes an earlier private matter during a turn with a permission publishes nothing of it", {
    timeout: 60_000,
  }, async ({ expect }) => {
    const user = `SM${uid()}`;
    const secret = `确诊了糖尿病${uid().slice(0, 6)}`;
    scripted(
      new ScriptedChatModel(
        Array.from({ length: 20 }, () => async (req: ModelRequest) => {
          const last = req.messages.at(-1);
          // It writes nothing in the first turn, and the first turn's matter in the marked one.
          if (last?.role === "tool" || !req.tools?.length || !last?.content.includes("可以告诉大家"))
            return { text: "好的" };
          const args = { kind: "fact", text: `他上周${secret}`, sensitivity: "public" };
          return { toolCalls: [{ id: "w", name: "memory_write", arguments: JSON.stringify(args) }] };
        }),
      ),
    );
    await inPlainPrivateChat(user, `我上周${secret}`);
    await inPlainPrivateChat(user, "我升职了，可以告诉大家");
    const items = await taught(`qq:private:${user}`);
    expect(items.filter((i) => i.raw_text.includes(secret))).toHaveLength(1);
    expect(items.filter((i) => i.raw_text.includes(secret) && i.sensitivity === "public")).toEqual([]);
  });
});
