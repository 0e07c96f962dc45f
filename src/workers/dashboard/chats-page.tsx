/** Chats & history: the chat list, and one chat's messages with text, sender and date filters. */
import type { BrowsedMessage } from "../../composition/request/chats-service";
import { DataTable, DateRangeFields } from "./data-table";
import { formatTime } from "./format";

export type ChatRow = {
  chatKey: string;
  targetType: string;
  title: string | null;
  followed: boolean;
  lastSeen: number;
  retentionDays: number | null;
};

export function ChatsPage(props: { chats: readonly ChatRow[] }) {
  return (
    <>
      <h1>Chats</h1>
      {props.chats.length === 0 ? (
        <p class="muted">No chats yet.</p>
      ) : (
        <div class="scroll">
          <table>
            <thead>
              <tr>
                <th>Chat</th>
                <th>Type</th>
                <th>Last seen</th>
                <th>Stored</th>
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
                  <td>{chat.followed ? "followed" : "not followed"}</td>
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
}) {
  const f = props.filters;
  return (
    <>
      <h1>{props.chatKey}</h1>
      <form class="filters" method="get">
        <label>
          Search
          <input type="search" name="q" value={f.q ?? ""} />
        </label>
        <label>
          Sender
          <input name="sender" value={f.sender ?? ""} placeholder="user id or nickname" />
        </label>
        <DateRangeFields from={f.from} until={f.until} />
        <button type="submit">Filter</button>
      </form>
      <DataTable
        headers={["Time (UTC)", "Dir", "Sender", "Text"]}
        empty="No messages match."
        rows={props.messages.map((m) => (
          <tr>
            <td>{formatTime(m.ts)}</td>
            <td>{m.direction === "in" ? "→" : "←"}</td>
            <td>{m.direction === "out" ? "bot" : (m.nick ?? m.userId ?? "—")}</td>
            <td>
              {m.text}
              {m.recalled ? <span class="tag">recalled</span> : null}
            </td>
          </tr>
        ))}
      />
    </>
  );
}
