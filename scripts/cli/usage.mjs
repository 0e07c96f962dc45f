// `npm run akasha -- usage [--days N] [--chat C]`: model calls and tokens per model, day and
// chat, and today's spend against the daily caps.
import { command as define, integer, withApiOptions } from "../lib/args.mjs";
import { client, query } from "./admin-api.mjs";
import { againstCap, clip, output, table, tokens } from "./format.mjs";
import { t } from "./i18n/lang.mjs";

/** Built when a table is drawn, so the titles are in the language of that run. */
const usageColumns = () => [
  { title: t("usage.col.model"), value: (r) => r.model },
  { title: t("usage.col.calls"), value: (r) => r.calls },
  { title: t("usage.col.errors"), value: (r) => r.errors },
  { title: t("usage.col.prompt"), value: (r) => tokens(r.promptTokens), right: true },
  { title: t("usage.col.completion"), value: (r) => tokens(r.completionTokens), right: true },
  { title: t("usage.col.avgMs"), value: (r) => r.avgLatencyMs ?? 0 },
];

export function renderSpend(spend) {
  if (!spend) return t("usage.notReported");
  const used = againstCap(spend.global.tokens, spend.globalDailyTokens);
  const cap =
    spend.chatDailyTokens === null
      ? t("usage.noCap")
      : t("usage.capTokens", { n: tokens(spend.chatDailyTokens) });
  const lines = [
    t("usage.today", { day: spend.day, zone: spend.timeZone, used }),
    t("usage.perChatCap", { cap }),
  ];
  if (spend.chats.length > 0)
    lines.push(
      table(spend.chats, [
        { title: t("usage.col.chatToday"), value: (c) => clip(c.chatKey, 40) },
        { title: t("usage.col.calls"), value: (c) => c.calls },
        { title: t("usage.col.tokens"), value: (c) => againstCap(c.tokens, c.cap) },
      ]),
    );
  return lines.join("\n");
}

export function renderUsage(u, days) {
  const empty = { empty: t("usage.none") };
  const columns = usageColumns();
  const day = { title: t("usage.col.day"), value: (r) => r.day };
  const chat = { title: t("usage.col.chat"), value: (r) => clip(r.chatKey ?? "—", 36) };
  return [
    t("usage.spend"),
    renderSpend(u.spend),
    "",
    t("usage.window", { days }),
    table(u.total, columns, empty),
    "",
    `${t("usage.perDay")} (${u.spend?.timeZone ?? "UTC"})`,
    table(u.byDay, [day, ...columns], empty),
    "",
    t("usage.perChat"),
    table(u.byChat, [chat, ...columns], empty),
  ].join("\n");
}

export function command(name = "usage") {
  return withApiOptions(
    define(name)
      .description(t("usage.desc"))
      .option("--days <n>", t("usage.opt.days"), integer(1, 366), 30)
      .option("--chat <chat>", t("usage.opt.chat")),
  ).action(async (o) => {
    const u = await client(o).call("GET", `/usage${query({ days: o.days, chat: o.chat })}`);
    output(o, u, (x) => renderUsage(x, o.days));
  });
}
