// `npm run akasha -- messages <chat> [--limit N] [--before T] [--export [FILE]]`: a chat's
// message log, newest first; --export pages through all of it (500 per request, with a
// progress bar) into a JSON Lines file, oldest first.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { command as define, integer, withApiOptions } from "../lib/args.mjs";
import { client, outputTimed, query } from "./admin-api.mjs";
import { checkedChatKey } from "./chat-key.mjs";
import { clip, output, table, time } from "./format.mjs";
import { t } from "./i18n/lang.mjs";
import { progressBar } from "./progress.mjs";

const PAGE = 500;

/** A page of a chat's log, times in `timeZone` with their offset. */
export const renderMessages = ({ chat, messages }, timeZone) =>
  `${chat}\n${table(
    messages,
    [
      { title: t("messages.col.time"), value: (m) => time(m.ts, timeZone) },
      { title: t("messages.col.dir"), value: (m) => (m.direction === "out" ? "→" : "←") },
      { title: t("messages.col.sender"), value: (m) => clip(m.nick ?? m.accountKey ?? m.userId ?? "", 16) },
      {
        title: t("messages.col.text"),
        value: (m) => `${m.recalled ? t("messages.recalled") : ""}${clip(m.text, 80)}`,
      },
    ],
    { empty: t("messages.none") },
  )}`;

/** Every message of the chat, oldest first, paging back by timestamp. */
export async function allMessages(api, chat, onPage = () => {}) {
  const seen = new Set();
  const out = [];
  let before;
  for (;;) {
    const page = await api.call("GET", `/messages${query({ chat, limit: PAGE, before })}`);
    // `before` is exclusive, so the next page starts at the oldest timestamp again (+1) to keep
    // messages sharing it; those already seen are dropped by seq.
    const fresh = page.messages.filter((m) => !seen.has(m.seq));
    for (const m of fresh) {
      seen.add(m.seq);
      out.push(m);
    }
    onPage(out.length, page.messages.length === PAGE);
    if (page.messages.length < PAGE || fresh.length === 0) break;
    before = Math.min(...page.messages.map((m) => m.ts)) + 1;
  }
  return out.sort((a, b) => a.ts - b.ts || a.seq - b.seq);
}

export function command(name = "messages") {
  return withApiOptions(
    define(name)
      .description(t("messages.desc"))
      .argument("<chat>", t("messages.arg.chat"))
      .option("--limit <n>", t("messages.opt.limit"), integer(1, 500), 50)
      .option("--before <ms>", t("messages.opt.before"), integer(0, Number.MAX_SAFE_INTEGER))
      .option("--export [file]", t("messages.opt.export")),
  ).action(async (rawChat, options) => {
    const chat = await checkedChatKey(rawChat);
    const api = client(options);
    if (options.export === undefined) {
      const page = await api.call(
        "GET",
        `/messages${query({ chat, limit: options.limit, before: options.before })}`,
      );
      await outputTimed(api, options, page, renderMessages);
      return;
    }
    const file = path.resolve(
      process.env.INIT_CWD ?? process.cwd(),
      typeof options.export === "string"
        ? options.export
        : `messages-${chat.replaceAll(":", "_")}-${new Date().toISOString().replace(/[:.]/g, "-")}.jsonl`,
    );
    const bar = progressBar(options, "messages");
    const rows = await allMessages(api, chat, (n, more) => bar.update(n, more ? n + PAGE : n));
    bar.stop();
    writeFileSync(
      file,
      rows.map((m) => JSON.stringify({ chat, ...m })).join("\n") + (rows.length ? "\n" : ""),
    );
    output(options, { chat, file, messages: rows.length }, (r) =>
      t("messages.exported", { count: r.messages, chat: r.chat, file: r.file }),
    );
  });
}
