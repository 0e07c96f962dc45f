// The session operations and the `/session` command with fakes: parsing, the admin gate, the
// confirmation a private↔group link needs (both directions), and an audit row for every use.

import { defaultTurnRegistry } from "@src/domain/agent/default-turn-registry";
import { runTurn } from "@src/domain/agent/turn";
import type { Settings } from "@src/domain/config/settings";
import { DEFAULT_SETTINGS } from "@src/domain/config/settings";
import { silentLogger } from "@src/domain/kernel/logger";
import { exposuresOfLink, privateChatsReadBy } from "@src/domain/sessions/cluster-exposure";
import { runSessionOperation, type SessionAuditEntry } from "@src/domain/sessions/run-session-operation";
import { sessionIdOf } from "@src/domain/sessions/session-id";
import { parseSessionArgs } from "@src/domain/sessions/session-operation";
import { describe, it } from "vitest";
import { ADMIN, MEMBER, withIdentity } from "../../fakes/identity-settings";
import { InMemorySessionRegistry } from "../../fakes/in-memory-session-registry";
import { messageEvent } from "../../fakes/inbound";
import { turnPorts } from "../../fakes/turn-ports";
import { turnContext } from "../../support/turn-context";

const NOW = 1_700_000_000_000;

function deps(registry: InMemorySessionRegistry, audit: SessionAuditEntry[] = []) {
  return {
    registry,
    personAccounts: async (p: string) => (p === "alice" ? ["qq:user:A1", "onebot:user:1"] : null),
    audit: (e: SessionAuditEntry) => {
      audit.push(e);
    },
    now: NOW,
    timeZone: "Asia/Shanghai",
    commandText: "/session test",
  };
}

describe("parseSessionArgs", () => {
  it("reads every operation and its flags wherever they stand", ({ expect }) => {
    expect(parseSessionArgs(["list", "--all"])).toEqual({ ok: true, value: { op: "list", all: true } });
    expect(parseSessionArgs(["link", "--yes", "a", "b"])).toEqual({
      ok: true,
      value: { op: "link", a: "a", b: "b", yes: true },
    });
    expect(parseSessionArgs(["retention", "x", "default"])).toMatchObject({ value: { days: null } });
    expect(parseSessionArgs(["retention", "x", "30"])).toMatchObject({ value: { days: 30 } });
    expect(parseSessionArgs(["store", "x", "OFF"])).toMatchObject({ value: { enabled: false } });
    expect(parseSessionArgs(["export", "x", "--log"])).toMatchObject({ value: { log: true } });
  });

  it.for([
    [[]],
    [["frobnicate"]],
    [["link", "a"]],
    [["retention", "x", "-3"]],
    [["retention", "x", "1.5"]],
    [["store", "x", "maybe"]],
    [["list", "--force"]],
  ] as const)("refuses %j with the reason", ([words], { expect }) => {
    const r = parseSessionArgs(words);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatchObject({ kind: "invalid", field: "command" });
  });
});

