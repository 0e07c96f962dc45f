import type { AccountKey } from "@src/domain/chat/chat-address";
import type { SenderIdentity } from "@src/domain/identity/sender-identity";
import {
  GLOBAL_SCOPE,
  parseScopeKey,
  resolveScopeFromLaneKey,
  type ScopeInput,
  scopeAllows,
  scopeForKind,
  scopeKey,
  scopeToken,
  turnScopes,
} from "@src/domain/memory/scope";
import { describe, it } from "vitest";

const identity = (over: Partial<SenderIdentity> = {}): SenderIdentity => ({
  enabled: true,
  account: "qq:user:U1" as AccountKey,
  personId: null,
  declared: false,
  ...over,
});

const keys = (input: ScopeInput) => {
  const t = turnScopes(input);
  return {
    readable: t.readable.map(scopeKey),
    writable: t.writable.map(scopeKey),
    personal: scopeKey(t.personal),
  };
};

describe("resolveScopeFromLaneKey", () => {
  it.for([
    ["milky:private:10001", "chat:milky:private:10001"],
    ["milky:10001", "global:__global__"],
    ["milky:private:10001:cron:abc", "chat:milky:private:10001"],
    ["qq:group:G1", "chat:qq:group:G1"],
    ["not a key", "global:__global__"],
  ] as const)("%s → %s", ([session, expected], { expect }) => {
    expect(scopeKey(resolveScopeFromLaneKey(session))).toBe(expected);
  });
});

describe("scopeForKind", () => {
  const chat = { session: "qq:private:U1", identity: null };
  it.for([
    ["preference", "chat:qq:private:U1"],
    ["fact", "chat:qq:private:U1"],
    ["task", "chat:qq:private:U1"],
    ["rule", "chat:qq:private:U1"],
    ["decision", "chat:qq:private:U1"],
    ["procedure", "chat:qq:private:U1"],
    ["warning", "chat:qq:private:U1"],
    ["summary", "chat:qq:private:U1"],
  ] as const)("%s → %s without identity", ([kind, expected], { expect }) => {
    expect(scopeKey(scopeForKind(kind, chat))).toBe(expected);
  });

  it.for(["decision", "procedure", "warning", "summary"])(
    "%s goes global only for an admin's write marked global in a shared chat, and a rule never does",
    (kind, { expect }) => {
      const group = { session: "qq:group:G1", identity: null };
      const onPurpose = { writesGlobal: true, globalOnPurpose: true };
      expect(scopeKey(scopeForKind(kind, { ...group, ...onPurpose }))).toBe("global:__global__");
      // An admin's write without the marker, or a marker without admin rights, stays in the chat.
      expect(scopeKey(scopeForKind(kind, { ...group, writesGlobal: true }))).toBe("chat:qq:group:G1");
      expect(scopeKey(scopeForKind(kind, { ...group, globalOnPurpose: true }))).toBe("chat:qq:group:G1");
      // Nothing said in a private chat goes global, marker or not.
      expect(scopeKey(scopeForKind(kind, { ...chat, ...onPurpose }))).toBe("chat:qq:private:U1");
      expect(scopeKey(scopeForKind(kind, { ...chat, writesGlobal: false }))).toBe("chat:qq:private:U1");
      expect(scopeKey(scopeForKind("rule", { ...group, ...onPurpose }))).toBe("chat:qq:group:G1");
    },
  );

  it("keeps a private or secret shared-kind item where it was said, never global", ({ expect }) => {
    expect(scopeKey(scopeForKind("decision", { ...chat, writesGlobal: true }, "private"))).toBe(
      "chat:qq:private:U1",
    );
    expect(
      scopeKey(
        scopeForKind(
          "decision",
          { session: "qq:group:G1", identity: null, writesGlobal: true, globalOnPurpose: true },
          "private",
        ),
      ),
    ).toBe("chat:qq:group:G1");
    expect(scopeKey(scopeForKind("warning", { session: "qq:group:G1", identity: null }, "secret_like"))).toBe(
      "chat:qq:group:G1",
    );
  });

  it("sends personal kinds from a private chat to the person, or the account, with identity on", ({
    expect,
  }) => {
    expect(
      scopeKey(
        scopeForKind("preference", { session: "qq:private:U1", identity: identity({ personId: "alice" }) }),
      ),
    ).toBe("person:alice");
    expect(scopeKey(scopeForKind("fact", { session: "qq:private:U1", identity: identity() }))).toBe(
      "account:qq:user:U1",
    );
  });

  it("keeps an undeclared group member's facts with the group; a declared person's go to the person", ({
    expect,
  }) => {
    const group = "qq:group:G1";
    expect(scopeKey(scopeForKind("fact", { session: group, identity: identity({ personId: "bob" }) }))).toBe(
      "chat:qq:group:G1",
    );
    expect(
      scopeKey(
        scopeForKind("fact", { session: group, identity: identity({ personId: "bob", declared: true }) }),
      ),
    ).toBe("person:bob");
  });

  it("ignores a disabled identity", ({ expect }) => {
    expect(
      scopeKey(
        scopeForKind("fact", {
          session: "qq:private:U1",
          identity: identity({ enabled: false, personId: "a" }),
        }),
      ),
    ).toBe("chat:qq:private:U1");
  });
});

