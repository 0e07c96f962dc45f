/**
 * The turn's model, with the chat object's event loop let in before and after each call: the
 * recall before the first call, each tool round between calls, and the offline model's own
 * work are synchronous stretches as far as a waiting `enqueue` is concerned (the offline
 * model resolves without I/O), so without these points an ACK waits for the whole turn.
 */
import type { ChatModel } from "../domain/model/chat-model";
import { yieldToEvents } from "./yield-to-events";

export function yieldingModel(model: ChatModel): ChatModel {
  return {
    provider: model.provider,
    model: model.model,
    async complete(request) {
      await yieldToEvents();
      const response = await model.complete(request);
      await yieldToEvents();
      return response;
    },
  };
}
