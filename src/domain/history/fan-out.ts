/**
 * One call per chat, several chats at once, bounded three ways: how many chats one read asks
 * (`maxChats`), how many calls run together (`concurrency`) and how long the read waits
 * (`budgetMs`). Each chat's log lives in its own object, so a cross-chat read is one call per
 * chat; one slow or broken object must cost the read that chat, never the answer. Every chat
 * not read is named with its reason — none is dropped without a word — and a failing call
 * never rejects the whole read.
 */

import type { UnreadReason } from "./history-search-port";

/**
 * A key not read, and why: its call threw, the time budget ran out first, or it was past
 * `maxChats`. A call that threw keeps what it threw, for the log.
 */
export type Unread = { readonly key: string; readonly reason: UnreadReason; readonly error?: unknown };

export type FanOutResult<T> = {
  /** The answers, in the order of the keys asked. */
  readonly answers: readonly { readonly key: string; readonly value: T }[];
  /** The keys not read, in the order given, each with its reason. */
  readonly unread: readonly Unread[];
  /** How many calls were started. */
  readonly asked: number;
  /** Some key was not read. */
  readonly partial: boolean;
};

export type FanOutLimits = {
  /** Keys asked at most; the rest are `over-cap`. */
  readonly maxChats: number;
  /** Calls running at once at most. */
  readonly concurrency: number;
  /** How long to wait for the answers (ms); calls still running then are `timeout`. */
  readonly budgetMs: number;
};

export type FanOutOptions = FanOutLimits & {
  /** Resolves after `ms` milliseconds (a port: tests move time by hand). */
  readonly after: (ms: number) => Promise<void>;
};

/**
 * Defaults for a turn's cross-chat read. 100 chats: more than a chat domain is expected to
 * hold, and a bound on the object calls one read makes (a history question makes up to three
 * per chat). 8 at a time: 100 chats answer in about a dozen rounds of a local SQLite read
 * each, while one turn never opens more calls at once than it has other work (model, D1)
 * waiting. 3 s: a person waits for the reply, and a read of a chat's own SQLite takes
 * milliseconds; an object that has not answered by then is busy or broken, and the answer
 * says which chats it lacks. Admin reads (the API, the CLI) may pass bigger limits.
 */
export const DEFAULT_FAN_OUT_LIMITS: FanOutLimits = { maxChats: 100, concurrency: 8, budgetMs: 3000 };

/**
 * A call's failure that already knows its class: a call that ran out of its own time budget
 * is a `timeout`, not a `failed`, when a fan-out around it sees it throw.
 */
export class UnreadError extends Error {
  readonly key: string;
  readonly reason: Exclude<UnreadReason, "over-cap">;
  constructor(key: string, reason: Exclude<UnreadReason, "over-cap">, cause?: unknown) {
    super(`chat ${key} not read: ${reason}`, cause === undefined ? undefined : { cause });
    this.name = "UnreadError";
    this.key = key;
    this.reason = reason;
  }
}

type Outcome<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly reason: UnreadReason; readonly error: unknown };

/** Runs `call` for each distinct key under `opts`' bounds; never rejects. */
export async function fanOut<T>(
  keys: readonly string[],
  call: (key: string) => Promise<T>,
  opts: FanOutOptions,
): Promise<FanOutResult<T>> {
  const distinct = [...new Set(keys)];
  const cap = Math.max(0, Math.floor(opts.maxChats));
  const asking = distinct.slice(0, cap);
  const outcomes: (Outcome<T> | undefined)[] = asking.map(() => undefined);
  let next = 0;
  let expired = false;
  const worker = async (): Promise<void> => {
    while (!expired && next < asking.length) {
      const i = next++;
      const key = asking[i] as string;
      try {
        const value = await call(key);
        if (!expired) outcomes[i] = { ok: true, value };
      } catch (e) {
        if (!expired)
          outcomes[i] = { ok: false, reason: e instanceof UnreadError ? e.reason : "failed", error: e };
      }
    }
  };
  if (asking.length > 0) {
    const width = Math.max(1, Math.min(Math.floor(opts.concurrency), asking.length));
    const all = Promise.all(Array.from({ length: width }, worker));
    const budget = Number.isFinite(opts.budgetMs)
      ? opts.after(Math.max(0, opts.budgetMs))
      : new Promise<void>(() => {});
    // A timer that fails is no answer either: the read ends as if the budget ran out.
    await Promise.race([all, budget.then(noop, noop)]);
    expired = true;
  }
  return resultOf(distinct, asking, outcomes, next);
}

const noop = (): void => {};

function resultOf<T>(
  distinct: readonly string[],
  asking: readonly string[],
  outcomes: readonly (Outcome<T> | undefined)[],
  asked: number,
): FanOutResult<T> {
  const answers: { key: string; value: T }[] = [];
  const unread: Unread[] = [];
  asking.forEach((key, i) => {
    const o = outcomes[i];
    if (o === undefined) unread.push({ key, reason: "timeout" });
    else if (o.ok) answers.push({ key, value: o.value });
    else unread.push({ key, reason: o.reason, error: o.error });
  });
  for (const key of distinct.slice(asking.length)) unread.push({ key, reason: "over-cap" });
  return { answers, unread, asked, partial: unread.length > 0 };
}
