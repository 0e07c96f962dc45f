/**
 * The admin's reads of this chat's log — the API's pages, the dashboard's filtered history, an
 * export's log — answered by the object that holds the log (object-log-browser.ts builds the
 * reader: this object's SQLite once it holds the whole log, else D1 for this chat only). As in
 * log-reads.ts, an object that has not yet seen its chat has no log and answers with nothing.
 */
import {
  type BrowsedMessage,
  type ChatLogBrowser,
  type LoggedMessage,
  type LogPageAsk,
  MAX_LOG_PAGE,
  type MessageFilter,
} from "../composition/chat-object/chat-object-door";
import type { ExportMessage } from "../domain/sessions/session-registry";

/** A limit the API would refuse is refused here too: the object never reads an unbounded page. */
function checkedLimit(limit: number): number {
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LOG_PAGE)
    throw new RangeError(`limit must be an integer from 1 to ${MAX_LOG_PAGE}, not ${limit}`);
  return limit;
}

export class LogBrowse {
  readonly #browser: () => ChatLogBrowser;
  readonly #chatKey: () => string | null;
  constructor(deps: { browser: () => ChatLogBrowser; chatKey: () => string | null }) {
    this.#browser = deps.browser;
    this.#chatKey = deps.chatKey;
  }

  async page(q: LogPageAsk): Promise<LoggedMessage[]> {
    const limit = checkedLimit(q.limit);
    const chatKey = this.#chatKey();
    return chatKey === null ? [] : this.#browser().page(chatKey, { ...q, limit });
  }

  async browse(filter: MessageFilter): Promise<BrowsedMessage[]> {
    const limit = checkedLimit(filter.limit);
    const chatKey = this.#chatKey();
    return chatKey === null ? [] : this.#browser().browse(chatKey, { ...filter, limit });
  }

  async exportLog(): Promise<ExportMessage[]> {
    const chatKey = this.#chatKey();
    return chatKey === null ? [] : this.#browser().exportLog(chatKey);
  }
}
