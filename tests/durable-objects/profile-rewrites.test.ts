// The chat model's profile in the chat object: a group turn reads the speaker's profile in the
// items' own words and is answered first; the alarm then asks the model for the rewrite with the
// group's items alone, keeps it at that version, and the next turn reads it. Own file: it stores
// identity settings and replaces the chat object's model.
import { env } from "cloudflare:workers";
import { chatObjectServices } from "@src/composition/chat-object/chat-object-services";
import type { PersonProfilesView } from "@src/composition/request/identity-service";
import { ProfileRewriteQueue } from "@src/domain/memory/profile-rewrite";
import { beforeAll, describe, it, vi } from "vitest";
import { ScriptedChatModel } from "../fakes/scripted-chat-model";
import { adminApi } from "../support/admin-api";
import { groupBodyWithIdentity, uid as idOf } from "../support/identity";
import { newMemory, seedMemory, uid } from "../support/memory";
import { preview } from "../support/preview";
import { eventIdOf, postQq, turnDone } from "../support/qq-events";
import { storeSettings } from "../support/stored-settings";
import { eventually } from "../support/wait";

const run = uid().slice(0, 6);
const PERSON = `kai${run}`;
const MEMBER = idOf("KAI");
const GROUP_ID = idOf("G");
const GROUP = `qq:group:${GROUP_ID}`;
const PUBLIC = `周末在社区教小朋友下围棋${run}`;
const PRIVATE = [`其实在偷偷看心理咨询${run}`, `房贷还差四十万没还完${run}`];

function withModel(model: ScriptedChatModel, rewrites = new ProfileRewriteQueue()) {
  const real = chatObjectServices.create.bind(chatObjectServices);
  vi.spyOn(chatObjectServices, "create").mockImplementation((e) => {
    const services = real(e);
    return { ...services, model, memory: { ...services.memory, rewrites } };
  });
}

const profileRow = () =>
  env.DB.prepare("SELECT text, written_by FROM person_profiles WHERE subject LIKE ? AND audience = 'public'")
    .bind(`%person:${PERSON}`)
    .first<{ text: string; written_by: string }>();

const IDENTITY = {
  identity: { enabled: true, people: [{ id: PERSON, displayName: "凯", accounts: [`qq:user:${MEMBER}`] }] },
};

beforeAll(async () => {
  await storeSettings(env, IDENTITY);
  await seedMemory([
    newMemory(`person:${PERSON}`, PUBLIC, { kind: "fact" }),
    ...PRIVATE.map((t) =>
      newMemory(`person:${PERSON}`, t, { kind: "fact", sensitivity: "private", importance: 1 }),
    ),
  ]);
});

describe("the chat model's profile in a chat", () => {
  it("is written after the turn's reply, from the group's items alone, and read by the next turn", async ({
    expect,
  }) => {
    const model = new ScriptedChatModel([{ text: "好呀" }, { text: `会在周末教小朋友下围棋的人。${run}` }]);
    withModel(model);
    const body = groupBodyWithIdentity({ group: GROUP_ID, member: MEMBER, text: "大家好" });
    await postQq(body);
    const done = await turnDone(GROUP, eventIdOf(body));
    expect(done.replies.map((r) => r.text)).toEqual(["好呀"]);
    // The turn read the items' own words; the rewrite came after it.
    expect(JSON.stringify(model.requests[0]?.messages)).toContain(PUBLIC);
    const row = await eventually(async () => {
      const r = await profileRow();
      return r?.written_by === "model" ? r : undefined;
    });
    expect(row.text).toBe(`会在周末教小朋友下围棋的人。${run}`);
    const asked = JSON.stringify(model.requests[1]?.messages);
    expect(asked).toContain(PUBLIC);
    for (const p of PRIVATE) expect(asked).not.toContain(p);
    const usage = await eventually(async () => {
      const r = await env.DB.prepare(
        "SELECT count(*) AS n FROM model_usage WHERE chat_key = ? AND purpose = 'profile'",
      )
        .bind(GROUP)
        .first<{ n: number }>();
      return r && r.n > 0 ? r.n : undefined;
    });
    expect(usage).toBe(1);
    const next = await preview({ chat: GROUP, sender: MEMBER, text: "你好" });
    expect(next.mandatory.profile).toBe(`会在周末教小朋友下围棋的人。${run}`);
    // Admins see who wrote it.
    const shown = await adminApi(`/identity/profiles?person=${PERSON}`);
    const view = (await shown.json()) as PersonProfilesView;
    expect(view.accounts[0]?.public).toMatchObject({ text: next.mandatory.profile, byModel: true });
    expect(view.accounts[0]?.own.byModel).toBe(false);
  });

  it("is never asked of the model with memory.profiles.rewriteWithModel off", async ({ expect }) => {
    await storeSettings(env, { ...IDENTITY, memory: { profiles: { rewriteWithModel: false } } });
    // A new item: the profile the first test's model wrote is no longer current.
    const fresh = `也喜欢在河边钓鱼${run}`;
    await seedMemory([newMemory(`person:${PERSON}`, fresh, { kind: "fact" })]);
    const model = new ScriptedChatModel([{ text: "好呀" }, { text: "不该被问到的改写" }]);
    const queue = new ProfileRewriteQueue();
    withModel(model, queue);
    const group = idOf("G");
    const body = groupBodyWithIdentity({ group, member: MEMBER, text: "大家好" });
    await postQq(body);
    const done = await turnDone(`qq:group:${group}`, eventIdOf(body));
    expect(done.replies.map((r) => r.text)).toEqual(["好呀"]);
    // The turn read the profile in the items' own words and asked for no rewrite.
    expect(JSON.stringify(model.requests[0]?.messages)).toContain(fresh);
    expect(queue.size).toBe(0);
    expect(model.requests).toHaveLength(1);
  });
});
