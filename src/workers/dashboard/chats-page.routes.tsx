/** The Chats page under /admin/chats: the known chats, and one chat's log with its filters. */
import { Hono } from "hono";
import type { DomainError } from "../../domain/kernel/result";
import type { AppEnv } from "../app-env";
import { ChatsPage, HistoryPage } from "./chats-page";
import { dayRange } from "./format";
import type { Translate } from "./i18n/i18n";
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
    const read = await c.get("services").chats.browse(chatKey, {
      limit: 200,
      ...(q.q ? { text: q.q } : {}),
      ...(q.sender ? { sender: q.sender } : {}),
      ...(from !== undefined ? { from } : {}),
      ...(until !== undefined ? { until } : {}),
    });
    const refusal = read.ok ? null : historyRefusal(c.get("i18n").t, chatKey, read.error);
    return render(
      c,
      "/admin/chats",
      chatKey,
      <HistoryPage
        chatKey={chatKey}
        filters={q}
        messages={read.ok ? read.value : []}
        error={refusal?.text}
      />,
      refusal?.status ?? 200,
    );
  });

/** Why a chat's history could not be shown, in the page's language, and the page's status. */
function historyRefusal(t: Translate, chatKey: string, e: DomainError) {
  if (e.kind === "invalid") return { text: t("history.badChat", { reason: e.reason }), status: 400 as const };
  if (e.kind === "not-found")
    return { text: t("history.unknownChat", { chat: chatKey }), status: 404 as const };
  return {
    text: t("history.unreadable", { reason: "reason" in e ? e.reason : e.kind }),
    status: 503 as const,
  };
}
