/**
 * The chats a `chat_domain` tool may reach in this call. The turn loop's guard strips any
 * `allowed_chats` the model sent and puts a ChatGrant there instead. A grant is a class
 * instance, which JSON from the model can never be, so a tool that finds anything else under
 * `allowed_chats` (no guard ran, or the model forged one) falls back to the current chat.
 */
import type { ChatKey } from "../chat/chat-address";
import type { TurnContext } from "./turn-context";

/** The argument the guard owns; no tool schema declares it. */
export const ALLOWED_CHATS_ARG = "allowed_chats";

/** The argument that names a chat-domain tool's target chat; missing = the current chat. */
export const TARGET_CHAT_ARG = "chat";

export class ChatGrant {
  readonly all: boolean;
  readonly chats: readonly ChatKey[];

  private constructor(all: boolean, chats: readonly ChatKey[]) {
    this.all = all;
    this.chats = chats;
  }

  /** Every chat (admins). */
  static everyChat(): ChatGrant {
    return new ChatGrant(true, []);
  }

  static only(chats: readonly ChatKey[]): ChatGrant {
    return new ChatGrant(false, [...chats]);
  }

  allows(chat: string): boolean {
    return this.all || this.chats.includes(chat as ChatKey);
  }

  /** JSON form for logs and tests. */
  toJSON(): { all: true } | { all: false; chats: readonly ChatKey[] } {
    return this.all ? { all: true } : { all: false, chats: this.chats };
  }
}

/** The grant the guard injected, or the current chat alone when there is none. */
export function grantOf(args: unknown, ctx: TurnContext): ChatGrant {
  const value = isRecord(args) ? args[ALLOWED_CHATS_ARG] : undefined;
  return value instanceof ChatGrant ? value : ChatGrant.only([ctx.chat.key]);
}

/**
 * The chat a chat-domain tool should act on: the `chat` argument when given (already checked
 * by the guard, checked again here against the grant), else the current chat.
 */
export function targetChatOf(
  args: unknown,
  ctx: TurnContext,
): { ok: true; chat: ChatKey } | { ok: false; reason: string } {
  const raw = isRecord(args) ? args[TARGET_CHAT_ARG] : undefined;
  if (raw === undefined || raw === null || raw === "") return { ok: true, chat: ctx.chat.key };
  if (typeof raw !== "string") return { ok: false, reason: "chat 必须是聊天地址字符串" };
  if (!grantOf(args, ctx).allows(raw)) return { ok: false, reason: `聊天 ${raw} 不在允许的范围内` };
  return { ok: true, chat: raw as ChatKey };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
