// `npm run akasha -- chats`: the chat registry, most recently seen first.
import { command as define, withApiOptions } from "../lib/args.mjs";
import { client } from "./admin-api.mjs";
import { output, table, time } from "./format.mjs";

export const renderChats = ({ chats }) =>
  table(
    chats,
    [
      { title: "chat", value: (c) => c.chatKey },
      { title: "type", value: (c) => c.targetType },
      { title: "stored", value: (c) => (c.followed ? "yes" : "no") },
      { title: "last seen", value: (c) => time(c.lastSeen) },
      { title: "title", value: (c) => c.title ?? "" },
    ],
    { empty: "No chats yet." },
  );

export function command(name = "chats") {
  return withApiOptions(
    define(name).description("the chat registry: key, type, stored or not, last seen"),
  ).action(async (options) => output(options, await client(options).call("GET", "/chats"), renderChats));
}
