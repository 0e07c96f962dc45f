/**
 * The chat's short-term context as a port (docs/memory.md#session-reset). The chat object
 * implements it over its own storage; the `/reset` command and the `session_reset` tool use it.
 * A reset clears recent turns only — never long-term memory, summaries or the message log.
 */
import type { ChatKey } from "../chat/chat-address";
import type { Result } from "../kernel/result";

/** One reset per chat per minute. */
export const RESET_COOLDOWN_MS = 60_000;

export type ResetRequest = {
  /** The inbound event asking; a retried turn repeats its event id and is answered the same. */
  readonly eventId: string;
  readonly actor: string | null;
  readonly via: "command" | "tool";
  /** The chat an admin asked from, when it is not the chat being reset (`session_manage`). */
  readonly from?: ChatKey;
};

export type ResetOutcome = { readonly cleared: number; readonly repeated: boolean };

export type ResetResult = Result<ResetOutcome, { kind: "rate-limited"; retryAfterSeconds: number }>;

export interface ShortTermContext {
  /** Clears the recent turns, audited; refused while the cooldown of the last reset runs. */
  reset(req: ResetRequest): Promise<ResetResult>;
}

/**
 * Other chats' short-term context (`session_manage`), reached through each chat's own object:
 * the same reset as `/reset` there — same cooldown, audited in that chat, memory kept.
 */
export interface OtherChatContexts {
  reset(chat: ChatKey, req: ResetRequest): Promise<ResetResult>;
}

export type LastReset = { readonly at: number; readonly eventId: string };

/** Pure decision: reset now, repeat the answer for the same event, or refuse. */
export function resetDecision(
  last: LastReset | null,
  eventId: string,
  now: number,
): { kind: "reset" } | { kind: "repeat" } | { kind: "rate-limited"; retryAfterSeconds: number } {
  if (last && last.eventId === eventId) return { kind: "repeat" };
  if (last && now - last.at < RESET_COOLDOWN_MS) {
    return {
      kind: "rate-limited",
      retryAfterSeconds: Math.max(1, Math.ceil((last.at + RESET_COOLDOWN_MS - now) / 1000)),
    };
  }
  return { kind: "reset" };
}

/** The reply that tells the person what happened (memory is kept). */
export function resetReply(outcome: ResetResult): string {
  if (!outcome.ok) {
    return `刚刚已经重置过了，请 ${outcome.error.retryAfterSeconds} 秒后再试。长期记忆没有变化。`;
  }
  return "已清空本聊天的短期上下文（最近的对话）。长期记忆、摘要和聊天记录都保留着。";
}
