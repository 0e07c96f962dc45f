/** A session as Markdown (`/session export`): its memory, its summaries and, when asked, its log. */
import type { ExportData, SessionInfo } from "./session-registry";

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const time = (ms: number) => new Date(ms).toISOString().replace("T", " ").slice(0, 19);
/** One line per entry: newlines inside a text would break the list. */
const flat = (text: string) => text.replace(/\s*\n\s*/g, " ").trim();

export function renderSessionExport(session: SessionInfo, data: ExportData, now: number): string {
  const out = [
    `# ${session.alias ?? session.title ?? session.chatKey}`,
    "",
    `- session: \`${session.sessionId}\``,
    `- chat: \`${session.chatKey}\``,
    `- exported: ${time(now)} UTC`,
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
