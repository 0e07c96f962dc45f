/**
 * What another chat's turn, the admin faces and the owner's tools read of this chat's log: each
 * read is answered here, by the object that holds the log, over the same history search the
 * chat's own turns use. The reader's chat comes with every call and the read gate applies to it
 * as everywhere (a message marked private is served only to the chat it was said in). An object
 * that has not yet seen its chat has no log: it answers with nothing rather than guessing a key.
 */
import type { ChatLogListing, ChatLogSearch } from "../domain/history/chat-log-reader";
import type { HistoryHit, HistorySearch } from "../domain/history/history-search-port";

export class LogReads {
  readonly #history: () => HistorySearch;
  readonly #chatKey: () => string | null;
  constructor(deps: { history: () => HistorySearch; chatKey: () => string | null }) {
    this.#history = deps.history;
    this.#chatKey = deps.chatKey;
  }

  async search(q: ChatLogSearch): Promise<HistoryHit[]> {
    const chatKey = this.#chatKey();
    return chatKey === null ? [] : this.#history().search({ ...q, chatKey });
  }

  async recent(q: ChatLogListing): Promise<HistoryHit[]> {
    const chatKey = this.#chatKey();
    return chatKey === null ? [] : this.#history().recent({ ...q, chatKey });
  }

  async senders(): Promise<string[]> {
    const chatKey = this.#chatKey();
    if (chatKey === null) return [];
    return (await this.#history().senders([chatKey])).map((s) => s.nick);
  }
}
