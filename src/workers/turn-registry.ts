/** The commands, tools and recall sources every chat turn gets, and the guard over the tools. */

import { consoleLogger } from "../adapters/log/console-logger";
import type { Command } from "../domain/agent/command";
import { helpCommand, pingCommand } from "../domain/agent/commands/basic-commands";
import { identityCommand } from "../domain/agent/commands/identity-commands";
import { historyRecall } from "../domain/agent/context-provider";
import { findChatTool } from "../domain/agent/tools/find-chat-tool";
import { historyRecentTool, historySearchTool } from "../domain/agent/tools/history-tools";
import { identityManageTool } from "../domain/agent/tools/identity-tool";
import { sendMessageTool } from "../domain/agent/tools/send-message-tool";
import type { TurnRegistry } from "../domain/agent/turn";
import { authorizationGuard } from "../domain/authorization/tool-guard";
import type { Logger } from "../domain/shared/logger";

export function defaultTurnRegistry(logger: Logger = consoleLogger): TurnRegistry {
  const commands: Command[] = [];
  commands.push(
    helpCommand(() => commands),
    pingCommand,
    identityCommand,
  );
  return {
    commands,
    tools: [historySearchTool, historyRecentTool, findChatTool, sendMessageTool, identityManageTool],
    context: [historyRecall],
    // Privilege first, then chat domain; strips model-supplied allowed_chats (DESIGN §3.8).
    guard: authorizationGuard(logger),
  };
}
