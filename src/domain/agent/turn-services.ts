/** Ports a turn uses. Built by the chat object from its bindings; fakes in domain tests. */

import type { HistorySearch } from "../history/history-search";
import type { IdentityResolver } from "../identity/sender-identity";
import type { MemoryServices } from "../memory/memory-store";
import type { Clock } from "../shared/clock";
import type { Logger } from "../shared/logger";
import type { ChatModel } from "./chat-model";
import type { SessionControl } from "./session-control";

export type TurnServices = {
  readonly model: ChatModel;
  readonly history: HistorySearch;
  readonly identity: IdentityResolver;
  /** Long-term memory: store, full-text index, chat links. */
  readonly memory: MemoryServices;
  /** The chat's short-term context (session reset). */
  readonly session: SessionControl;
  readonly clock: Clock;
  readonly logger: Logger;
};
