/**
 * Notices to the owner (docs/decisions/0280-notices-to-the-owner.md): operational events the
 * owner should hear about — a spend cap reached, a backfill that failed, model errors that
 * repeat. A notice is built only from structured facts (counts, chat keys, days, provider and
 * error class), never from free text: a model error's message may quote the user's words or a
 * key, and a notice goes to the owner's private chat and the dashboard, so nothing a person
 * said, no memory and no credential can be in it. Every fact is checked against a strict shape
 * here and replaced when it does not fit.
 */
import { parseChatKey } from "../chat/chat-address";

export const NOTICE_KINDS = ["spend-cap", "backfill-failed", "model-errors"] as const;
export type NoticeKind = (typeof NOTICE_KINDS)[number];

/** What happened, as facts. Each kind is deduplicated by its subject (`noticeSubject`). */
export type NoticeFacts =
  | {
      readonly kind: "spend-cap";
      readonly scope: "chat" | "global";
      /** The chat that hit its cap (scope chat), or the chat whose turn met the global cap. */
      readonly chatKey: string;
      readonly used: number;
      readonly cap: number;
      /** The local day of the cap, `YYYY-MM-DD`. */
      readonly day: string;
    }
  | {
      readonly kind: "backfill-failed";
      /** The group whose history could not be read, or null when the whole run failed. */
      readonly chatKey: string | null;
      /** A short class of the failure (`http`, `malformed`, `threw`), never its message. */
      readonly cause: string;
    }
  | {
      readonly kind: "model-errors";
      /** `workers-ai`, `openai-compatible`, … */
      readonly provider: string;
      /** The model port's error kind (`timeout`, `rate-limited`, …), never its message. */
      readonly errorKind: string;
    };

export type OwnerNotice = {
  readonly id: number;
  readonly kind: NoticeKind;
  readonly subject: string;
  /** Chinese, built by `noticeText` from the facts alone. */
  readonly text: string;
  readonly firstSeen: number;
  readonly lastSeen: number;
  /** Occurrences since the notice was first seen (for model errors: since its window began). */
  readonly count: number;
  /** When it reached its threshold and became a notice the owner sees; null until then. */
  readonly raisedAt: number | null;
  /** When the message to the owner was handed over for delivery; null while it waits. */
  readonly notifiedAt: number | null;
  readonly acknowledgedAt: number | null;
  readonly acknowledgedBy: string | null;
};

const WORD = /^[a-z0-9][a-z0-9._-]{0,39}$/i;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A provider name or error class as given when it is a plain word; `other` otherwise. */
export function plainWord(value: string): string {
  return WORD.test(value) ? value : "other";
}

/** A typed chat key as given; anything else (free text, a lane, a legacy key) is not shown. */
export function plainChatKey(value: string | null): string | null {
  if (value === null) return null;
  return parseChatKey(value).ok ? value : null;
}

const count = (n: number) => (Number.isFinite(n) && n >= 0 ? String(Math.floor(n)) : "?");

/** What dedupes a notice: one open notice per kind and subject, whose count grows. */
export function noticeSubject(facts: NoticeFacts): string {
  switch (facts.kind) {
    case "spend-cap":
      return facts.scope === "global"
        ? `global:${DAY.test(facts.day) ? facts.day : "?"}`
        : `chat:${plainChatKey(facts.chatKey) ?? "?"}:${DAY.test(facts.day) ? facts.day : "?"}`;
    case "backfill-failed":
      return plainChatKey(facts.chatKey) ?? "run";
    case "model-errors":
      return `${plainWord(facts.provider)}:${plainWord(facts.errorKind)}`;
  }
}

/** The notice's words, from the facts alone (see the module comment). */
export function noticeText(facts: NoticeFacts, occurrences: number): string {
  switch (facts.kind) {
    case "spend-cap": {
      const day = DAY.test(facts.day) ? facts.day : "今天";
      const used = `已用 ${count(facts.used)} / 上限 ${count(facts.cap)} tokens`;
      const chat = plainChatKey(facts.chatKey);
      return facts.scope === "global"
        ? `全部会话 ${day} 的用量已达每日上限（${used}），模型回答暂停到明天；可在设置 spend.globalDailyTokens 调整。`
        : `会话 ${chat ?? "（未知会话）"} ${day} 的用量已达每日上限（${used}），该会话的模型回答暂停到明天；可在设置 spend.chatDailyTokens 调整。`;
    }
    case "backfill-failed": {
      const chat = plainChatKey(facts.chatKey);
      const what = chat ? `群 ${chat} 的 OneBot 历史补全` : "OneBot 历史补全";
      return `${what}失败（${plainWord(facts.cause)}），共 ${count(occurrences)} 次；下次定时任务会重试，可在会话页查看进度。`;
    }
    case "model-errors":
      return `模型服务 ${plainWord(facts.provider)} 反复出错（${plainWord(facts.errorKind)}），已累计 ${count(occurrences)} 次；请检查模型配置、额度或服务状态。`;
  }
}

/** The one message that tells the owner of one or more notices (bundled, see notice-policy.ts). */
export function ownerMessage(notices: readonly Pick<OwnerNotice, "id" | "text">[]): string {
  const lines = notices.map((n) => `#${n.id} ${n.text}`);
  return [
    "【Akasha 运维通知】",
    ...lines,
    "在管理后台首页确认后不再显示（npm run akasha -- notices ack <编号>）。",
  ].join("\n");
}
