/** HistorySearch over an array, matching by substring; for domain tests only. */
import type { HistoryHit, HistorySearch } from "../../src/domain/history/history-search-port";

export class InMemoryHistory implements HistorySearch {
  readonly hits: HistoryHit[];
  constructor(hits: HistoryHit[] = []) {
    this.hits = hits;
  }

  async search(q: { chatKey: string; text: string; limit: number }): Promise<HistoryHit[]> {
    const words = q.text.split(/\s+/).filter(Boolean);
    return this.hits
      .filter((h) => h.chatKey === q.chatKey && words.some((w) => h.text.includes(w)))
      .slice(0, q.limit);
  }

  async searchAcross(q: { chatKeys: readonly string[]; text: string; limit: number }): Promise<HistoryHit[]> {
    const words = q.text.split(/\s+/).filter(Boolean);
    return this.hits
      .filter((h) => q.chatKeys.includes(h.chatKey) && words.some((w) => h.text.includes(w)))
      .slice(0, q.limit);
  }

  async senders(chatKeys: readonly string[]): Promise<{ chatKey: string; nick: string }[]> {
    return this.hits.flatMap((h) =>
      chatKeys.includes(h.chatKey) && h.nick ? [{ chatKey: h.chatKey, nick: h.nick }] : [],
    );
  }

  async recent(q: { chatKey: string; limit: number }): Promise<HistoryHit[]> {
    return this.hits
      .filter((h) => h.chatKey === q.chatKey)
      .sort((a, b) => b.ts - a.ts)
      .slice(0, q.limit);
  }
}

export function hit(chatKey: string, text: string, ts = 1_700_000_000_000, seq = ts): HistoryHit {
  return { seq, chatKey, messageId: `m${seq}`, ts, nick: "小明", text, direction: "in", rank: -1 };
}
