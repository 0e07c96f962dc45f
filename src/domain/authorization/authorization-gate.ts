/**
 * The AuthorizationGate (docs/identity.md#authorization): decides whether a tool call or an admin command may
 * run, and which chats a chat-domain tool may reach. It looks only at the platform account
 * (which the platform authenticated) and at config — never at a person, memory or the model.
 *
 * Memory, scope and retrieval code never import this module (a dependency rule enforces it):
 * admin status decides whether an action runs, never which memory is read. The one way it
 * reaches memory — an admin's explicit writes may go global — is a plain value the turn
 * registry computes with `isAdmin` and hands over (TurnContext.senderIsAdmin).
 */

import { type ChatKey, chatKeyOf, isTyped, parseLaneKey } from "../chat/chat-address";
import type { IdentitySettings } from "../config/identity-settings";
import { ADMIN_PERSON_PREFIX } from "../config/identity-settings";
import { err, ok, type Result } from "../kernel/result";
import { ChatDomainIndex } from "./chat-domains";

/**
 * Actions that need an admin whatever the tool declares (docs/identity.md#the-gate-table): cross-chat
 * messages, identity/session/knowledge-base management, config changes, and the system-side
 * actions other bots expose (`exec`, `workspace_write`), reserved so that a tool by that name
 * can never run unprivileged. `memory_write` and reads or searches of the current scope are
 * deliberately not here: anyone may write memory; where a shared kind lands (the chat, or
 * global for an admin) is decided by the scope rules.
 */
export const PRIVILEGED_ACTIONS = [
  "send_message",
  "identity_manage",
  "session_manage",
  "kb_manage",
  "config_change",
  "exec",
  "workspace_write",
] as const;
export type PrivilegedAction = (typeof PRIVILEGED_ACTIONS)[number];

const PRIVILEGED: ReadonlySet<string> = new Set(PRIVILEGED_ACTIONS);

export const isPrivilegedAction = (action: string): boolean => PRIVILEGED.has(action);

/** A privileged action refused; `reason` is shown to the sender or the model as is. */
export type NotAuthorized = {
  readonly kind: "not-authorized";
  readonly action: string;
  readonly account: string | null;
  readonly cause: "identity-disabled" | "no-admins" | "not-admin" | "no-sender";
  readonly reason: string;
};

/** A chat-domain tool aimed at a chat outside the current chat's domain. */
export type NotInChatScope = {
  readonly kind: "not-in-chat-scope";
  readonly target: string;
  readonly chat: string;
  readonly domain: string | null;
  readonly reason: string;
};

export type AuthorizationError = NotAuthorized | NotInChatScope;

/** Which chats a chat-domain tool may reach: all of them (admins) or a list. */
export type ChatReach = { readonly all: true } | { readonly all: false; readonly chats: readonly ChatKey[] };

export class AuthorizationGate {
  readonly #enabled: boolean;
  readonly #admins: ReadonlySet<string>;
  readonly #domains: ChatDomainIndex;

  constructor(identity: IdentitySettings) {
    this.#enabled = identity.enabled;
    this.#admins = adminAccounts(identity);
    this.#domains = new ChatDomainIndex(identity.chatDomains);
  }

  /** True only with identity enabled and the account listed in `identity.admins`. */
  isAdmin(account: string | null | undefined): boolean {
    return this.#enabled && typeof account === "string" && this.#admins.has(account);
  }

  /** Ok for unprivileged actions; for privileged ones the same answer as `requireAdmin`. */
  assertAuthorized(action: string, account: string | null | undefined): Result<void, NotAuthorized> {
    return isPrivilegedAction(action) ? this.requireAdmin(action, account) : ok(undefined);
  }

