/**
 * When an occurrence becomes a notice, and when the owner hears of it. A repeating event makes
 * one open notice whose count grows, not a row (or a message) per occurrence. Model errors
 * become a notice only when `notices.modelErrors` of them fall in one window; the other kinds
 * at once. The owner gets one message per notice, and messages are spaced at least
 * `notices.minIntervalMinutes` apart: what is raised meanwhile waits and goes in the next one.
 */
import type { NoticeSettings } from "../config/notice-settings";
import type { NoticeKind, OwnerNotice } from "./owner-notice";

/** The counting part of an open notice. */
export type NoticeCount = Pick<OwnerNotice, "firstSeen" | "lastSeen" | "count" | "raisedAt"> & {
  /** Start of the window the count is in, while the notice is not raised. */
  readonly windowStart: number;
};

export type NoticePolicy = {
  /** Occurrences within `windowMs` that raise a model-errors notice. */
  readonly modelErrors: number;
  readonly windowMs: number;
  /** Least time between two messages to the owner. */
  readonly minIntervalMs: number;
};

export function noticePolicy(s: NoticeSettings): NoticePolicy {
  return {
    modelErrors: s.modelErrors,
    windowMs: s.windowMinutes * 60_000,
    minIntervalMs: s.minIntervalMinutes * 60_000,
  };
}

/** Occurrences that raise a notice of `kind`: the setting for model errors, one otherwise. */
export function thresholdOf(kind: NoticeKind, policy: NoticePolicy): number {
  return kind === "model-errors" ? policy.modelErrors : 1;
}

/**
 * The open notice after one more occurrence at `at`. Before it is raised, occurrences older
 * than the window no longer count: a new window starts with this one.
 */
export function countOccurrence(
  before: NoticeCount | null,
  at: number,
  kind: NoticeKind,
  policy: NoticePolicy,
): NoticeCount {
  const threshold = thresholdOf(kind, policy);
  if (before === null)
    return { firstSeen: at, lastSeen: at, count: 1, windowStart: at, raisedAt: threshold <= 1 ? at : null };
  if (before.raisedAt !== null)
    return { ...before, lastSeen: Math.max(before.lastSeen, at), count: before.count + 1 };
  const stale = at - before.windowStart > policy.windowMs;
  const next = stale
    ? { firstSeen: at, lastSeen: at, count: 1, windowStart: at }
    : {
        firstSeen: before.firstSeen,
        lastSeen: Math.max(before.lastSeen, at),
        count: before.count + 1,
        windowStart: before.windowStart,
      };
  return { ...next, raisedAt: next.count >= threshold ? at : null };
}

/** Whether a message may go to the owner now, given when the last one went (null: never). */
export function mayNotify(lastNotifiedAt: number | null, now: number, policy: NoticePolicy): boolean {
  return lastNotifiedAt === null || now - lastNotifiedAt >= policy.minIntervalMs;
}

/** At most this many notices in one message; the rest wait for the next. */
export const NOTICES_PER_MESSAGE = 5;
