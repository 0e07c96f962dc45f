/**
 * The history a chat's turn reads: its own chat's log from where the chat object keeps it (no
 * round trip to a shared database), every other chat's through `others`. What decides is only
 * the chat key asked for, never the text; the read gate travels unchanged (`reader`) to either.
 */
import type { SummaryHit } from "./chat-summary-search";
import type {
  ChatReads,
  HistoryFilter,
  HistoryHit,
  HistoryReader,
  HistorySearch,
  UnreadChat,
} from "./history-search-port";

export class OwnChatHistory implements HistorySearch {
  readonly #own: string;
  readonly #local: HistorySearch;
  readonly #others: HistorySearch;
  constructor(own: string, local: HistorySearch, others: HistorySearch) {
    this.#own = own;
    this.#local = local;
    this.#others = others;
  }

  #of(chatKey: string): HistorySearch {
    return chatKey === this.#own ? this.#local : this.#others;
  }

  search(
    q: { chatKey: string; text: string; limit: number; before?: number } & HistoryFilter & HistoryReader,
  ): Promise<HistoryHit[]> {
    return this.#of(q.chatKey).search(q);
  }

  recent(q: { chatKey: string; limit: number } & HistoryFilter & HistoryReader): Promise<HistoryHit[]> {
    return this.#of(q.chatKey).recent(q);
  }

  /** Reads across chats go to `others`, which reaches every chat, this one included. */
  searchAcross(
    q: { chatKeys: readonly string[]; text: string; limit: number } & HistoryFilter & HistoryReader,
  ): Promise<HistoryHit[]> {
    return this.#others.searchAcross(q);
  }

  senders(chatKeys: readonly string[]): Promise<{ chatKey: string; nick: string }[]> {
    if (chatKeys.length === 1 && chatKeys[0] === this.#own) return this.#local.senders(chatKeys);
    return this.#others.senders(chatKeys);
  }

  async searchSummaries(q: {
    chatKeys: readonly string[];
    text: string;
    limit: number;
  }): Promise<SummaryHit[]> {
    return (await this.#others.searchSummaries?.(q)) ?? [];
  }

  /** As `searchAcross`, saying which chats could not be read (when `others` can say it). */
  async searchAcrossChats(
    q: { chatKeys: readonly string[]; text: string; limit: number } & HistoryFilter & HistoryReader,
  ): Promise<{ hits: HistoryHit[]; unread: readonly UnreadChat[] }> {
    if (this.#others.searchAcrossChats) return this.#others.searchAcrossChats(q);
    return { hits: await this.#others.searchAcross(q), unread: [] };
  }

  /** Several chats read the way `others` reads them; one after the other when it has no way of its own. */
  async eachChat<T>(
    chatKeys: readonly string[],
    read: (chatKey: string) => Promise<T>,
  ): Promise<ChatReads<T>> {
    if (this.#others.eachChat) return this.#others.eachChat(chatKeys, read);
    const answers: { chatKey: string; value: T }[] = [];
    for (const chatKey of chatKeys) answers.push({ chatKey, value: await read(chatKey) });
    return { answers, unread: [] };
  }
}
