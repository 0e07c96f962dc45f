/** The commands, intents, tools and recall sources every chat turn gets. */

import type { Command } from "../domain/agent/command";
import { helpCommand, pingCommand } from "../domain/agent/commands/basic-commands";
import { rememberCommand, rememberIntent, resetCommand } from "../domain/agent/commands/memory-commands";
import { historyRecall } from "../domain/agent/context-provider";
import { memoryMandatory, memoryRecall } from "../domain/agent/memory-context";
import { historyRecentTool, historySearchTool } from "../domain/agent/tools/history-tools";
import { memoryForgetTool, memorySearchTool, memoryWriteTool } from "../domain/agent/tools/memory-tools";
import { sessionResetTool } from "../domain/agent/tools/session-tools";
import type { TurnRegistry } from "../domain/agent/turn";

export function defaultTurnRegistry(): TurnRegistry {
  const commands: Command[] = [];
  commands.push(
    helpCommand(() => commands),
    pingCommand,
    rememberCommand,
    resetCommand,
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
    ],
    mandatory: memoryMandatory,
    context: [memoryRecall, historyRecall],
  };
}
