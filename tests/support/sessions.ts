/** Registers chats straight in D1 and calls the sessions admin API (integration tests). */
import { env } from "cloudflare:workers";
import { api } from "./knowledge-api";

/** A `chats` row, as the chat object's flush writes it. */
export async function registerChat(chatKey: string, seenAt = Date.now(), title: string | null = null) {
  const [channel = "", targetType = "", ...rest] = chatKey.split(":");
  await env.DB.prepare(
    `INSERT OR IGNORE INTO chats (chat_key, channel, target_type, target_id, title, followed, first_seen, last_seen)
     VALUES (?1, ?2, ?3, ?4, ?5, 1, ?6, ?6)`,
  )
    .bind(chatKey, channel, targetType, rest.join(":"), title, seenAt)
    .run();
}

export async function sessionsApi<T = Record<string, unknown>>(
  path: string,
  body?: unknown,
  method = body === undefined ? "GET" : "POST",
): Promise<{ status: number; body: T }> {
  const res = await api(`/api/sessions${path}`, {
    method,
    ...(body === undefined
      ? {}
      : { headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
  });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = { raw: text };
  }
  return { status: res.status, body: parsed as T };
}

export async function sessionAudit(action: string) {
  const { results } = await env.DB.prepare(
    "SELECT actor, action, chat_key, target, detail FROM audit_log WHERE action = ?1 ORDER BY id",
  )
    .bind(action)
    .all<{
      actor: string | null;
      action: string;
      chat_key: string | null;
      target: string | null;
      detail: string;
    }>();
  return results.map((r) => ({ ...r, detail: JSON.parse(r.detail) as Record<string, unknown> }));
}
