// `npm run akasha -- chats`: the chat registry, most recently seen first.
import { command as define, withApiOptions } from "../lib/args.mjs";
import { client, outputTimed } from "./admin-api.mjs";
import { table, time } from "./format.mjs";
import { t } from "./i18n/lang.mjs";

/** The chat registry as a table, times in `timeZone` with their offset. */
export const renderChats = ({ chats }, timeZone) =>
  table(
    chats,
    [
      { title: t("chats.col.chat"), value: (c) => c.chatKey },
      { title: t("chats.col.type"), value: (c) => c.targetType },
      { title: t("chats.col.stored"), value: (c) => t(c.followed ? "chats.yes" : "chats.no") },
      { title: t("chats.col.lastSeen"), value: (c) => time(c.lastSeen, timeZone) },
      { title: t("chats.col.title"), value: (c) => c.title ?? "" },
    ],
    { empty: t("chats.none") },
  );

export function command(name = "chats") {
  return withApiOptions(define(name).description(t("chats.desc"))).action(async (options) => {
    const api = client(options);
    await outputTimed(api, options, await api.call("GET", "/chats"), renderChats);
  });
}
