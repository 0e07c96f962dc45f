/**
 * One history question over a set of chats, as the history tools and the evaluation ask it:
 * the time range comes from `since` / `until`, or — when neither is given — from a day the
 * question names ("昨天", "上周三", "5月3日", "last Friday"); the sender from `sender`, or from
 * a display name of the chats that the question contains ("小明上周说了什么"). Whatever named
 * the range or the sender is taken out of the text searched. A filtered question whose words
 * match nothing in the filter lists the filter's messages instead, newest first, so
 * "小明昨天说了什么" lists what 小明 said yesterday. The chats are the caller's (the turn and the gate), never
 * the model's.
 */
import { type DateReference, parseDateBound, resolveDateRange } from "./date-range";
import type { HistoryFilter, HistoryHit, HistorySearch, UnreadChat } from "./history-search-port";

export type HistoryQuery = {
  /** The chats to read, decided by the turn and the gate. */
  readonly chats: readonly string[];
  /** The chat whose turn reads: another chat's marked messages are not served to it. */
  readonly reader: string;
  readonly query: string;
  readonly since?: string;
  readonly until?: string;
  readonly sender?: string;
  /** Matches per chat (context turns come on top). */
  readonly limit: number;
  readonly reference: DateReference;
  /** Read days and senders out of the question (default); off = the words alone. */
  readonly resolve?: boolean;
};

export type ResolvedHistoryQuery = {
  readonly text: string;
  readonly since?: number;
  readonly until?: number;
  /** The words that named the range, when it came from the question. */
  readonly datePhrase?: string;
  readonly senders?: readonly string[];
  /** The sender came from the question rather than `sender`: it filters only the listing. */
  readonly senderFromText?: boolean;
};

export type HistoryAnswer = {
  readonly resolved: ResolvedHistoryQuery;
  /** Each chat's hits, in the order of `chats`. */
  readonly perChat: ReadonlyArray<{ readonly chatKey: string; readonly hits: readonly HistoryHit[] }>;
  /** The chats that could not be read this time (none when the history reads them all or fails). */
  readonly unread: readonly UnreadChat[];
};

/** A display name shorter than this is never read out of a question (too many false finds). */
const MIN_NAME_CHARS = 2;

export async function askHistory(
  history: HistorySearch,
  q: HistoryQuery,
): Promise<{ ok: true; value: HistoryAnswer } | { ok: false; reason: string }> {
  const resolved = await resolveQuery(history, q);
  if (!resolved.ok) return resolved;
  const r = resolved.value;
  const read = (chatKey: string) => searchOneChat(history, chatKey, r, q.limit, q.reader);
  // A history whose chats live apart reads them side by side and says which it missed.
  if (history.eachChat) {
    const reads = await history.eachChat(q.chats, read);
    const perChat = reads.answers.map((a) => ({ chatKey: a.chatKey, hits: a.value }));
    return { ok: true, value: { resolved: r, perChat, unread: reads.unread } };
  }
  const perChat = [];
  for (const chatKey of q.chats) perChat.push({ chatKey, hits: await read(chatKey) });
  return { ok: true, value: { resolved: r, perChat, unread: [] } };
}

async function resolveQuery(
  history: HistorySearch,
  q: HistoryQuery,
): Promise<{ ok: true; value: ResolvedHistoryQuery } | { ok: false; reason: string }> {
  let text = q.query;
  let since: number | undefined;
  let until: number | undefined;
  let datePhrase: string | undefined;
  for (const [bound, value] of [
    ["since", q.since],
    ["until", q.until],
  ] as const) {
    if (value === undefined || value.trim() === "") continue;
    const parsed = parseDateBound(value, bound, q.reference);
    if (!parsed.ok) return parsed;
    if (bound === "since") since = parsed.at;
    else until = parsed.at;
  }
  if (since !== undefined && until !== undefined && since >= until)
    return { ok: false, reason: "since 必须早于 until" };
  const resolve = q.resolve ?? true;
  if (resolve && since === undefined && until === undefined) {
    const range = resolveDateRange(text, q.reference);
    if (range) {
      ({ since, until } = range);
      datePhrase = range.phrase;
      text = text.replace(range.phrase, " ");
    }
  }
  let senders: string[] | undefined;
  let senderFromText = false;
  if (q.sender !== undefined && q.sender.trim() !== "") {
    const names = await history.senders(q.chats);
    senders = namesMatching(
      q.sender.trim(),
      names.map((n) => n.nick),
    );
    // A name nobody in these chats used: filter by it anyway, so the answer is "nothing".
    if (senders.length === 0) senders = [q.sender.trim()];
  } else if (resolve) {
    const names = await history.senders(q.chats);
    const named = nameIn(
      text,
      names.map((n) => n.nick),
    );
    // The name stays in the text: messages are indexed with their sender's name, so the words
    // already find what they said — and a question naming one person is often answered by
    // another's reply. The name filters only the listing of a question whose words match nothing.
    if (named) {
      senders = [named];
      senderFromText = true;
    }
  }
  return {
    ok: true,
    value: {
      text,
      ...(since === undefined ? {} : { since }),
      ...(until === undefined ? {} : { until }),
      ...(datePhrase === undefined ? {} : { datePhrase }),
      ...(senders === undefined ? {} : { senders, senderFromText }),
    },
  };
}