describe("runSessionOperation", () => {
  it("refuses a private chat joining a group's cluster without --yes, naming whose memory, and audits it", async ({
    expect,
  }) => {
    const r = new InMemorySessionRegistry();
    r.add("qq:group:G1", { alias: "大群" });
    r.add("qq:private:U1", { title: "小明" });
    const audit: SessionAuditEntry[] = [];
    const refused = await runSessionOperation(
      { op: "link", a: "大群", b: "qq:private:U1", yes: false },
      deps(r, audit),
    );
    expect(refused.ok).toBe(false);
    expect(refused.text).toContain("小明");
    if (!refused.ok) expect(refused.error).toMatchObject({ kind: "invalid", field: "yes" });
    if (!refused.ok && refused.error.kind === "invalid") expect(refused.error.reason).toContain("qq:user:U1");
    expect((await r.resolve("qq:private:U1"))?.clusterId).toBe(sessionIdOf("qq:private:U1"));
    expect(audit).toEqual([
      expect.objectContaining({
        action: "session.link",
        outcome: "refused",
        detail: expect.objectContaining({ command: "/session test" }),
      }),
    ]);

    const done = await runSessionOperation(
      { op: "link", a: "大群", b: "qq:private:U1", yes: true },
      deps(r, audit),
    );
    expect(done.ok).toBe(true);
    expect(done.text).toContain("⚠");
    expect((await r.resolve("qq:private:U1"))?.clusterId).toBe(sessionIdOf("qq:group:G1"));
    expect(audit.at(-1)).toMatchObject({
      outcome: "ok",
      detail: { confirmed: true, exposes: "qq:private:U1" },
    });
  });

  it("a group joining a cluster that holds a private chat needs --yes as well; two groups do not", async ({
    expect,
  }) => {
    const r = new InMemorySessionRegistry();
    r.add("qq:private:U1");
    r.add("qq:group:G1");
    r.add("qq:group:G2");
    expect(
      (await runSessionOperation({ op: "link", a: "qq:private:U1", b: "qq:group:G1", yes: false }, deps(r)))
        .ok,
    ).toBe(false);
    expect(
      (await runSessionOperation({ op: "link", a: "qq:group:G2", b: "qq:group:G1", yes: false }, deps(r))).ok,
    ).toBe(true);
  });

  it("unlinking the chat whose id names the cluster leaves it alone and keeps the others together", async ({
    expect,
  }) => {
    const r = new InMemorySessionRegistry();
    const a = r.add("qq:group:G1");
    r.add("qq:group:G2", { clusterId: a.sessionId });
    r.add("qq:group:G3", { clusterId: a.sessionId });
    const done = await runSessionOperation({ op: "unlink", ref: "qq:group:G1" }, deps(r));
    expect(done.ok).toBe(true);
    expect(await r.members(a.sessionId)).toEqual([expect.objectContaining({ chatKey: "qq:group:G1" })]);
    const g2 = await r.resolve("qq:group:G2");
    expect((await r.members(g2?.clusterId ?? "")).map((m) => m.chatKey)).toEqual([
      "qq:group:G2",
      "qq:group:G3",
    ]);
  });

  it("forget and forget-person do nothing without --yes; an unknown person forgets nothing", async ({
    expect,
  }) => {
    const r = new InMemorySessionRegistry();
    r.add("qq:group:G1");
    expect((await runSessionOperation({ op: "forget", ref: "qq:group:G1", yes: false }, deps(r))).ok).toBe(
      false,
    );
    expect(r.forgotten).toEqual([]);
    const forgot = await runSessionOperation({ op: "forget", ref: "qq:group:G1", yes: true }, deps(r));
    expect(forgot.text).toContain("消息 2 条");
    expect(r.forgotten).toEqual(["qq:group:G1"]);
    const unknown = await runSessionOperation({ op: "forget-person", person: "bob", yes: true }, deps(r));
    expect(unknown).toMatchObject({ ok: false, error: { kind: "not-found" } });
    const person = await runSessionOperation({ op: "forget-person", person: "alice", yes: true }, deps(r));
    expect(person.text).toContain("qq:user:A1");
  });

  it("refuses bad aliases, taken aliases and out-of-range retention without changing anything", async ({
    expect,
  }) => {
    const r = new InMemorySessionRegistry();
    r.add("qq:group:G1", { alias: "taken" });
    r.add("qq:group:G2");
    for (const alias of ["has space", "s_0123456789", "a:b", "TAKEN"]) {
      const a = await runSessionOperation({ op: "rename", ref: "qq:group:G2", alias }, deps(r));
      expect(a.ok).toBe(false);
    }
    expect((await r.resolve("qq:group:G2"))?.alias).toBeNull();
    expect((await runSessionOperation({ op: "retention", ref: "qq:group:G2", days: 0 }, deps(r))).ok).toBe(
      false,
    );
    expect((await r.resolve("qq:group:G2"))?.keepDays).toBeNull();
  });

  it("privateChatsReadBy and exposuresOfLink name the private chats a group reads", ({ expect }) => {
    const r = new InMemorySessionRegistry();
    const g = r.add("qq:group:G1");
    const p = r.add("qq:private:U1", { clusterId: g.sessionId, alias: "xiaoming" });
    const g2 = r.add("qq:group:G2");
    expect(privateChatsReadBy(g, [g, p])).toEqual([
      expect.objectContaining({ privateChat: "qq:private:U1", account: "qq:user:U1", label: "xiaoming" }),
    ]);
    expect(privateChatsReadBy(p, [g, p])).toEqual([]);
    expect(exposuresOfLink([g, p], g2).map((e) => e.group)).toEqual(["qq:group:G2"]);
  });
});

