/** Commands every chat has. */
import type { Command } from "../command";

export const pingCommand: Command = {
  name: "ping",
  usage: "/ping",
  summary: "检查机器人是否在线",
  async run() {
    return "pong";
  },
};

/** Lists the registry it is given, so new commands appear without touching this file. */
export function helpCommand(all: () => readonly Command[]): Command {
  return {
    name: "help",
    usage: "/help",
    summary: "列出可用命令",
    async run() {
      const lines = all().map((c) => `${c.usage} — ${c.summary}`);
      return ["可用命令：", ...lines, "其他消息会由我直接回答。"].join("\n");
    },
  };
}
