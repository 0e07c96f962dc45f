/**
 * Memory scopes (docs/memory.md#scopes): the one place that knows which scope a memory item is written
 * to and which scopes a turn may read and write. Scopes always derive from the lane key and
 * the resolved sender identity — never from the model. Admin status reaches this module only as
 * the plain `writesGlobal` value, and only for writing global.
 *
 *   scope key      type:id          chat:qq:group:G1, global:__global__, person:alice,
 *                                   account:qq:user:U1, collection:vue-docs
 */
import { isOneToOneKey, isTyped, parseLaneKey } from "../chat/chat-address";
import type { SenderIdentity } from "../identity/sender-identity";
import { PUBLIC_ONLY, type ReadableScope } from "../retrieval/read-gate";

export const SCOPE_TYPES = ["global", "chat", "person", "account", "collection", "workspace"] as const;
export type ScopeType = (typeof SCOPE_TYPES)[number];

export const GLOBAL_SCOPE_ID = "__global__";

export type Scope = { readonly type: ScopeType; readonly id: string };
export type ScopeKey = string & { readonly __brand: "ScopeKey" };

export const GLOBAL_SCOPE: Scope = { type: "global", id: GLOBAL_SCOPE_ID };

/** Kinds about one person: chat scope, or the sender's person/account scope with identity on. */
export const PERSONAL_KINDS = ["preference", "fact", "task"] as const;
/** Shared knowledge: global scope when an admin says it, else the chat it was said in. */
export const GLOBAL_KINDS = ["decision", "procedure", "warning", "summary"] as const;
/** Rules a chat sets for itself (群规): that chat's scope. */
export const CHAT_KINDS = ["rule"] as const;
export const MEMORY_KINDS = [...PERSONAL_KINDS, ...GLOBAL_KINDS, ...CHAT_KINDS] as const;
export type MemoryKind = (typeof MEMORY_KINDS)[number];

const PERSONAL: ReadonlySet<string> = new Set(PERSONAL_KINDS);
const GLOBAL: ReadonlySet<string> = new Set(GLOBAL_KINDS);

export const isMemoryKind = (kind: unknown): kind is MemoryKind =>
  typeof kind === "string" && (MEMORY_KINDS as readonly string[]).includes(kind);
export const isPersonalKind = (kind: string): boolean => PERSONAL.has(kind);
export const isGlobalKind = (kind: string): boolean => GLOBAL.has(kind);

export const scopeKey = (scope: Scope): ScopeKey => `${scope.type}:${scope.id}` as ScopeKey;
export const sameScope = (a: Scope, b: Scope): boolean => a.type === b.type && a.id === b.id;

export function parseScopeKey(raw: string): Scope | null {
  const at = raw.indexOf(":");
  if (at <= 0 || at === raw.length - 1) return null;
  const type = raw.slice(0, at);
  if (!(SCOPE_TYPES as readonly string[]).includes(type)) return null;
  return { type: type as ScopeType, id: raw.slice(at + 1) };
}

/**
 * The scope of a session: a typed chat (lanes included) → `chat:<chatKey>`; a legacy
 * untyped key (`milky:10001`) or an unparseable one → global, as before scopes existed.
 */
export function resolveScopeFromLaneKey(laneKey: string): Scope {
  const parsed = parseLaneKey(laneKey);
  if (!parsed.ok || !isTyped(parsed.value.address)) return GLOBAL_SCOPE;
  const a = parsed.value.address;
  return { type: "chat", id: `${a.channel}:${a.targetType}:${a.targetId}` };
}

/** What a turn's scope decisions depend on. */
export type ScopeInput = {
  /** The lane key of the turn: a chat key, or a chat key with a lane (`…:cron:abc`). */
  readonly session: string;
  readonly identity: SenderIdentity | null;
  /** Chats linked into the same cluster as this one (admin links; docs/memory.md#clusters). */
  readonly linkedChats?: readonly string[];
  /**
   * The sender is an admin and this is their explicit write (a command or a tool call of
   * their turn): only then may shared kinds go to the global scope. A plain value decided by
   * the turn layer — never by the model — and never set by dreaming. Absent = false.
   */
  readonly writesGlobal?: boolean;
  /**
   * The admin's own message carries the explicit global marker ("全局：…", origin.ts): only then
   * does a shared kind written by `writesGlobal` go global, and only from a shared chat.
   * Absent = false: a kind alone never makes an item global.
   */
  readonly globalOnPurpose?: boolean;
};

/**
 * A scope as a turn may read it, with the only sensitivity levels of its items the turn may see
 * (absent = every level), and whether a turn may see an item: the one read gate
 * (`src/domain/retrieval/read-gate.ts`), which every read path applies — SQL before LIMIT, the
 * vector re-check, the final check before a prompt.
 */
export type { ReadableScope } from "../retrieval/read-gate";
export { gateAllows as scopeAllows } from "../retrieval/read-gate";

/** Only public items: a person's or another chat's scope read where its owner is not alone with the bot. */
const publicOnly = (scope: Scope): ReadableScope => ({ ...scope, sensitivities: PUBLIC_ONLY });

/** The sender's own scopes: person first (when linked to one), then account. */
function senderScopes(identity: SenderIdentity): Scope[] {
  const scopes: Scope[] = [];
  if (identity.personId) scopes.push({ type: "person", id: identity.personId });
  scopes.push({ type: "account", id: identity.account });
  return scopes;
}

