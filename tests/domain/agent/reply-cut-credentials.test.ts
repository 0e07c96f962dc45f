/**
 * A reply longer than `turn.maxReplyChars` is cut; a cut through a key leaves a fragment that
 * no longer matches any key format, so the reply is masked before it is cut.
 */

import { defaultTurnRegistry } from "@src/domain/agent/default-turn-registry";
import { runTurn } from "@src/domain/agent/turn";
import type { TurnContext } from "@src/domain/agent/turn-context";
import { DEFAULT_SETTINGS } from "@src/domain/config/settings";
import { CREDENTIAL_MASK } from "@src/domain/privacy/credentials";
import { describe, it } from "vitest";
import { ScriptedChatModel } from "../../fakes/scripted-chat-model";
import { turnPorts } from "../../fakes/turn-ports";
import { chatContext } from "../../support/turn-context";

const KEY = "sk-3b9a2f7c1d8e4a6b9c0d2e4f6a8b0c1d";
const MAX = DEFAULT_SETTINGS.turn.maxReplyChars;

const context = (): TurnContext => chatContext("qq:private:U1", "把配置发我");

async function replyTo(modelText: string): Promise<string> {
  const model = new ScriptedChatModel([{ text: modelText }]);
  const result = await runTurn(context(), turnPorts({ model }), defaultTurnRegistry());
  if (!result.ok) throw new Error("the turn failed");
  return result.value.replies[0] ?? "";
}

describe("a reply cut at the length limit", () => {
  it("keeps no piece of a key the limit falls inside", async ({ expect }) => {
    // Unmasked, the limit would fall 18 characters into the key.
    const reply = await replyTo(`${"好".repeat(MAX - 20)} ${KEY} ${"好".repeat(40)}`);
    expect([...reply]).toHaveLength(MAX);
    expect(reply.endsWith("…")).toBe(true);
    expect(reply).toContain(CREDENTIAL_MASK);
    expect(reply).not.toContain("3b9a2f7c");
  });

  it("is not cut when the masked reply fits, and keeps no piece of the key", async ({ expect }) => {
    const reply = await replyTo(`${"好".repeat(MAX - 20)} ${KEY}`);
    expect(reply).toBe(`${"好".repeat(MAX - 20)} ${CREDENTIAL_MASK}`);
  });
});