describe("turnScopes", () => {
  it("reads the chat, then global, without identity; writes the chat, and global only for an admin", ({
    expect,
  }) => {
    expect(keys({ session: "qq:group:G1", identity: null })).toEqual({
      readable: ["chat:qq:group:G1", "global:__global__"],
      writable: ["chat:qq:group:G1"],
      personal: "chat:qq:group:G1",
    });
    expect(keys({ session: "qq:group:G1", identity: null, writesGlobal: true }).writable).toEqual([
      "chat:qq:group:G1",
      "global:__global__",
    ]);
  });

  it("reads a person's own scopes at every level in their private chat, only public in a group", ({
    expect,
  }) => {
    const levels = (session: string) =>
      turnScopes({ session, identity: identity({ personId: "bob", declared: true }) }).readable.map((r) => [
        scopeKey(r),
        r.sensitivities ?? "all",
      ]);
    expect(levels("qq:private:U1")).toEqual([
      ["person:bob", "all"],
      ["account:qq:user:U1", "all"],
      ["chat:qq:private:U1", "all"],
      ["global:__global__", "all"],
    ]);
    for (const session of ["qq:group:G1", "qq:channel:C1"]) {
      expect(levels(session)).toEqual([
        ["person:bob", ["public"]],
        ["account:qq:user:U1", ["public"]],
        [`chat:${session}`, "all"],
        ["global:__global__", "all"],
      ]);
    }
    const inGroup = turnScopes({
      session: "qq:group:G1",
      identity: identity({ personId: "bob", declared: true }),
    });
    const bob = { type: "person", id: "bob" } as const;
    expect(scopeAllows(inGroup.readable, { scope: bob, sensitivity: "public" })).toBe(true);
    expect(scopeAllows(inGroup.readable, { scope: bob, sensitivity: "private" })).toBe(false);
    expect(scopeAllows(inGroup.readable, { scope: bob, sensitivity: "secret_like" })).toBe(false);
  });

  it.for([
    "qq:group:G1:private:U1",
    "qq:group:G1:dm:U1",
    "qq:channel:C1:private:U1",
    "onebot:group:748394300:private:10001",
    "qq:group:private",
    "qq:channel:dm",
  ])(
    "reads a person's scopes only at public in the shared session %s, however its parts are named",
    (session, { expect }) => {
      // Whether a turn is one-to-one is the chat's type, the key's second part, and nothing else:
      // a lane or an id that spells "private" or "dm" never makes a group read private items.
      const t = turnScopes({ session, identity: identity({ personId: "bob", declared: true }) });
      const own = t.readable.filter((r) => r.type === "person" || r.type === "account");
      expect(own.map((r) => [scopeKey(r), r.sensitivities])).toEqual([
        ["person:bob", ["public"]],
        ["account:qq:user:U1", ["public"]],
      ]);
      expect(t.personal).toEqual({ type: "person", id: "bob" });
      // An undeclared member in it reads nobody's scopes and writes to the shared chat only.
      const member = turnScopes({ session, identity: identity() });
      expect(member.readable.filter((r) => r.type === "person" || r.type === "account")).toEqual([]);
      expect(member.personal.type).toBe("chat");
    },
  );

  it.for(["qq:Private:U1", "qq:private", "QQ:private:U1", "qq: private:U1", "qq:private:U1:cron"])(
    "reads global only for the malformed session %j, never a person's scopes",
    (session, { expect }) => {
      const t = turnScopes({ session, identity: identity({ personId: "bob", declared: true }) });
      expect(t.readable).toEqual([GLOBAL_SCOPE]);
      expect(t.writable).toEqual([]);
    },
  );

  it("puts the sender's person and account first in a private chat with identity on", ({ expect }) => {
    expect(keys({ session: "qq:private:U1", identity: identity({ personId: "alice" }) }).readable).toEqual([
      "person:alice",
      "account:qq:user:U1",
      "chat:qq:private:U1",
      "global:__global__",
    ]);
  });

  it("reads a group member's own scopes only when the person is declared", ({ expect }) => {
    expect(keys({ session: "qq:group:G1", identity: identity({ personId: "bob" }) }).readable).toEqual([
      "chat:qq:group:G1",
      "global:__global__",
    ]);
    expect(
      keys({ session: "qq:group:G1", identity: identity({ personId: "bob", declared: true }) }).readable,
    ).toEqual(["person:bob", "account:qq:user:U1", "chat:qq:group:G1", "global:__global__"]);
  });

  it("adds linked chats after the chat and before global", ({ expect }) => {
    expect(
      keys({ session: "qq:group:G1", identity: null, linkedChats: ["qq:group:G2", "junk"] }).readable,
    ).toEqual(["chat:qq:group:G1", "chat:qq:group:G2", "global:__global__"]);
    // Linked chats are read, never written.
    expect(
      keys({ session: "qq:group:G1", identity: null, linkedChats: ["qq:group:G2"] }).writable,
    ).not.toContain("chat:qq:group:G2");
  });

  it("lets a cron lane read and write its chat", ({ expect }) => {
    expect(keys({ session: "qq:private:A:cron:daily", identity: null }).readable).toEqual([
      "chat:qq:private:A",
      "global:__global__",
    ]);
  });

  it("gives a legacy session global only, written only by an admin", ({ expect }) => {
    expect(keys({ session: "milky:10001", identity: identity({ personId: "x" }) })).toEqual({
      readable: ["global:__global__"],
      writable: [],
      personal: "global:__global__",
    });
    expect(keys({ session: "milky:10001", identity: null, writesGlobal: true }).writable).toEqual([
      "global:__global__",
    ]);
  });
});

it("encodes the scope token as SQLite's hex() of the UTF-8 key", ({ expect }) => {
  expect(scopeToken(GLOBAL_SCOPE)).toBe("676C6F62616C3A5F5F676C6F62616C5F5F");
  expect(scopeToken({ type: "person", id: "小明" })).toBe("706572736F6E3AE5B08FE6988E");
});

it("parses scope keys and refuses unknown types", ({ expect }) => {
  expect(parseScopeKey("chat:qq:group:G1")).toEqual({ type: "chat", id: "qq:group:G1" });
  expect(parseScopeKey("room:1")).toBeNull();
  expect(parseScopeKey("chat:")).toBeNull();
});
