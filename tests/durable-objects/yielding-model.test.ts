// The turn's model lets the event loop in before and after each call, so an event waiting on
// the chat object (an enqueue) runs between recall and the model, and between tool rounds.

import { ok } from "@src/domain/kernel/result";
import type { ChatModel } from "@src/domain/model/chat-model";
import { yieldingModel } from "@src/durable-objects/yielding-model";
import { describe, it } from "vitest";

describe("yieldingModel", () => {
  it("runs a waiting macrotask before the call and another before the caller goes on", async ({ expect }) => {
    const order: string[] = [];
    const inner: ChatModel = {
      provider: "offline",
      model: "m",
      complete: async () => {
        order.push("complete");
        setTimeout(() => order.push("after"), 0);
        return ok({ text: "hi", toolCalls: [], usage: { promptTokens: 1, completionTokens: 1 } }) as never;
      },
    };
    setTimeout(() => order.push("before"), 0);
    const model = yieldingModel(inner);
    const response = await model.complete({
      messages: [],
      maxTokens: 10,
      recalled: [],
      summary: null,
    } as never);
    order.push("returned");
    expect(response.ok).toBe(true);
    expect(order).toEqual(["before", "complete", "after", "returned"]);
    expect([model.provider, model.model]).toEqual(["offline", "m"]);
  });
});
