/**
 * Seeds for the privacy tests: message-log lines written through the production record builder
 * and log writer, daily summary nodes as the cron writes them, and dreaming candidates' rows.
 * Integration tests only.
 */
import { env } from "cloudflare:workers";
import { inboundRecord } from "@src/domain/history/message-record";
import { indexText } from "@src/domain/text/search-tokens";
import { messageEvent } from "../fakes/inbound";
import { uid } from "./memory";
import { writeLog } from "./object-log";

export type Line = {
  readonly chat: string;
  readonly sender: string;
  readonly nick: string;
  readonly text: string;
};

/** Writes these inbound messages to their chats' logs through the production record builder and log writers. */
export async function logEvents(events: readonly Parameters<typeof messageEvent>[0][]): Promise<void> {
  const records = events.flatMap((e) => {
    const r = inboundRecord(messageEvent(e));
    return r ? [r] : [];
  });
  await writeLog(records);
}

/** Written through the production record builder and log writer, yesterday. */
export function logLines(lines: readonly Line[]): Promise<void> {
  const start = Date.now() - 86_400_000;
  return logEvents(
    lines.map((l, i) => ({
      chat: l.chat,
      text: l.text,
      sender: l.sender,
      name: l.nick,
      ts: start + i * 1000,
      id: `M${uid()}`,
    })),
  );
}

/**
 * A daily summary node of the chat, as the cron writes it (chat scope, not portable): of
 * yesterday and written now unless `day` and `at` say otherwise.
 */
export async function summary(
  chat: string,
  text: string,
  sensitivity: "public" | "private" | "secret_like",
  when: { readonly day?: string; readonly at?: number } = {},
): Promise<string> {
  const nodeId = `sum_${uid()}${uid()}`;
  const day = when.day ?? new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
  await env.DB.prepare(
    `INSERT INTO nodes (node_id, node_type, source_type, source_id, scope_type, scope_id, kind, title, raw_text,
       retrieval_text, retrieval_tokens, metadata, provenance, importance, confidence, sensitivity,
       sensitivity_source, portable, status, content_hash, created_at, updated_at)
     VALUES (?1, 'summary', 'conversation', ?2, 'chat', ?2, 'summary', ?3, ?4, ?4, ?5, ?6, '{}', 0.5, 0.8, ?7,
       'dream', 0, 'active', ?1, ?8, ?8)`,
  )
    .bind(
      nodeId,
      chat,
      `${day} 摘要`,
      text,
      indexText(text),
      JSON.stringify({ day, method: "extractive", messages: 3, portable: false }),
      sensitivity,
      when.at ?? Date.now(),
    )
    .run();
  return nodeId;
}

/** A dreaming candidate's row as dreaming records one; returns its id. */
export async function candidateRow(
  chat: string,
  text: string,
  decision: string,
  nodeId: string | null,
  reason: string | null = null,
) {
  const { meta } = await env.DB.prepare(
    `INSERT INTO memory_candidates (run_id, chat_key, origin, kind, text, scope_type, scope_id, sensitivity,
       sensitivity_source, importance, decision, reason, node_id, target_node_id, evidence, created_at)
     VALUES (?1, ?2, 'dream', 'fact', ?3, 'chat', ?2, 'public', 'default', 0.5, ?4, ?6, ?5, NULL, '{}', 1)`,
  )
    .bind(`run-${crypto.randomUUID()}`, chat, text, decision, nodeId, reason)
    .run();
  return meta.last_row_id;
}
