/**
 * A session as Markdown (`/session export`): its memory, its summaries and, when asked, its log.
 * Days and times are in `calendar.timeZone`, each time with its offset, so a message shows on
 * the day the bot's "昨天" and the daily summaries put it (docs/decisions/0270-one-clock.md).
 */
import { formatLocalTime, localDay } from "../kernel/local-time";
import type { ExportData, SessionInfo } from "./session-registry";

/** One line per entry: newlines inside a text would break the list. */
const flat = (text: string) => text.replace(/\s*\n\s*/g, " ").trim();

export function renderSessionExport(
  session: SessionInfo,
  data: ExportData,
  now: number,
  timeZone: string,
): string {
  const day = (ms: number) => localDay(ms, timeZone);
  const time = (ms: number) => formatLocalTime(ms, timeZone, { seconds: true });
  const out = [
    `# ${session.alias ?? session.title ?? session.chatKey}`,
    "",
    `- session: \`${session.sessionId}\``,
    `- chat: \`${session.chatKey}\``,
    `- exported: ${time(now)} (${timeZone})`,
    "",
    `## Memory (${data.memory.length})`,
    "",
    ...(data.memory.length
      ? data.memory.map(
          (m) =>
            `- [${m.kind}] ${flat(m.text)} _(${m.sensitivity}${m.status === "active" ? "" : `, ${m.status}`}, ${day(m.createdAt)}, ${m.nodeId})_`,
        )
      : ["_none_"]),
    "",
    `## Summaries (${data.summaries.length})`,
    "",
    ...(data.summaries.length
      ? data.summaries.map((s) => `- ${day(s.createdAt)}: ${flat(s.text)}`)
      : ["_none_"]),
  ];
  if (data.log) {
    out.push("", `## Log (${data.log.length})`, "");
    out.push(
      ...(data.log.length
        ? data.log.map(
            (m) => `- ${time(m.ts)} ${m.direction === "out" ? "→" : "←"} ${m.nick ?? "?"}: ${flat(m.text)}`,
          )
        : ["_none_"]),
    );
  }
  return `${out.join("\n")}\n`;
}