  /**
   * Ok when the account is an admin. Fails closed: identity disabled, no admins configured,
   * or no sender all refuse, each with a reason naming what to change.
   */
  requireAdmin(action: string, account: string | null | undefined): Result<void, NotAuthorized> {
    const who = typeof account === "string" ? account : null;
    const refuse = (cause: NotAuthorized["cause"], reason: string) =>
      err<NotAuthorized>({ kind: "not-authorized", action, account: who, cause, reason });
    if (!this.#enabled) {
      return refuse(
        "identity-disabled",
        `${action} 需要管理员，但身份系统未启用（identity.enabled = false），特权操作一律拒绝。`,
      );
    }
    if (this.#admins.size === 0) {
      return refuse(
        "no-admins",
        `${action} 被拒绝：identity.admins 为空。启用身份系统后必须声明管理员，在此之前所有特权操作都被拒绝（fail closed）。`,
      );
    }
    if (who === null) return refuse("no-sender", `${action} 需要管理员：这条消息没有可识别的发送者。`);
    if (!this.#admins.has(who))
      return refuse("not-admin", `${action} 需要管理员：账号 ${who} 不在 identity.admins 中。`);
    return ok(undefined);
  }

  /**
   * The chats a chat-domain tool may reach from `chat`: its domain's chats with `chat` first.
   * A chat in no domain, or any chat while identity is disabled, is a domain of one.
   */
  allowedChatsFor(chat: ChatKey): readonly ChatKey[] {
    if (!this.#enabled) return [chat];
    return this.#domains.membersWith(chat);
  }

  /** What a chat-domain tool called by `account` from `chat` may reach: admins are unrestricted. */
  reachFor(chat: ChatKey, account: string | null | undefined): ChatReach {
    return this.isAdmin(account) ? { all: true } : { all: false, chats: this.allowedChatsFor(chat) };
  }

  /**
   * Ok when `target` (a chat or lane key; a lane counts as its chat) may be reached from
   * `chat` by `account`. The current chat always may; admins may reach any chat.
   */
  assertInChatScope(
    target: string,
    chat: ChatKey,
    account: string | null | undefined,
  ): Result<ChatKey, NotInChatScope> {
    const domain = this.#enabled ? this.#domains.domainOf(chat) : null;
    const refuse = (reason: string) =>
      err<NotInChatScope>({ kind: "not-in-chat-scope", target, chat, domain, reason });
    const parsed = parseLaneKey(target);
    if (!parsed.ok || !isTyped(parsed.value.address)) {
      return refuse(`'${target.slice(0, 80)}' 不是聊天地址（应为 channel:type:id，例如 qq:group:<id>）。`);
    }
    const key = chatKeyOf(parsed.value.address);
    if (key === chat || this.isAdmin(account)) return ok(key);
    if (this.allowedChatsFor(chat).includes(key)) return ok(key);
    if (!this.#enabled)
      return refuse(`聊天 ${key} 不可访问：身份系统未启用（identity.enabled = false），只能访问当前聊天。`);
    return refuse(
      domain === null
        ? `聊天 ${key} 不可访问：当前聊天不属于任何聊天域（identity.chatDomains），只能访问它自己。`
        : `聊天 ${key} 不在当前聊天所在的聊天域 '${domain}' 内。`,
    );
  }
}

const gates = new WeakMap<IdentitySettings, AuthorizationGate>();

/** The gate for a settings object, built once per loaded settings (they are immutable). */
export function gateFor(identity: IdentitySettings): AuthorizationGate {
  let gate = gates.get(identity);
  if (!gate) {
    gate = new AuthorizationGate(identity);
    gates.set(identity, gate);
  }
  return gate;
}

/** Admin account keys, with `person:<id>` expanded to the accounts config declares for that person. */
export function adminAccounts(identity: IdentitySettings): ReadonlySet<string> {
  const out = new Set<string>();
  for (const entry of identity.admins) {
    if (entry.startsWith(ADMIN_PERSON_PREFIX)) {
      const id = entry.slice(ADMIN_PERSON_PREFIX.length);
      for (const account of identity.people.find((p) => p.id === id)?.accounts ?? []) out.add(account);
    } else out.add(entry);
  }
  return out;
}
