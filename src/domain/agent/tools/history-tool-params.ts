/**
 * The arguments the history tools share (history-search-tool.ts, history-recent-tool.ts,
 * search-chat-history-tool.ts, recall-cross-chat-tool.ts): their schemas as the model sees them,
 * and how each tool reads what the model sent.
 */

export const CHAT_PARAM = {
  type: "string",
  description:
    "要查的聊天地址（可选，默认当前聊天；只能是同一聊天域内的聊天，见 find_chat；在群聊里不能查私聊）",
} as const;

export const FILTER_PARAMS = {
  since: {
    type: "string",
    description:
      "只看这个时间及之后的消息：YYYY-MM-DD、ISO 时间，或“昨天”“上周三”“5月3日”“last Friday”这样的说法",
  },
  until: { type: "string", description: "只看这个时间之前的消息（同上；一天的说法表示到那天结束）" },
  sender: { type: "string", description: "只看这个昵称（群名片）的人发的消息" },
} as const;

export const QUERY_PARAM = { type: "string", description: "要搜索的词语或句子" } as const;

function record(args: unknown): Record<string, unknown> {
  return typeof args === "object" && args !== null ? (args as Record<string, unknown>) : {};
}

/** A tool's `limit`: the schema tells the model the same default and bound that `read` applies. */
export function limitParam(fallback: number, max: number, description = `最多返回多少条，默认 ${fallback}`) {
  return {
    schema: { type: "integer", minimum: 1, maximum: max, description },
    read(args: unknown): number {
      const value = record(args).limit;
      if (typeof value !== "number" || !Number.isFinite(value)) return fallback;
      return Math.max(1, Math.min(max, Math.trunc(value)));
    },
  } as const;
}

/** The question's text and optional filters, or why they are unusable. */
export function readQuestion(
  args: unknown,
):
  | { ok: true; query: string; since?: string; until?: string; sender?: string }
  | { ok: false; reason: string } {
  const a = record(args);
  if (typeof a.query !== "string" || a.query.trim() === "")
    return { ok: false, reason: "query 必须是非空字符串" };
  const out: { ok: true; query: string; since?: string; until?: string; sender?: string } = {
    ok: true,
    query: a.query,
  };
  for (const key of ["since", "until", "sender"] as const) {
    const value = a[key];
    if (value === undefined || value === null || value === "") continue;
    if (typeof value !== "string") return { ok: false, reason: `${key} 必须是字符串` };
    out[key] = value;
  }
  return out;
}
