// The chat object end to end: an alarm whose turn dies after the reply was planned (the send
// throws, as when the isolate goes away) leaves the row open; the next alarm sends the reply
// once, without running the turn again.

import { chatObjectServices } from "@src/composition/chat-object/chat-object-services";
import type { Outbound, OutboundMessage } from "@src/domain/agent/outbound";
import { ok } from "@src/domain/kernel/result";
import { describe, it, vi } from "vitest";
import { ScriptedChatModel } from "../fakes/scripted-chat-model";
import { c2cBody, eventIdOf, messageRowsOnceThere, postQq, turnDone } from "../support/qq-events";

class DiesOnceOutbound implements Outbound {
  readonly sent: string[] = [];
  died = 0;
  async send(message: OutboundMessage) {
    if (this.died === 0) {
      this.died++;
      throw new Error("isolate went away mid-turn");
    }
    this.sent.push(message.text);
    return ok({ messageId: `OUT-${crypto.randomUUID()}`, ts: Date.now(), duplicate: false });
  }
}

describe("ChatSession alarm", () => {
  it("retries a turn that died mid-way without a second model call or a second reply", async ({ expect }) => {
    const real = chatObjectServices.create.bind(chatObjectServices);
    const outbound = new DiesOnceOutbound();
    const model = new ScriptedChatModel([{ text: "只回一次" }, { text: "不该出现" }]);
    vi.spyOn(chatObjectServices, "create").mockImplementation((e) => ({
      ...real(e),
      model,
      outbound: () => outbound,
    }));
    const user = `U${crypto.randomUUID().replaceAll("-", "")}`;
    const body = c2cBody({ user, text: "你好" });
    expect((await postQq(body)).status).toBe(200);
    const status = await turnDone(`qq:private:${user}`, eventIdOf(body), 15_000);
    expect(outbound.died).toBe(1);
    expect(outbound.sent).toEqual(["只回一次"]);
    expect(model.requests).toHaveLength(1);
    expect(status.replies).toEqual([{ text: "只回一次", state: "sent" }]);
    const rows = await messageRowsOnceThere(`qq:private:${user}`, 2);
    expect(rows.map((r) => [r.direction, r.text])).toEqual([
      ["in", "你好"],
      ["out", "只回一次"],
    ]);
  });
});
