/** The Chats page under /admin/chats: the known chats, and one chat's log with its filters. */
import { Hono } from "hono";
import type { AppEnv } from "../app-env";
import { ChatsPage, HistoryPage } from "./chats-page";
import { dayRange } from "./format";
import { render } from "./page-render";

export const chatsPageRoutes = new Hono<AppEnv>()
  .get("/", async (c) => {
    const chats = await c.get("services").chats.list();
    return render(c, "/admin/chats", c.get("i18n").t("nav.chats"), <ChatsPage chats={chats} />);
  })
  .get("/:chat", async (c) => {
    const chatKey = c.req.param("chat");
    const q = c.req.query();
    const { timeZone } = c.get("i18n");
    const from = dayRange(q.from, timeZone)?.start;
    const until = dayRange(q.until, timeZone)?.end;
    const messages = await c.get("services").chats.browse(chatKey, {
      limit: 200,
      ...(q.q ? { text: q.q } : {}),
      ...(q.sender ? { sender: q.sender } : {}),
      ...(from !== undefined ? { from } : {}),
      ...(until !== undefined ? { until } : {}),
    });
    return render(
      c,
      "/admin/chats",
      chatKey,
      <HistoryPage chatKey={chatKey} filters={q} messages={messages} />,
    );
  });
