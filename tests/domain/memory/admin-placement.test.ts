import { isSharedScope, placeableScopeProblem, placement } from "@src/domain/memory/admin-placement";
import { parseScopeKey, type Scope } from "@src/domain/memory/scope";
import { describe, it } from "vitest";

const scope = (key: string) => parseScopeKey(key) as Scope;

describe("admin placement", () => {
  it("asks for a confirmation exactly when a private or secret item goes into a shared scope", ({
    expect,
  }) => {
    const shared = ["global:__global__", "chat:qq:group:G1", "chat:qq:channel:C1", "chat:onebot:group:1"];
    const own = ["chat:qq:private:U1", "chat:qq:dm:D1", "person:alice", "account:qq:user:U1"];
    for (const key of shared)
      expect({ key, shared: isSharedScope(scope(key)) }).toEqual({ key, shared: true });
    for (const key of own) expect({ key, shared: isSharedScope(scope(key)) }).toEqual({ key, shared: false });
    for (const key of [...shared, ...own]) {
      expect(placement("public", scope(key), false)).toEqual({ ok: true, value: { confirmedShared: false } });
      for (const level of ["private", "secret_like"] as const) {
        const refused = placement(level, scope(key), false);
        expect({ key, level, ok: refused.ok }).toEqual({ key, level, ok: !shared.includes(key) });
        expect(placement(level, scope(key), true)).toEqual({
          ok: true,
          value: { confirmedShared: shared.includes(key) },
        });
      }
    }
  });

  it("places items in global, chat, person and account scopes only", ({ expect }) => {
    for (const key of ["global:__global__", "chat:qq:group:G1", "person:alice", "account:qq:user:U1"])
      expect({ key, problem: placeableScopeProblem(scope(key)) }).toEqual({ key, problem: null });
    for (const key of [
      "global:x",
      "chat:qq:G1",
      "chat:qq:group:G1:cron:x",
      "person:a b",
      "account:U1",
      "collection:docs",
      "workspace:w",
    ])
      expect({ key, problem: typeof placeableScopeProblem(scope(key)) }).toEqual({ key, problem: "string" });
  });
});
