/** Logger port over console: one JSON object per line, as Workers Logs indexes them. */
import type { LogFields, Logger } from "../../domain/kernel/logger";

function line(level: string, msg: string, fields?: LogFields): string {
  return JSON.stringify({ level, msg, ...fields });
}

export const consoleLogger: Logger = {
  info: (msg, fields) => console.log(line("info", msg, fields)),
  warn: (msg, fields) => console.warn(line("warn", msg, fields)),
  error: (msg, fields) => console.error(line("error", msg, fields)),
};
