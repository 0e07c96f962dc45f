// Person profiles over local D1: the chat model's rewrite is saved only at the version it was
// asked at (a write to the items while the model thinks wins, through the triggers of migration
// 0390), an extractive save never replaces the model's text at the same version, and any later
// write makes the model's text unreadable until the next turn rebuilds it.
import { env } from "cloudflare:workers";
import { D1ProfileStore } from "@src/adapters/d1/d1-profile-store";
import { profileKey, readProfile } from "@src/domain/memory/person-profile";
import { rewriteProfile } from "@src/domain/memory/profile-rewrite";
import { describe, it } from "vitest";
import { profileReaders } from "../../fakes/profile-readers";
import { ScriptedChatModel } from "../../fakes/scripted-chat-model";
import { memoryStore, newMemory, seedMemory, uid } from "../../support/memory";

function person() {
  const id = `p${uid()}`;
  const account = `qq:user:A${uid()}`;
  const reader = profileReaders(id, account).group;
  const key = profileKey(reader, "public");
  const deps = { profiles: new D1ProfileStore(env.DB), store: memoryStore() };
  return { id, account, reader, key, deps };
}
const ask = (p: ReturnType<typeof person>, model: ScriptedChatModel) =>
  rewriteProfile({ ...p.deps, model }, p.key, "qq:group:G", Date.now);

describe("profile rewrites over D1", () => {
  it("save the model's text at the current version, read in one statement with who wrote it", async ({
    expect,
  }) => {
    const p = person();
    await seedMemory([newMemory(`person:${p.id}`, "周末在公园跑十公里", { kind: "fact" })]);
    expect(await readProfile(p.deps, p.reader, 1)).toBe("- 周末在公园跑十公里");
    const model = new ScriptedChatModel([{ text: "周末常在公园跑十公里。" }]);
    expect((await ask(p, model)).outcome).toEqual({ done: "saved" });
    const saved = await p.deps.profiles.read(p.key);
    expect(saved).toMatchObject({ text: "周末常在公园跑十公里。", by: "model", items: 1 });
    // A late extractive save at the same version does not put the items' words back.
    await p.deps.profiles.save(p.key, saved.version, { text: "- 旧", items: 1 }, 2);
    expect((await p.deps.profiles.read(p.key)).text).toBe("周末常在公园跑十公里。");
    // A write to the items: the model's text is no longer read; the turn rebuilds.
    await seedMemory([newMemory(`account:${p.account}`, "会弹尤克里里", { kind: "fact", importance: 0.9 })]);
    expect((await p.deps.profiles.read(p.key)).text).toBeNull();
    expect(await readProfile(p.deps, p.reader, 3)).toBe("- 会弹尤克里里\n- 周末在公园跑十公里");
    expect((await p.deps.profiles.read(p.key)).by).toBe("extract");
  });

  it("discard the model's text when the items change while it is asked", async ({ expect }) => {
    const p = person();
    await seedMemory([newMemory(`person:${p.id}`, "养了两只橘猫", { kind: "fact" })]);
    await readProfile(p.deps, p.reader, 1);
    const model = new ScriptedChatModel([
      async () => {
        await seedMemory([newMemory(`person:${p.id}`, "搬去了成都", { kind: "fact", importance: 0.9 })]);
        return { text: "养了两只橘猫的人。" };
      },
    ]);
    expect((await ask(p, model)).outcome).toEqual({ done: "superseded" });
    expect(await readProfile(p.deps, p.reader, 2)).toBe("- 搬去了成都\n- 养了两只橘猫");
  });

  it("keep the items' words when the answer is refused, and do not ask again at that version", async ({
    expect,
  }) => {
    const p = person();
    await seedMemory([newMemory(`person:${p.id}`, "在学粤语", { kind: "fact" })]);
    await readProfile(p.deps, p.reader, 1);
    expect((await ask(p, new ScriptedChatModel([{ text: "" }]))).outcome).toEqual({ done: "refused" });
    expect(await p.deps.profiles.read(p.key)).toMatchObject({ text: "- 在学粤语", by: "kept" });
    const again = new ScriptedChatModel([{ text: "在学粤语。" }]);
    expect((await ask(p, again)).outcome).toEqual({ done: "not-needed" });
    expect(again.requests).toHaveLength(0);
  });

  it("keep no row past a write to the items, nor one saved at an older version", async ({ expect }) => {
    const rows = (subject: string) =>
      env.DB.prepare("SELECT text FROM person_profiles WHERE subject = ?1")
        .bind(subject)
        .all<{ text: string }>()
        .then((r) => r.results.map((x) => x.text));
    const p = person();
    // A person whose id begins with p's: the scope key of one is a prefix of the other's.
    const q = { ...person(), id: `${p.id}x` };
    const qReader = profileReaders(q.id, q.account).group;
    await seedMemory([
      newMemory(`person:${p.id}`, "每周三去游泳", { kind: "fact" }),
      newMemory(`person:${q.id}`, "每周四去攀岩", { kind: "fact" }),
    ]);
    expect(await readProfile(p.deps, p.reader, 1)).toBe("- 每周三去游泳");
    expect(await readProfile(q.deps, qReader, 1)).toBe("- 每周四去攀岩");
    const stale = (await p.deps.profiles.read(p.key)).version;

    await seedMemory([newMemory(`account:${p.account}`, "喜欢吃辣", { kind: "preference" })]);
    expect(await rows(p.key.subject)).toEqual([]);
    expect(await rows(profileKey(qReader, "public").subject)).toEqual(["- 每周四去攀岩"]);
    // A build read before the write, saved after it: dropped, not kept.
    await p.deps.profiles.save(p.key, stale, { text: "- 每周三去游泳", items: 1 }, 2);
    expect(await rows(p.key.subject)).toEqual([]);
    expect(await readProfile(p.deps, p.reader, 3)).toBe("- 喜欢吃辣\n- 每周三去游泳");
    expect(await rows(p.key.subject)).toEqual(["- 喜欢吃辣\n- 每周三去游泳"]);
  });
});
