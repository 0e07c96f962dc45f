/** Ports a turn uses. Built by the chat object from its bindings; fakes in domain tests. */

import type { SettingsAdmin } from "../config/settings-admin";
import type { HistorySearch } from "../history/history-search-port";
import type { AdminClaims } from "../identity/admin-claim";
import type { IdentityDirectory } from "../identity/identity-directory";
import type { IdentityResolver } from "../identity/sender-identity";
import type { AuditTrail } from "../kernel/audit";
import type { Clock } from "../kernel/clock";
import type { Logger } from "../kernel/logger";
import type { KnowledgeAccess } from "../knowledge/knowledge-search";
import type { MemoryServices } from "../memory/memory-store";
import type { ChatModel, UsageRecord } from "../model/chat-model";
import type { ReminderBook } from "../reminders/reminder";
import type { SessionAdmin } from "../sessions/session-admin";
import type { SpendGate } from "../spend/spend-gate";
import type { ChatRelay } from "./chat-relay";
import type { OtherChatContexts, ShortTermContext } from "./short-term-context";

export type TurnServices = {
  readonly model: ChatModel;
  readonly history: HistorySearch;
  readonly identity: IdentityResolver;
  /** Identity tables, for admin identity commands and tools. */
  readonly directory: IdentityDirectory;
  /** Cross-chat messages (`send_message`). */
  readonly relay: ChatRelay;
  /** Long-term memory: store, full-text index, chat links. */
  readonly memory: MemoryServices;
  /** The chat's short-term context (session reset). */
  readonly shortTermContext: ShortTermContext;
  /** Other chats' short-term context, through their chat objects (`session_manage`). */
  readonly otherContexts: OtherChatContexts;
  /** The stored settings layer (`config_change`). */
  readonly settingsAdmin: SettingsAdmin;
  /** Supplied by `runTurn`, which returns what was recorded with the turn's result. */
  readonly audit: AuditTrail;
  readonly clock: Clock;
  readonly logger: Logger;
  /** The knowledge base (kb_search, context_read, automatic KB recall); absent = no KB. */
  readonly knowledge?: KnowledgeAccess;
  /** Daily token caps, checked before each model call; absent = no caps. */
  readonly spend?: SpendGate;
  /** The session registry (`/session`); absent = the command says it is unavailable. */
  readonly sessionAdmin?: SessionAdmin;
  /** The first admin's one-time codes (`/claim`); absent = the command says it is unavailable. */
  readonly claims?: AdminClaims;
  /** This chat's reminders, in its own chat object; absent = reminders are unavailable here. */
  readonly reminders?: ReminderBook;
  /** Resolves after `ms` milliseconds (deadlines of side calls such as the follow-up rewrite); absent = no such calls. */
  readonly after?: (ms: number) => Promise<void>;
  /**
   * The turn's model calls other than its own rounds (the follow-up rewrite): recorded with the
   * turn's usage and counted by its spend checks. Supplied by `runTurn`; absent = no such calls.
   */
  readonly usage?: UsageSink;
};

export type UsageSink = {
  record(usage: UsageRecord): void;
  /** Everything this turn has recorded so far, for the spend gate. */
  spent(): readonly UsageRecord[];
};

/** What the caller of `runTurn` supplies: every port except the turn's own audit trail. */
export type TurnPorts = Omit<TurnServices, "audit" | "usage">;
