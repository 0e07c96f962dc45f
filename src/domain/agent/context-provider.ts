/**
 * Context providers add sections to a turn's prompt before the model runs (recalled history,
 * memory, knowledge). Each reads only what the resolved turn allows; none takes input from
 * the model.
 */
import { localDay } from "../kernel/local-day";
import type { ContextSection } from "./prompt";
import type { TurnContext } from "./turn-context";
import type { TurnServices } from "./turn-services";

export interface ContextProvider {
  readonly name: string;
  collect(ctx: TurnContext, services: TurnServices): Promise<ContextSection | null>;
}

/** Older messages of this chat that match the message being answered (and, space left, their context). */
export const historyRecall: ContextProvider = {
  name: "history",
  async collect(ctx, services) {
    const limit = ctx.settings.turn.historyRecall;
    if (limit === 0) return null;
    const recentTexts = new Set(ctx.recent.map((t) => t.text));
    const currentId = ctx.event.message?.id;
    const hits = await services.history.search({
      chatKey: ctx.chat.key,
      reader: ctx.chat.key,
      text: ctx.text,
      limit: limit + 4,
    });
    const items = hits
      .filter((h) => h.messageId !== currentId && !recentTexts.has(h.text) && h.text !== ctx.text)
      .slice(0, limit)
      .map((h) => ({
        source: "history",
        text: `${h.direction === "out" ? "我" : (h.nick ?? "某人")}: ${h.text}`,
        citation: `聊天记录 ${localDay(h.ts, ctx.settings.calendar.timeZone)}${h.via === "context" ? "（上下文）" : ""}`,
        marked: h.marked ?? true,
      }));
    return items.length === 0 ? null : { title: "相关的聊天记录", items };
  },
};
