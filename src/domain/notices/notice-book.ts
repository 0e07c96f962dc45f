/**
 * The notices' port and the two things done with it: recording an occurrence (raising a notice
 * when it reaches its threshold) and telling the owner of waiting notices in one message, in
 * each admin's own private chat. D1 `owner_notices` in production (d1-owner-notices.ts).
 */
import type { ChatKey } from "../chat/chat-address";
import type { Logger } from "../kernel/logger";
import type { Result } from "../kernel/result";
import { countOccurrence, type NoticeCount, type NoticePolicy } from "./notice-policy";
import { type NoticeFacts, noticeSubject, noticeText, type OwnerNotice, ownerMessage } from "./owner-notice";

export type AckError = { readonly kind: "not-found"; readonly what: string };

export interface NoticeBook {
  /** The open notice of kind and subject, after `next` decided its count; created when none is open. */
  count(
    key: { kind: OwnerNotice["kind"]; subject: string },
    next: (before: NoticeCount | null) => NoticeCount & { text: string },
  ): Promise<OwnerNotice>;
  /** Raised notices, newest first: only open ones unless `all`. */
  list(options: { all: boolean; limit: number }): Promise<OwnerNotice[]>;
  /** Acknowledges an open raised notice, audited with `by`; anything else changes nothing. */
  acknowledge(
    id: number,
    at: number,
    by: { actor: string; via: string },
  ): Promise<Result<OwnerNotice, AckError>>;
  /**
   * Marks the waiting notices (raised, open, not yet told) told, in one statement, when no
   * message went to the owner within the interval; returns them (none when it may not).
   */
  claimWaiting(now: number, minIntervalMs: number, limit: number): Promise<OwnerNotice[]>;
  /** Undoes a claim whose message no chat took, so the next try carries them again. */
  release(ids: readonly number[]): Promise<void>;
}

/** What a chat object answered when handed a notice message (see ChatSession.deliverNotice). */
export type NoticeHandOver = "push" | "next-message" | "unknown-chat" | "refused";

export type NoticeDeps = {
  readonly book: NoticeBook;
  readonly policy: NoticePolicy;
  /** The owner's private chats (owner-chats.ts). */
  readonly ownerChats: () => Promise<readonly ChatKey[]>;
  /** Hands the message to that chat's object, which says it only there. */
  readonly handOver: (chat: ChatKey, notice: { key: string; text: string }) => Promise<NoticeHandOver>;
  readonly logger: Logger;
};

/** Records one occurrence; when that raises or it was raised and untold, tries to tell the owner. */
export async function raiseNotice(facts: NoticeFacts, at: number, deps: NoticeDeps): Promise<OwnerNotice> {
  const notice = await deps.book.count({ kind: facts.kind, subject: noticeSubject(facts) }, (before) => {
    const next = countOccurrence(before, at, facts.kind, deps.policy);
    return { ...next, text: noticeText(facts, next.count) };
  });
  if (notice.raisedAt !== null && notice.notifiedAt === null) await tellOwner(at, deps);
  return notice;
}

/** At most this many notices in one message; the rest wait for the next. */
const PER_MESSAGE = 5;

/**
 * One message with the waiting notices to each of the owner's private chats, if the interval
 * allows. The notices are marked told before the message is handed over (at most once); if no
 * chat took it (no admin, or none has talked to the bot in private yet), they wait again.
 */
export async function tellOwner(now: number, deps: NoticeDeps): Promise<number> {
  const chats = await deps.ownerChats();
  if (chats.length === 0) return 0;
  const claimed = await deps.book.claimWaiting(now, deps.policy.minIntervalMs, PER_MESSAGE);
  if (claimed.length === 0) return 0;
  const text = ownerMessage(claimed);
  const key = `notice:${claimed.map((n) => n.id).join(",")}:${now}`;
  let taken = 0;
  for (const chat of chats) {
    const answer = await deps.handOver(chat, { key, text }).catch((e: unknown) => {
      deps.logger.warn("notice hand-over failed", { chat, error: String(e).slice(0, 160) });
      return "refused" as const;
    });
    if (answer === "push" || answer === "next-message") taken++;
  }
  if (taken === 0) await deps.book.release(claimed.map((n) => n.id));
  return taken;
}

/** What the chat object and the cron are given: raise a notice, tell the owner of waiting ones. */
export type OwnerNotices = {
  /** Never throws: a notice that cannot be recorded is logged, and what raised it goes on. */
  raise(facts: NoticeFacts): Promise<void>;
  /** Tells the owner of notices still waiting (the cron's sweep); the number of chats that took it. */
  tellOwner(): Promise<number>;
};