/** The names `sender` means: the same name, else the same ignoring case, else names containing it. */
function namesMatching(sender: string, names: readonly string[]): string[] {
  const distinct = [...new Set(names)];
  const exact = distinct.filter((n) => n === sender);
  if (exact.length > 0) return exact;
  const lower = sender.toLowerCase();
  const same = distinct.filter((n) => n.toLowerCase() === lower);
  if (same.length > 0) return same;
  return distinct.filter((n) => n.toLowerCase().includes(lower));
}

/** The longest known name the text contains (a Latin name as a whole word), or null. */
function nameIn(text: string, names: readonly string[]): string | null {
  const lower = text.toLowerCase();
  const candidates = [...new Set(names)]
    .filter((n) => [...n].length >= MIN_NAME_CHARS)
    .sort((a, b) => b.length - a.length);
  for (const name of candidates) {
    const at = lower.indexOf(name.toLowerCase());
    if (at < 0) continue;
    const latin = /^[\p{Script=Latin}\d]/u;
    const before = lower[at - 1] ?? " ";
    const after = lower[at + name.length] ?? " ";
    if (latin.test(name) && (latin.test(before) || latin.test(after))) continue;
    return text.slice(at, at + name.length);
  }
  return null;
}

async function searchOneChat(
  history: HistorySearch,
  chatKey: string,
  r: ResolvedHistoryQuery,
  limit: number,
  reader: string,
): Promise<HistoryHit[]> {
  const range: HistoryFilter = {
    ...(r.since === undefined ? {} : { since: r.since }),
    ...(r.until === undefined ? {} : { until: r.until }),
  };
  const filter: HistoryFilter = { ...range, ...(r.senders ? { senders: r.senders } : {}) };
  const out: HistoryHit[] = [];
  // By seq: every hit here is of this one chat (a seq is unique only inside its chat).
  const seen = new Map<number, number>();
  const matches = () => out.filter((h) => h.via !== "context").length;
  const add = (hits: readonly HistoryHit[]) => {
    for (const h of hits) {
      const full = h.via !== "context" && matches() >= limit;
      const at = seen.get(h.seq);
      if (at !== undefined) {
        // A turn shown as context that a later leg matches becomes a match.
        if (h.via !== "context" && out[at]?.via === "context" && !full) out[at] = h;
        continue;
      }
      if (full) continue;
      seen.set(h.seq, out.length);
      out.push(h);
    }
  };
  const explicit: HistoryFilter = r.senders && !r.senderFromText ? { senders: r.senders } : {};
  add(await history.search({ chatKey, reader, text: r.text, limit, ...range, ...explicit }));
  const filtered = r.since !== undefined || r.until !== undefined || r.senders !== undefined;
  if (filtered && matches() === 0) {
    const listed = await history.recent({ chatKey, reader, limit: limit + out.length, ...filter });
    add(listed.map((h) => ({ ...h, via: "hit" as const })));
  }
  // A day read from the question ranks its matches first; the question may still be about
  // something said on another day ("in June" of a trip told in July), so other matches follow.
  if (r.datePhrase !== undefined)
    add(await history.search({ chatKey, reader, text: r.text, limit, ...explicit }));
  return out;
}

/** Several chats' hits as one list, newest first, at most `cap` matches (context turns dropped). */
export function newestFirst(perChat: HistoryAnswer["perChat"], cap: number): HistoryHit[] {
  return perChat
    .flatMap((c) => c.hits.filter((h) => h.via !== "context"))
    .sort((a, b) => b.ts - a.ts || b.seq - a.seq)
    .slice(0, cap);
}
