import { chatReaders, readScope } from "@src/domain/agent/chat-readers";
import { DEFAULT_IDENTITY_SETTINGS, type IdentitySettings } from "@src/domain/config/identity-settings";
import { type ChatLinks, noChatLinks } from "@src/domain/memory/memory-store";
import { describe, expect, it } from "vitest";

const GROUP = "qq:group:G1";
const identity: IdentitySettings = {
  ...DEFAULT_IDENTITY_SETTINGS,
  enabled: true,
  people: [{ id: "owner", displayName: "浅色", accounts: ["qq:user:U1"] }],
};

describe("who can read what in a chat", () => {
  it("gives a group every level of its own scope and of global, and declared people public items only", async () => {
    const report = await chatReaders(noChatLinks, identity, GROUP);
    expect(report.readers.map((r) => r.reader)).toEqual(["anyone", "person:owner"]);
    const owner = report.readers[1]?.scopes ?? [];
    expect(owner).toEqual([
      { scope: "person:owner", sensitivities: ["public"], risk: false },
      { scope: "account:qq:user:U1", sensitivities: ["public"], risk: false },
      { scope: `chat:${GROUP}`, sensitivities: ["public", "private", "secret_like"], risk: false },
      { scope: "global:__global__", sensitivities: ["public", "private", "secret_like"], risk: false },
    ]);
    expect(report.risks).toEqual([]);
  });

  it("follows the chat links the turn reads (clusters), at the levels the turn reads them", async () => {
    const links: ChatLinks = { linkedChats: async (chat) => (chat === GROUP ? ["qq:group:G2"] : []) };
    const report = await chatReaders(links, identity, GROUP);
    expect(report.readers[0]?.scopes.map((s) => s.scope)).toContain("chat:qq:group:G2");
    expect(report.readers[0]?.scopes.find((s) => s.scope === "chat:qq:group:G2")).toEqual({
      scope: "chat:qq:group:G2",
      sensitivities: ["public"],
      risk: false,
    });
    expect(report.risks).toEqual([]);
  });

  it("lists only 'anyone' while identity is off", async () => {
    const report = await chatReaders(noChatLinks, { ...identity, enabled: false }, GROUP);
    expect(report.readers.map((r) => r.reader)).toEqual(["anyone"]);
    expect(report.readers[0]?.scopes.map((s) => s.scope)).toEqual([`chat:${GROUP}`, "global:__global__"]);
  });

  it("reads the owner's private items in their own private chat without marking a risk", async () => {
    const report = await chatReaders(noChatLinks, identity, "qq:private:U1");
    const owner = report.readers.find((r) => r.reader === "person:owner");
    expect(owner?.scopes[0]).toEqual({
      scope: "person:owner",
      sensitivities: ["public", "private", "secret_like"],
      risk: false,
    });
    expect(report.risks).toEqual([]);
  });

  it("marks a person scope readable at private level in a group as a risk", () => {
    expect(readScope(GROUP, { type: "person", id: "owner" })).toEqual({
      scope: "person:owner",
      sensitivities: ["public", "private", "secret_like"],
      risk: true,
    });
    expect(
      readScope(GROUP, { type: "chat", id: "qq:group:G2", sensitivities: ["public", "private"] }).risk,
    ).toBe(true);
    expect(readScope(GROUP, { type: "person", id: "owner", sensitivities: ["public"] }).risk).toBe(false);
  });
});
