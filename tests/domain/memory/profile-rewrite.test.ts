// The chat model's rewrite of a person profile: asked for when a turn reads one in the items' own
// words, written from that audience's items alone, saved only at the version it was asked at, and
// refused (the extractive text kept) when the answer is empty, too long or holds a credential.

import { PROFILE_MAX_CHARS, profileKey, readProfile } from "@src/domain/memory/person-profile";
import { checkRewrite, ProfileRewriteQueue, rewriteProfile } from "@src/domain/memory/profile-rewrite";
import { describe, it } from "vitest";
import { InMemoryMemory, memoryItem } from "../../fakes/in-memory-memory";
import { KeptProfiles } from "../../fakes/kept-profiles";
import { profileReaders } from "../../fakes/profile-readers";
import { ScriptedChatModel, type ScriptStep } from "../../fakes/scripted-chat-model";

const MEI = profileReaders("mei", "qq:user:M");
const PERSON = MEI.person;
const ACCOUNT = MEI.account;
const groupReader = MEI.group;
const privateReader = MEI.own;
const PRIVATE = ["正在办离婚手续", "欠了网贷三万多"];
const SECRET = ["HIV 阳性，按时服药"];

function world(steps: ScriptStep[]) {
  const store = new InMemoryMemory([
    memoryItem("person:mei", "喜欢做手冲咖啡", { kind: "preference", importance: 0.5 }),
    memoryItem("account:qq:user:M", "在苏州做建筑设计", { kind: "fact", importance: 0.6 }),
    ...PRIVATE.map((t) =>
      memoryItem("person:mei", t, { kind: "fact", sensitivity: "private", importance: 0.9 }),
    ),
    ...SECRET.map((t) =>
      memoryItem("person:mei", t, { kind: "fact", sensitivity: "secret_like", importance: 1 }),
    ),
  ]);
  const profiles = new KeptProfiles();
  const rewrites = new ProfileRewriteQueue();
  const model = new ScriptedChatModel(steps);
  return { store, profiles, rewrites, model, deps: { store, profiles, rewrites } };
}
const asked = (model: ScriptedChatModel) => JSON.stringify(model.requests.map((r) => r.messages));
const rewrite = (w: ReturnType<typeof world>, key = w.rewrites.take(1)[0]) => {
  if (!key) throw new Error("no rewrite was asked for");
  return rewriteProfile({ profiles: w.profiles, store: w.store, model: w.model }, key, "qq:group:G", () => 5);
};

describe("the chat model's profile", () => {
  it("is asked for after a read in the items' own words, then saved and read as is", async ({ expect }) => {
    const w = world([{ text: "在苏州做建筑设计，平时爱做手冲咖啡。" }]);
    expect(await readProfile(w.deps, groupReader, 1)).toBe("- 在苏州做建筑设计\n- 喜欢做手冲咖啡");
    expect(w.rewrites.size).toBe(1);
    const { outcome, usage } = await rewrite(w);
    expect(outcome).toEqual({ done: "saved" });
    expect(usage).toMatchObject({ purpose: "profile", ok: true, chatKey: "qq:group:G" });
    expect(await readProfile(w.deps, groupReader, 2)).toBe("在苏州做建筑设计，平时爱做手冲咖啡。");
    // Read in the model's words: nothing more to ask for.
    expect(w.rewrites.size).toBe(0);
  });

  it("is given the group's items alone for the group's profile, and never a secret one", async ({
    expect,
  }) => {
    const w = world([{ text: "建筑设计师，爱喝咖啡。" }, { text: "建筑设计师。" }]);
    await readProfile(w.deps, groupReader, 1);
    await rewrite(w);
    const toGroup = asked(w.model);
    expect(toGroup).toContain("在苏州做建筑设计");
    for (const hidden of [...PRIVATE, ...SECRET]) expect(toGroup).not.toContain(hidden);

    await readProfile(w.deps, privateReader, 1);
    await rewrite(w, profileKey([PERSON, ACCOUNT], "own"));
    const toOwn = JSON.stringify(w.model.requests[1]?.messages);
    for (const p of PRIVATE) expect(toOwn).toContain(p);
    for (const s of SECRET) expect(toOwn).not.toContain(s);
  });

  it("is discarded when the items change between the question and the save", async ({ expect }) => {
    const w = world([]);
    const bumping = new ScriptedChatModel([
      async () => {
        w.profiles.version += 1; // a write to the person's items while the model thinks
        return { text: "过时的画像" };
      },
    ]);
    await readProfile(w.deps, groupReader, 1);
    const key = w.rewrites.take(1)[0];
    if (!key) throw new Error("no rewrite was asked for");
    const { outcome } = await rewriteProfile(
      { profiles: w.profiles, store: w.store, model: bumping },
      key,
      "qq:group:G",
      () => 5,
    );
    expect(outcome).toEqual({ done: "superseded" });
    expect(await readProfile(w.deps, groupReader, 6)).toBe("- 在苏州做建筑设计\n- 喜欢做手冲咖啡");
  });

  it("is refused when empty, too long or holding a credential: the items' words stay, not asked again", async ({
    expect,
  }) => {
    for (const answer of [
      "  ",
      "长".repeat(PROFILE_MAX_CHARS + 1),
      "设计师，密码是 Xk9$vQ2#mL7p",
      // Details the items do not hold: an age, a company, in full-width digits too.
      "在苏州做建筑设计，今年３２岁。",
      "在苏州的 Gensler 做建筑设计。",
    ]) {
      const w = world([{ text: answer }]);
      await readProfile(w.deps, groupReader, 1);
      expect((await rewrite(w)).outcome).toEqual({ done: "refused" });
      expect(await readProfile(w.deps, groupReader, 2)).toBe("- 在苏州做建筑设计\n- 喜欢做手冲咖啡");
      expect(w.rewrites.size).toBe(0);
    }
  });

  it("may join the items' words and repeat their numbers and Latin words", ({ expect }) => {
    const input = "- 在苏州做建筑设计\n- 每周跑 3 次 5 公里\n- 在学 Rust";
    expect(checkRewrite("在苏州做建筑设计，每周跑3次5公里，也在学rust。", input)).toEqual({
      ok: true,
      value: "在苏州做建筑设计，每周跑3次5公里，也在学rust。",
    });
    expect(checkRewrite("每周跑 4 次。", input)).toEqual({ ok: false, error: "new-detail" });
  });

  it("is not asked for when nothing may be said, or already written by the model", async ({ expect }) => {
    const w = world([{ text: "建筑设计师。" }]);
    w.store.items.length = 0;
    expect(await readProfile(w.deps, groupReader, 1)).toBeNull();
    expect(w.rewrites.size).toBe(0);
    const none = await rewrite(w, profileKey([PERSON, ACCOUNT], "public"));
    expect(none.outcome).toEqual({ done: "not-needed" });
    expect(w.model.requests).toHaveLength(0);
  });
});