describe("/session command", () => {
  const run = async (
    settings: Settings,
    account: string,
    text: string,
    registry = new InMemorySessionRegistry(),
    chat?: string,
  ) => {
    const userId = account.split(":").at(-1) ?? "U";
    const event = messageEvent({ chat: chat ?? `qq:private:${userId}`, text, sender: userId, name: userId });
    const result = await runTurn(
      turnContext(event, {
        text,
        settings,
        now: NOW,
      }),
      turnPorts({ sessionAdmin: { registry, personAccounts: async () => null } }),
      defaultTurnRegistry(silentLogger),
    );
    return result;
  };

  it("refuses a member and audits the refusal with the command text", async ({ expect }) => {
    const registry = new InMemorySessionRegistry();
    registry.add("qq:group:G1");
    const result = await run(withIdentity(), MEMBER, "/session forget qq:group:G1 --yes", registry);
    expect(JSON.stringify(result)).toContain("⛔");
    expect(registry.forgotten).toEqual([]);
    expect(JSON.stringify(result)).toContain('"action":"session.forget"');
    expect(JSON.stringify(result)).toContain("/session forget qq:group:G1 --yes");
  });

  it("runs for an admin and audits with the command text", async ({ expect }) => {
    const registry = new InMemorySessionRegistry();
    registry.add("qq:group:G1", { alias: "大群" });
    const result = await run(withIdentity(), ADMIN, "/session info 大群", registry);
    const all = JSON.stringify(result);
    expect(all).toContain(sessionIdOf("qq:group:G1"));
    expect(all).toContain('"action":"session.info"');
    expect(all).toContain('"command":"/session info 大群"');
  });

  // An answer names other chats, private ones included, and an export holds their memory and
  // log: typed in a group or channel, it would be said to everyone there.
  it.for(["qq:group:G9", "qq:channel:C9"])(
    "refuses an admin in %s, answering nothing of any chat, and audits the refusal",
    async (chat, { expect }) => {
      const registry = new InMemorySessionRegistry();
      registry.add("qq:private:U1", { alias: "xiaoming" });
      registry.add("qq:group:G1", { alias: "大群" });
      for (const command of [
        "/session list --all",
        "/session info xiaoming",
        "/session export xiaoming --log",
      ]) {
        const result = await run(withIdentity(), ADMIN, command, registry, chat);
        const replies = JSON.stringify(result.ok ? result.value.replies : result);
        expect(replies).toContain("⛔");
        expect(replies).not.toContain(sessionIdOf("qq:private:U1"));
        expect(replies).not.toContain("qq:private:U1");
        expect(replies).not.toContain(sessionIdOf("qq:group:G1"));
        const all = JSON.stringify(result);
        expect(all).toContain('"outcome":"refused"');
        expect(all).toContain('"cause":"shared_chat"');
      }
      // The control: the same admin in their private chat gets the answer.
      const own = JSON.stringify(await run(withIdentity(), ADMIN, "/session info xiaoming", registry));
      expect(own).toContain(sessionIdOf("qq:private:U1"));
    },
  );

  it("with identity off (the default) nobody is an admin in chat: refused like every privileged action", async ({
    expect,
  }) => {
    const registry = new InMemorySessionRegistry();
    registry.add("qq:group:G1");
    const result = await run(DEFAULT_SETTINGS, "qq:user:ANY", "/session forget qq:group:G1 --yes", registry);
    expect(JSON.stringify(result)).toContain("⛔");
    expect(registry.forgotten).toEqual([]);
  });
});
