/** Ports a turn uses. Built by the chat object from its bindings; fakes in domain tests. */

import type { HistorySearch } from "../history/history-search";
import type { IdentityResolver } from "../identity/sender-identity";
import type { KnowledgeAccess } from "../knowledge/knowledge-search";
import type { Clock } from "../shared/clock";
import type { Logger } from "../shared/logger";
import type { ChatModel } from "./chat-model";

export type TurnServices = {
  readonly model: ChatModel;
  readonly history: HistorySearch;
  readonly identity: IdentityResolver;
  readonly clock: Clock;
  readonly logger: Logger;
  /** The knowledge base (kb_search, context_read, automatic KB recall); absent = no KB. */
  readonly knowledge?: KnowledgeAccess;
};
