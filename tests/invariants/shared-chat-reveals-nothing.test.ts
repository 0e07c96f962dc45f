// Own file: identity, admins and a declared person are set through the stored settings, which
// every test of a file shares. Nothing said in a shared chat (a group or a channel) reveals
// private material (docs/invariants.md#nothing-said-in-a-shared-chat-reveals-private-material):
// identity commands and the identity tool answer only in an admin's private chat, and a repeated
// write answers as a new one, so no reply tells a group that a hidden item exists.
import { beforeAll, describe, it } from "vitest";
import { auditRowsOnceThere, c2cBodyWithIdentity, uid as idOf, linkRow } from "../support/identity";
import { declared, qqUsers, storeIdentity, uids } from "../support/identity-settings";
import { memoryStore, newMemory, seedMemory, uid } from "../support/memory";
import { inGroupChat, say, toolTurn } from "../support/turns";

const run = uid().slice(0, 6);
const ALICE = `alice${run}`;
const [ALICE_G, ALICE_P, ADMIN_G, ADMIN_P] = uids("ALICEG", "ALICEP", "ADMING", "ADMINP");

beforeAll(() =>
  storeIdentity(
    { people: [declared(ALICE, "爱丽丝", qqUsers(ALICE_G, ALICE_P))], admins: qqUsers(ADMIN_G, ADMIN_P) },
    { memory: { dreaming: { enabled: false } } },
  ),
);

/** What an answer says once the words that differ and the ids are taken out: its shape. */
const shape = (answer: string, words: readonly string[]) =>
  words.reduce((a, w) => a.replaceAll(w, "<TEXT>"), answer).replace(/m_[0-9a-z]+/g, "<ID>");

describe("identity commands and the identity tool answer only in an admin's private chat", () => {
  it("/identity whois, link and unlink typed by an admin in a group are refused, audited, and name nobody", async ({
    expect,
  }) => {
    const group = idOf("G");
    const stranger = idOf("S");
    const commands = [
      `/identity whois qq:user:${ALICE_G}`,
      "/identity whois",
      `/identity link qq:user:${stranger} ${ALICE}`,
      `/identity unlink qq:user:${ALICE_G}`,
    ];
    const replies: string[] = [];
    for (const command of commands) replies.push(await inGroupChat(group, ADMIN_G, command));
    for (const reply of replies) {
      expect(reply).toContain("⛔");
      for (const secret of [ALICE_P, ALICE, "爱丽丝", `qq:private:`]) expect(reply).not.toContain(secret);
    }
    // Nothing was linked.
    expect(await linkRow(`qq:user:${stranger}`)).toBeNull();
    const audit = await auditRowsOnceThere(
      `qq:group:${group}`,
      undefined,
      (rows) => rows.length === commands.length,
    );
    expect(audit.map((r) => [r.action, r.detail.outcome, r.detail.cause])).toEqual([
      ["identity.whois", "refused", "shared_chat"],
      ["identity.whois", "refused", "shared_chat"],
      ["identity.link", "refused", "shared_chat"],
      ["identity.unlink", "refused", "shared_chat"],
    ]);
    // Control: the same admin in their own private chat gets the answer.
    const own = await say(
      c2cBodyWithIdentity({ user: ADMIN_P, text: `/identity whois qq:user:${ALICE_G}` }),
      `qq:private:${ADMIN_P}`,
    );
    expect(own).toContain(`人物：${ALICE} “爱丽丝”`);
    expect(own).toContain(`qq:user:${ALICE_P}`);
  });

  it("identity_manage called in an admin's group or channel turn is refused and names nobody", async ({
    expect,
  }) => {
    const calls = [
      { name: "identity_manage", args: { action: "whois", account: `qq:user:${ALICE_G}` } },
      { name: "identity_manage", args: { action: "whois" } },
      { name: "identity_manage", args: { action: "link", account: `qq:user:${idOf("X")}`, person: ALICE } },
    ];
    for (const chat of [`qq:group:${idOf("G")}`, `qq:channel:${idOf("C")}`]) {
      const { answers, received, audit } = await toolTurn(chat, ADMIN_G, calls);
      for (const answer of answers) expect(answer).toContain("⛔");
      for (const secret of [ALICE_P, "爱丽丝"]) expect(received).not.toContain(secret);
      expect(audit.filter((a) => a.action.startsWith("identity.")).map((a) => a.outcome)).toEqual([
        "refused",
        "refused",
        "refused",
      ]);
    }
    const own = await toolTurn(`qq:private:${ADMIN_P}`, ADMIN_P, calls.slice(0, 1));
    expect(own.answers[0]).toContain(`qq:user:${ALICE_P}`);
  });
});

describe("a repeated write in a shared chat answers as a new one", () => {
  it("memory_write of a person's hidden item, in the group, by the person, answers like a fresh write", async ({
    expect,
  }) => {
    const tag = uid();
    const hidden = `爱丽丝下个月要去医院复查${tag}甲`;
    const fresh = `爱丽丝下个月要去医院复查${tag}乙`;
    const [hiddenId] = await seedMemory([
      newMemory(`person:${ALICE}`, hidden, {
        kind: "fact",
        sensitivity: "secret_like",
        sensitivitySource: "explicit",
      }),
    ]);
    const group = `qq:group:${idOf("G")}`;
    const { answers } = await toolTurn(group, ALICE_G, [
      { name: "memory_write", args: { kind: "fact", text: hidden } },
      { name: "memory_write", args: { kind: "fact", text: fresh } },
    ]);
    expect(answers[0]).not.toContain("已经记得");
    expect(answers[0]).not.toContain(hiddenId);
    expect(shape(answers[0] ?? "", [`${tag}甲`])).toBe(shape(answers[1] ?? "", [`${tag}乙`]));
    // The hidden item itself is untouched: still secret, still where it was.
    expect(await memoryStore().get(hiddenId ?? "")).toMatchObject({
      sensitivity: "secret_like",
      sensitivitySource: "explicit",
      importance: 0.5,
      status: "active",
    });
  });

  it("/remember of a person's hidden item, in the group, by the person, answers like a fresh /remember", async ({
    expect,
  }) => {
    const tag = uid();
    const hidden = `我下个月要去医院复查${tag}甲`;
    const fresh = `我下个月要去医院复查${tag}乙`;
    const group = idOf("G");
    // Said in the person's private chat first, asked to be kept secret.
    await say(
      c2cBodyWithIdentity({ user: ALICE_P, text: `/remember ${hidden}，别告诉别人` }),
      `qq:private:${ALICE_P}`,
    );
    const again = await inGroupChat(group, ALICE_G, `/remember ${hidden}`);
    const control = await inGroupChat(group, ALICE_G, `/remember ${fresh}`);
    expect(again).not.toContain("已经记得");
    expect(again).not.toContain("私聊");
    expect(shape(again, [`${tag}甲`])).toBe(shape(control, [`${tag}乙`]));
  });
});
