/**
 * HistorySearch over the chats' own logs: each chat's log lives in its chat object, so a read
 * of one chat is a call to that chat's reader (`ChatLogs.of`), and a read of several chats is
 * one call per chat through `fanOut` — bounded in chats, in calls at once and in time, every
 * chat it could not read named with its reason. The reader (the turn's own chat) travels
 * unchanged with every call: the object gates its marked messages against it, so no read
 * here can pass another chat's private words along. The daily summaries still live in the
 * context store: the summary leg reads them there, as LogHistorySearch does.
 */
import type { Logger } from "../kernel/logger";
import type { ChatLogReader, ChatLogs } from "./chat-log-reader";
import type { SummaryHit, SummarySearchDeps } from "./chat-summary-search";
import { DEFAULT_FAN_OUT_LIMITS, type FanOutLimits, type FanOutResult, fanOut, UnreadError } from "./fan-out";
import { interleaveChats } from "./fan-out-interleave";
import { MAX_SEARCH_HITS, recentLimit } from "./history-limits";
import type {
  ChatReads,
  HistoryFilter,
  HistoryHit,
  HistoryReader,
  HistorySearch,
  UnreadChat,
} from "./history-search-port";
import { summaryLeg } from "./summary-leg";

export type FanOutHistorySearchDeps = {
  readonly logs: ChatLogs;
  /** Resolves after `ms` milliseconds: the reads' time budget. */
  readonly after: (ms: number) => Promise<void>;
  /** Bounds of a read of several chats (and the time budget of a read of one); default DEFAULT_FAN_OUT_LIMITS. */
  readonly limits?: FanOutLimits;
  /** The context store's index and nodes, for the chats' daily summaries; absent = no summary leg. */
  readonly summaries?: SummarySearchDeps;
  /** Where a chat not read is reported (chat key, reason, error): an object that keeps failing shows. */
  readonly logger?: Logger;
};

type AcrossQuery = { chatKeys: readonly string[]; text: string; limit: number } & HistoryFilter &
  HistoryReader;

/** The filter's fields that are set, and no other field of `q`: only these travel to an object. */
function filterOf(q: HistoryFilter): HistoryFilter {
  return {
    ...(q.since === undefined ? {} : { since: q.since }),
    ...(q.until === undefined ? {} : { until: q.until }),
    ...(q.senders === undefined ? {} : { senders: q.senders }),
  };
}

export class FanOutHistorySearch implements HistorySearch {
  readonly #deps: FanOutHistorySearchDeps;
  readonly #limits: FanOutLimits;
  constructor(deps: FanOutHistorySearchDeps) {
    this.#deps = deps;
    this.#limits = deps.limits ?? DEFAULT_FAN_OUT_LIMITS;
  }

  /** One chat's matches; throws UnreadError when its object failed or did not answer in time. */
  async search(
    q: { chatKey: string; text: string; limit: number; before?: number } & HistoryFilter & HistoryReader,
  ): Promise<HistoryHit[]> {
    return this.#one(q.chatKey, (log) =>
      log.search({
        reader: q.reader,
        text: q.text,
        limit: Math.min(q.limit, MAX_SEARCH_HITS),
        ...(q.before === undefined ? {} : { before: q.before }),
        ...filterOf(q),
      }),
    );
  }

  /** One chat's newest messages; throws UnreadError like `search`. */
  async recent(q: { chatKey: string; limit: number } & HistoryFilter & HistoryReader): Promise<HistoryHit[]> {
    return this.#one(q.chatKey, (log) =>
      log.recent({ reader: q.reader, limit: recentLimit(q.limit), ...filterOf(q) }),
    );
  }

  async searchAcross(q: AcrossQuery): Promise<HistoryHit[]> {
    return (await this.searchAcrossChats(q)).hits;
  }

  async searchAcrossChats(q: AcrossQuery): Promise<{ hits: HistoryHit[]; unread: readonly UnreadChat[] }> {
    const limit = Math.min(q.limit, MAX_SEARCH_HITS);
    if (limit <= 0) return { hits: [], unread: [] };
    const query = { reader: q.reader, text: q.text, limit, ...filterOf(q) };
    const reads = await this.eachChat(q.chatKeys, (chatKey) => this.#deps.logs.of(chatKey).search(query));
    const perChat = reads.answers.map((a) => ({ chatKey: a.chatKey, hits: a.value }));
    return { hits: interleaveChats(perChat, limit), unread: reads.unread };
  }

  /**
   * The names the chats' messages were sent under, the chats taken in turn (each chat's most
   * recent first). A chat not read adds no names: a sender filter then matches fewer, and
   * the search of that chat, which fails too, says the chat was not read.
   */
  async senders(chatKeys: readonly string[]): Promise<{ chatKey: string; nick: string }[]> {
    const reads = await this.eachChat(chatKeys, (chatKey) => this.#deps.logs.of(chatKey).senders());
    const lists = reads.answers.map((a) => a.value.map((nick) => ({ chatKey: a.chatKey, nick })));
    const out: { chatKey: string; nick: string }[] = [];
    for (let i = 0; lists.some((l) => i < l.length); i++)
      for (const list of lists) {
        const name = list[i];
        if (name) out.push(name);
      }
    return out;
  }

  async eachChat<T>(
    chatKeys: readonly string[],
    read: (chatKey: string) => Promise<T>,
  ): Promise<ChatReads<T>> {
    const result = await fanOut(chatKeys, read, { ...this.#limits, after: this.#deps.after });
    this.#report(result);
    return {
      answers: result.answers.map((a) => ({ chatKey: a.key, value: a.value })),
      unread: result.unread.map((u) => ({ chatKey: u.key, reason: u.reason })),
    };
  }

  async searchSummaries(q: {
    chatKeys: readonly string[];
    text: string;
    limit: number;
  }): Promise<SummaryHit[]> {
    return summaryLeg(this.#deps.summaries, q);
  }

  /** A read of one chat under the same time budget; a chat not read is an UnreadError, never []. */
  async #one<T>(chatKey: string, read: (log: ChatLogReader) => Promise<T>): Promise<T> {
    const result = await fanOut([chatKey], (key) => read(this.#deps.logs.of(key)), {
      ...this.#limits,
      maxChats: 1,
      concurrency: 1,
      after: this.#deps.after,
    });
    this.#report(result);
    const answer = result.answers[0];
    if (answer) return answer.value;
    const unread = result.unread[0];
    throw new UnreadError(chatKey, unread?.reason === "timeout" ? "timeout" : "failed", unread?.error);
  }

  /** Logs the chats not read, except a failure a read of one chat inside this one has logged already. */
  #report(result: FanOutResult<unknown>): void {
    for (const u of result.unread.filter((x) => !(x.error instanceof UnreadError)))
      this.#deps.logger?.warn("chat log not read", {
        chat: u.key,
        reason: u.reason,
        ...(u.error === undefined ? {} : { error: String(u.error) }),
      });
  }
}