/**
 * Where personal kinds (preference, fact, task) of this turn's sender go. Identity off, no
 * sender, or a legacy session: the session scope. Identity on: in a private chat the sender's
 * person (or, unlinked, account) scope; in a group only a declared person's scope — an
 * undeclared member's facts stay with the group, where they were said and can be recalled.
 */
export function personalScope(input: ScopeInput): Scope {
  const session = resolveScopeFromLaneKey(input.session);
  const identity = input.identity;
  if (session.type !== "chat" || !identity?.enabled) return session;
  if (isOneToOneKey(input.session)) {
    return identity.personId
      ? { type: "person", id: identity.personId }
      : { type: "account", id: identity.account };
  }
  return identity.declared && identity.personId ? { type: "person", id: identity.personId } : session;
}

/**
 * Kind → scope (docs/memory.md#kind-to-scope). Personal kinds → `personalScope`; chat rules → the session
 * scope; shared kinds → global only on purpose: an admin's write (`writesGlobal`) whose message
 * carries the global marker (`globalOnPurpose`), in a shared chat, of a public item — global is
 * read in every chat and pinned into every prompt. Everything else, dreaming's included, stays
 * in the chat it was said in; what a private chat learns is private and never goes global.
 */
export function scopeForKind(
  kind: string,
  input: ScopeInput,
  sensitivity: "public" | "private" | "secret_like" = "public",
): Scope {
  const session = resolveScopeFromLaneKey(input.session);
  if (isPersonalKind(kind)) return personalScope(input);
  if (isGlobalKind(kind)) {
    const onPurpose = input.writesGlobal === true && input.globalOnPurpose === true;
    return onPurpose && sensitivity === "public" && !isOneToOneKey(input.session) ? GLOBAL_SCOPE : session;
  }
  return session;
}

export type TurnScopes = {
  /** Readable scopes in cascade order (most specific first, global last), with their levels. */
  readonly readable: readonly ReadableScope[];
  /** Scopes this turn may write to, and the only ones it may archive, supersede or forget in. */
  readonly writable: readonly Scope[];
  /** Where this turn's personal kinds go. */
  readonly personal: Scope;
  /** The session's own scope (chat, or global for a legacy session). */
  readonly session: Scope;
};

/**
 * The readable and writable scopes of a turn (docs/memory.md#recall-cascade):
 *   1. the sender's person/account scopes — in private chats with identity on; in groups only
 *      for a declared person;
 *   2. the chat scope (a lane reads its chat);
 *   3. the scopes of chats linked into the same cluster;
 *   4. global.
 * Sensitivity: the sender's own scopes give every level only in their private chat; in a
 * group or channel turn they give public items alone, so a person's private and secret_like
 * items are never read where others listen. Linked chats give public items alone.
 * Writable: the personal and session scopes, and global only with `writesGlobal`.
 * A legacy untyped session reads global only, and writes it only with `writesGlobal`.
 */
export function turnScopes(input: ScopeInput): TurnScopes {
  const session = resolveScopeFromLaneKey(input.session);
  const global = input.writesGlobal === true ? [GLOBAL_SCOPE] : [];
  if (session.type !== "chat") {
    return { readable: [GLOBAL_SCOPE], writable: global, personal: GLOBAL_SCOPE, session };
  }
  const identity = input.identity;
  const privateTurn = isOneToOneKey(input.session);
  const own: ReadableScope[] = [];
  if (identity?.enabled && (privateTurn || (identity.declared && identity.personId))) {
    own.push(...senderScopes(identity).map((s) => (privateTurn ? s : publicOnly(s))));
  }
  const linked: ReadableScope[] = (input.linkedChats ?? [])
    .map((chat) => resolveScopeFromLaneKey(chat))
    .filter((s) => s.type === "chat")
    .map(publicOnly);
  const personal = personalScope(input);
  const readable = dedupeScopes([...own, session, ...linked, GLOBAL_SCOPE]);
  const writable = dedupeScopes([personal, session, ...global]);
  return { readable, writable, personal, session };
}

export function dedupeScopes<S extends Scope>(scopes: readonly S[]): S[] {
  const seen = new Set<string>();
  const out: S[] = [];
  for (const s of scopes) {
    const key = scopeKey(s);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(s);
  }
  return out;
}

export const includesScope = (scopes: readonly Scope[], scope: Scope): boolean =>
  scopes.some((s) => sameScope(s, scope));

/**
 * The scope as the one FTS token stored in `nodes.scope_token`: upper-case hex of the UTF-8
 * bytes of `type:id`, exactly what SQLite's `hex(scope_type || ':' || scope_id)` produces.
 */
export function scopeToken(scope: Scope): string {
  let out = "";
  for (const ch of `${scope.type}:${scope.id}`) {
    const cp = ch.codePointAt(0) ?? 0;
    const bytes =
      cp < 0x80
        ? [cp]
        : cp < 0x800
          ? [0xc0 | (cp >> 6), 0x80 | (cp & 63)]
          : cp < 0x10000
            ? [0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63)]
            : [0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 63), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63)];
    for (const b of bytes) out += b.toString(16).toUpperCase().padStart(2, "0");
  }
  return out;
}

/** A short human label for citations and the preview: 本聊天, 全局, 个人, … */
export function scopeLabel(scope: Scope, session: Scope): string {
  if (scope.type === "global") return "全局";
  if (sameScope(scope, session)) return "本聊天";
  if (scope.type === "person" || scope.type === "account") return "个人";
  if (scope.type === "chat") return "关联聊天";
  return scope.type;
}
