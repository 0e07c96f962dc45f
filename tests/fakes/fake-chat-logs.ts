/**
 * The chats' own logs over an array, for domain tests: each chat numbers its messages itself
 * (seq 1, 2, … per chat), and each read applies the object's gate — a message its speaker
 * marked private is served only to a reader that is its own chat. Records every call with the
 * reader it carried; a chat can be made to fail or to never answer.
 */
import type {
  ChatLogListing,
  ChatLogReader,
  ChatLogSearch,
  ChatLogs,
} from "../../src/domain/history/chat-log-reader";
import type { HistoryHit } from "../../src/domain/history/history-search-port";

export type StoredMessage = Omit<HistoryHit, "rank" | "via"> & { readonly marked?: boolean };

export type ChatLogCall = { readonly chatKey: string; readonly method: string; readonly reader?: string };

export class FakeChatLogs implements ChatLogs {
  readonly messages: StoredMessage[] = [];
  readonly calls: ChatLogCall[] = [];
  /** Chats whose every read throws. */
  readonly broken = new Set<string>();
  /** Chats whose reads never answer. */
  readonly hanging = new Set<string>();

  /** Adds a message to its chat's log under the chat's next seq. */
  say(chatKey: string, text: string, more: Partial<StoredMessage> = {}): StoredMessage {
    const seq = this.messages.filter((m) => m.chatKey === chatKey).length + 1;
    const m: StoredMessage = {
      seq,
      chatKey,
      messageId: `${chatKey}#${seq}`,
      ts: 1_700_000_000_000 + seq * 60_000,
      nick: "小明",
      text,
      direction: "in",
      ...more,
    };
    this.messages.push(m);
    return m;
  }

  of(chatKey: string): ChatLogReader {
    return {
      search: (q) => this.#read(chatKey, "search", q.reader, () => this.#search(chatKey, q)),
      recent: (q) => this.#read(chatKey, "recent", q.reader, () => this.#recent(chatKey, q)),
      senders: () => this.#read(chatKey, "senders", undefined, () => this.#senders(chatKey)),
    };
  }

  async #read<T>(chatKey: string, method: string, reader: string | undefined, answer: () => T): Promise<T> {
    this.calls.push({ chatKey, method, ...(reader === undefined ? {} : { reader }) });
    if (this.broken.has(chatKey)) throw new Error(`object ${chatKey} failed`);
    if (this.hanging.has(chatKey)) return new Promise<T>(() => {});
    return answer();
  }

  /** The chat's messages the reader may see, inside the filter's time range. */
  #visible(chatKey: string, q: ChatLogListing | ChatLogSearch): StoredMessage[] {
    return this.messages.filter(
      (m) =>
        m.chatKey === chatKey &&
        (!m.marked || q.reader === chatKey) &&
        (q.since === undefined || m.ts >= q.since) &&
        (q.until === undefined || m.ts < q.until),
    );
  }

  /** Matches by substring in seq order, each followed by the turns right before and after it. */
  #search(chatKey: string, q: ChatLogSearch): HistoryHit[] {
    const words = q.text.split(/\s+/).filter(Boolean);
    const visible = this.#visible(chatKey, q);
    const matches = visible
      .filter(
        (m) => (!q.senders || q.senders.includes(m.nick ?? "")) && words.some((w) => m.text.includes(w)),
      )
      .slice(0, q.limit);
    const matched = new Set(matches.map((m) => m.seq));
    const shown = new Set<number>();
    return matches.flatMap((m, i) => {
      const around = visible.filter(
        (n) => Math.abs(n.seq - m.seq) === 1 && !matched.has(n.seq) && !shown.has(n.seq),
      );
      for (const n of around) shown.add(n.seq);
      return [
        { ...plain(m), rank: i, via: "hit" as const },
        ...around.map((n) => ({ ...plain(n), rank: i, via: "context" as const })),
      ];
    });
  }

  #recent(chatKey: string, q: ChatLogListing): HistoryHit[] {
    return this.#visible(chatKey, q)
      .filter((m) => !q.senders || q.senders.includes(m.nick ?? ""))
      .sort((a, b) => b.ts - a.ts)
      .slice(0, q.limit)
      .map((m) => ({ ...plain(m), rank: null }));
  }

  #senders(chatKey: string): string[] {
    const names = this.messages.filter((m) => m.chatKey === chatKey && m.nick).map((m) => m.nick as string);
    return [...new Set(names.reverse())];
  }
}

function plain(m: StoredMessage): Omit<HistoryHit, "rank" | "via"> {
  const { marked: _, ...rest } = m;
  return rest;
}
