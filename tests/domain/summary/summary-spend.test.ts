import { DEFAULT_SUMMARY_SETTINGS } from "@src/domain/config/summary-settings";
import { silentLogger } from "@src/domain/kernel/logger";
import { ok } from "@src/domain/kernel/result";
import type { ChatModel } from "@src/domain/model/chat-model";
import { summarizeDay } from "@src/domain/summary/daily-summary";
import type { DayMessage } from "@src/domain/summary/day-message";
import { describe, it } from "vitest";

const day: DayMessage[] = [
  "周末去露营吗",
  "露营要带帐篷",
  "帐篷我有两顶",
  "露营地在西湖边",
  "帐篷可以租",
].map((text, i) => ({
  messageId: `m${i}`,
  ts: 1000 + i,
  userId: `u${i}`,
  nick: null,
  text,
  replyTo: null,
  direction: "in",
}));

function countingModel() {
  const model = {
    calls: 0,
    provider: "openai-compatible",
    model: "scripted",
    async complete() {
      model.calls++;
      return ok({
        text: "话题：露营\n大家商量周末露营。",
        toolCalls: [],
        usage: { promptTokens: 10, completionTokens: 5 },
      });
    },
  };
  return model;
}

describe("daily summary under the spend caps", () => {
  const input = {
    chatKey: "qq:group:g1",
    targetType: "group",
    day: "2026-11-30",
    timeZone: "Asia/Shanghai",
    messages: day,
  };
  const settings = { ...DEFAULT_SUMMARY_SETTINGS, useModel: true, minMessages: 1 };

  /** Summarizes the day with a counting model, the caps allowing a model call or not. */
  const summarize = async (mayCall: boolean) => {
    const model = countingModel();
    const out = await summarizeDay(input, settings, {
      model: model as unknown as ChatModel,
      logger: silentLogger,
      now: () => 2000,
      mayCallModel: async () => mayCall,
    });
    return { model, out };
  };

  it("summarizes a capped chat extractively and makes no model call", async ({ expect }) => {
    const { model, out } = await summarize(false);
    expect(model.calls).toBe(0);
    expect(out.usage).toBeNull();
    expect(out.summary?.method).toBe("extractive");
  });

  it("calls the model when the caps allow it", async ({ expect }) => {
    const { model, out } = await summarize(true);
    expect(model.calls).toBe(1);
    expect(out.summary?.method).toBe("model");
  });
});
