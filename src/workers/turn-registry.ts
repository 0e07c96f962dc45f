/** The commands, intents, tools and recall sources every chat turn gets, and the guard over the tools. */

import { consoleLogger } from "../adapters/log/console-logger";
import type { Command } from "../domain/agent/command";
import { helpCommand, pingCommand } from "../domain/agent/commands/basic-commands";
import { identityCommand } from "../domain/agent/commands/identity-commands";
import { rememberCommand, rememberIntent, resetCommand } from "../domain/agent/commands/memory-commands";
import { historyRecall } from "../domain/agent/context-provider";
import { knowledgeRecall } from "../domain/agent/knowledge-recall";
import { memoryMandatory, memoryRecall } from "../domain/agent/memory-context";
import { configChangeTool } from "../domain/agent/tools/config-change-tool";
import { findChatTool } from "../domain/agent/tools/find-chat-tool";
import { historyRecentTool, historySearchTool } from "../domain/agent/tools/history-tools";
import { identityManageTool } from "../domain/agent/tools/identity-tool";
import { kbManageTool } from "../domain/agent/tools/kb-manage-tool";
import { contextReadTool, kbSearchTool } from "../domain/agent/tools/knowledge-tools";
import { sessionManageTool } from "../domain/agent/tools/manage-session-tool";
import { memoryForgetTool, memorySearchTool, memoryWriteTool } from "../domain/agent/tools/memory-tools";
import { sendMessageTool } from "../domain/agent/tools/send-message-tool";
import { sessionResetTool } from "../domain/agent/tools/session-tools";
import type { TurnRegistry } from "../domain/agent/turn";
import { authorizationGuard } from "../domain/authorization/tool-guard";
import type { Logger } from "../domain/shared/logger";

export function defaultTurnRegistry(logger: Logger = consoleLogger): TurnRegistry {
  const commands: Command[] = [];
  commands.push(
    helpCommand(() => commands),
    pingCommand,
    rememberCommand,
    resetCommand,
    identityCommand,
  );
  return {
    commands,
    intents: [rememberIntent],
    tools: [
      historySearchTool,
      historyRecentTool,
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
    context: [memoryRecall, historyRecall, knowledgeRecall],
    // Privilege first, then chat domain; strips model-supplied allowed_chats (docs/identity.md#the-tool-guard).
    guard: authorizationGuard(logger),
  };
}
