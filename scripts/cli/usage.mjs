// `npm run akasha -- usage [--days N] [--chat C]`: model calls and tokens per model, day and
// chat, and today's spend against the daily caps.
import { command as define, integer, withApiOptions } from "../lib/args.mjs";
import { client, query } from "./admin-api.mjs";
import { againstCap, clip, output, table, tokens } from "./format.mjs";

const usageColumns = [
  { title: "model", value: (r) => r.model },
  { title: "calls", value: (r) => r.calls },
  { title: "errors", value: (r) => r.errors },
  { title: "prompt", value: (r) => tokens(r.promptTokens), right: true },
  { title: "completion", value: (r) => tokens(r.completionTokens), right: true },
  { title: "avg ms", value: (r) => r.avgLatencyMs ?? 0 },
];

export function renderSpend(spend) {
  if (!spend) return "spend caps: not reported by this Worker";
  const lines = [
    `today ${spend.day} (${spend.timeZone}): ${againstCap(spend.global.tokens, spend.globalDailyTokens)} over all chats`,
    `per-chat cap: ${spend.chatDailyTokens === null ? "none" : `${tokens(spend.chatDailyTokens)} tokens`}`,
  ];
  if (spend.chats.length > 0)
    lines.push(
      table(spend.chats, [
        { title: "chat today", value: (c) => clip(c.chatKey, 40) },
        { title: "calls", value: (c) => c.calls },
        { title: "tokens", value: (c) => againstCap(c.tokens, c.cap) },
      ]),
    );
  return lines.join("\n");
}

export function renderUsage(u, days) {
  return [
    `Spend`,
    renderSpend(u.spend),
    "",
    `Last ${days} day(s), per model`,
    table(u.total, usageColumns, { empty: "No model calls." }),
    "",
    "Per day",
    table(u.byDay, [{ title: "day", value: (r) => r.day }, ...usageColumns], { empty: "No model calls." }),
    "",
    "Per chat",
    table(u.byChat, [{ title: "chat", value: (r) => clip(r.chatKey ?? "—", 36) }, ...usageColumns], {
      empty: "No model calls.",
    }),
  ].join("\n");
}

export function command(name = "usage") {
  return withApiOptions(
    define(name)
      .description("model usage per model, day and chat; today's spend against the caps")
      .option("--days <n>", "window in days, ending today (1–366)", integer(1, 366), 30)
      .option("--chat <chat>", "one chat only"),
  ).action(async (o) => {
    const u = await client(o).call("GET", `/usage${query({ days: o.days, chat: o.chat })}`);
    output(o, u, (x) => renderUsage(x, o.days));
  });
}
