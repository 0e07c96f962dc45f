/** The commands, tools and recall sources every chat turn gets. */

import type { Command } from "../domain/agent/command";
import { helpCommand, pingCommand } from "../domain/agent/commands/basic-commands";
import { historyRecall } from "../domain/agent/context-provider";
import { knowledgeRecall } from "../domain/agent/knowledge-recall";
import { historyRecentTool, historySearchTool } from "../domain/agent/tools/history-tools";
import { contextReadTool, kbSearchTool } from "../domain/agent/tools/knowledge-tools";
import type { TurnRegistry } from "../domain/agent/turn";

export function defaultTurnRegistry(): TurnRegistry {
  const commands: Command[] = [];
  commands.push(
    helpCommand(() => commands),
    pingCommand,
  );
  return {
    commands,
    tools: [historySearchTool, historyRecentTool, kbSearchTool, contextReadTool],
    context: [historyRecall, knowledgeRecall],
  };
}
