/** The commands, intents, tools and recall sources every chat turn gets, and the guard over the tools. */

import { gateFor } from "../authorization/authorization-gate";
import { authorizationGuard } from "../authorization/tool-guard";
import { type Logger, silentLogger } from "../kernel/logger";
import type { Command } from "./command";
import { helpCommand, pingCommand } from "./commands/basic-commands";
import { followCommand, unfollowCommand } from "./commands/follow-commands";
import { identityCommand } from "./commands/identity-commands";
import { rememberCommand, rememberIntent, resetCommand } from "./commands/memory-commands";
import { forgetCommand, memoryListCommand } from "./commands/own-memory-commands";
import { claimCommand, whoamiCommand } from "./commands/owner-commands";
import { reminderIntent, remindersCommand } from "./commands/reminder-commands";
import { sessionCommand } from "./commands/session-command";
import { shareCommand } from "./commands/share-command";
import { historyRecall } from "./context-provider";
import { knowledgeCatalogue } from "./knowledge-catalogue";
import { knowledgeRecall } from "./knowledge-recall";
import { memoryMandatory, memoryRecall } from "./memory-context";
import { configChangeTool } from "./tools/config-change-tool";
import { findChatTool } from "./tools/find-chat-tool";
import { historyRecentTool } from "./tools/history-recent-tool";
import { historySearchTool } from "./tools/history-search-tool";
import { identityManageTool } from "./tools/identity-tool";
import { kbManageTool } from "./tools/kb-manage-tool";
import { contextReadTool, kbSearchTool } from "./tools/knowledge-tools";
import { sessionManageTool } from "./tools/manage-session-tool";
import { memoryForgetTool, memorySearchTool, memoryWriteTool } from "./tools/memory-tools";
import { recallCrossChatTool } from "./tools/recall-cross-chat-tool";
import { searchChatHistoryTool } from "./tools/search-chat-history-tool";
import { sendMessageTool } from "./tools/send-message-tool";
import { sessionResetTool } from "./tools/session-tools";
import type { TurnRegistry } from "./turn";

/** The wiring passes the real logger; without one (domain tests) the guard's refusals go unlogged. */
export function defaultTurnRegistry(logger: Logger = silentLogger): TurnRegistry {
  const commands: Command[] = [];
  commands.push(
    helpCommand(() => commands),
    pingCommand,
    rememberCommand,
    shareCommand,
    memoryListCommand,
    forgetCommand,
    resetCommand,
    whoamiCommand,
    claimCommand,
    followCommand,
    unfollowCommand,
    identityCommand,
    sessionCommand,
    remindersCommand,
  );
  return {
    commands,
    // The reminder first: "记住提醒我…" asks for a reminder, not a memory.
    intents: [reminderIntent, rememberIntent],
    tools: [
      historySearchTool,
      historyRecentTool,
      searchChatHistoryTool,
      recallCrossChatTool,
      memorySearchTool,
      memoryWriteTool,
      memoryForgetTool,
      sessionResetTool,
      findChatTool,
      sendMessageTool,
      identityManageTool,
      sessionManageTool,
      kbSearchTool,
      contextReadTool,
      kbManageTool,
      configChangeTool,
    ],
    mandatory: memoryMandatory,
    context: [memoryRecall, historyRecall, knowledgeRecall, knowledgeCatalogue],
    // Privilege first, then chat domain; strips model-supplied allowed_chats (docs/identity.md#the-tool-guard).
    guard: authorizationGuard(logger),
    // Admin status as the gate resolves it: an admin's explicit writes may go global.
    isAdmin: (ctx) => gateFor(ctx.settings.identity).isAdmin(ctx.sender?.account),
  };
}
