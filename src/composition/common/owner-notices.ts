/**
 * Notices to the owner over D1, handed to the owner's private chats' objects
 * (docs/decisions/0280-notices-to-the-owner.md). Shared by the chat objects (spend caps, model
 * errors) and the cron (backfill failures, and the sweep that tells the owner what waited).
 */
import { D1OwnerNotices } from "../../adapters/d1/d1-owner-notices";
import type { Settings } from "../../domain/config/settings";
import type { Logger } from "../../domain/kernel/logger";
import { type NoticeDeps, type OwnerNotices, raiseNotice, tellOwner } from "../../domain/notices/notice-book";
import { noticePolicy } from "../../domain/notices/notice-policy";
import { ownerPrivateChats } from "../../domain/notices/owner-chats";
import { chatObject } from "./chat-stub";

export function ownerNotices(env: Env, settings: () => Promise<Settings>, logger: Logger): OwnerNotices {
  const deps = async (): Promise<NoticeDeps> => {
    const current = await settings();
    return {
      book: new D1OwnerNotices(env.DB),
      policy: noticePolicy(current.notices),
      ownerChats: async () => ownerPrivateChats(current.identity),
      handOver: (chat, notice) => chatObject(env, chat).deliverNotice(chat, notice),
      logger,
    };
  };
  return {
    async raise(facts) {
      try {
        await raiseNotice(facts, Date.now(), await deps());
      } catch (e) {
        logger.error("notice not recorded", { kind: facts.kind, error: String(e).slice(0, 160) });
      }
    },
    async tellOwner() {
      return tellOwner(Date.now(), await deps());
    },
  };
}
