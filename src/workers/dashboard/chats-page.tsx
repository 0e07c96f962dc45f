/** Chats & history: the chat list, and one chat's messages with text, sender and date filters. */

import type { BrowsedMessage } from "../../composition/request/chats-service";
import { DataTable, DateRangeFields } from "./data-table";
import { formatTime } from "./format";
import { useT } from "./i18n/i18n";
import { PageNotices } from "./page-notices";

export type ChatRow = {
  chatKey: string;
  targetType: string;
  title: string | null;
  followed: boolean;
  lastSeen: number;
  retentionDays: number | null;
};

export function ChatsPage(props: { chats: readonly ChatRow[] }) {
  const t = useT();
  return (
    <>
      <h1>{t("nav.chats")}</h1>
      {props.chats.length === 0 ? (
        <p class="muted">{t("chats.none")}</p>
      ) : (
        <div class="scroll">
          <table>
            <thead>
              <tr>
                <th>{t("chats.col.chat")}</th>
                <th>{t("chats.col.type")}</th>
                <th>{t("chats.col.lastSeen")}</th>
                <th>{t("chats.col.stored")}</th>
              </tr>
            </thead>
            <tbody>
              {props.chats.map((chat) => (
                <tr>
                  <td>
                    <a href={`/admin/chats/${encodeURIComponent(chat.chatKey)}`}>
                      {chat.title ?? chat.chatKey}
                    </a>
                    {chat.title && <div class="muted">{chat.chatKey}</div>}
                  </td>
                  <td>{chat.targetType}</td>
                  <td>{formatTime(chat.lastSeen)}</td>
                  <td>{chat.followed ? t("chats.followed") : t("chats.notFollowed")}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}

export type HistoryFilters = { q?: string; sender?: string; from?: string; until?: string };

export function HistoryPage(props: {
  chatKey: string;
  filters: HistoryFilters;
  messages: readonly BrowsedMessage[];
  /** Why the chat's log could not be read (unknown chat, bad key, its object failed). */
  error?: string | undefined;
}) {
  const t = useT();
  const f = props.filters;
  return (
    <>
      <h1>{props.chatKey}</h1>
      <PageNotices error={props.error} />
      <form class="filters" method="get">
        <label>
          {t("filter.search")}
          <input type="search" name="q" value={f.q ?? ""} />
        </label>
        <label>
          {t("history.sender")}
          <input name="sender" value={f.sender ?? ""} placeholder={t("history.senderHint")} />
        </label>
        <DateRangeFields from={f.from} until={f.until} />
        <button type="submit">{t("filter.submit")}</button>
      </form>
      <DataTable
        headers={[t("history.col.time"), t("history.col.dir"), t("history.sender"), t("history.col.text")]}
        empty={t("history.none")}
        rows={props.messages.map((m) => (
          <tr>
            <td>{formatTime(m.ts)}</td>
            <td>{m.direction === "in" ? "→" : "←"}</td>
            <td>{m.direction === "out" ? t("history.bot") : (m.nick ?? m.userId ?? "—")}</td>
            <td>
              {m.text}
              {m.recalled ? <span class="tag">{t("history.recalled")}</span> : null}
            </td>
          </tr>
        ))}
      />
    </>
  );
}
