/** The commands, tools and recall sources every chat turn gets. */

import type { Command } from "../domain/agent/command";
import { helpCommand, pingCommand } from "../domain/agent/commands/basic-commands";
import { historyRecall } from "../domain/agent/context-provider";
import { historyRecentTool, historySearchTool } from "../domain/agent/tools/history-tools";
import type { TurnRegistry } from "../domain/agent/turn";

export function defaultTurnRegistry(): TurnRegistry {
  const commands: Command[] = [];
  commands.push(
    helpCommand(() => commands),
    pingCommand,
  );
  return {
    commands,
    tools: [historySearchTool, historyRecentTool],
    context: [historyRecall],
  };
}
