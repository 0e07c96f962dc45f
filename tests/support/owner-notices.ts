/** Notices to the owner seeded straight into D1, for the API, dashboard and CLI tests. */
import { env } from "cloudflare:workers";

export async function seedNotice(
  input: { kind?: string; subject?: string; text?: string; raised?: boolean } = {},
) {
  const now = Date.now();
  const row = await env.DB.prepare(
    `INSERT INTO owner_notices (kind, subject, text, first_seen, last_seen, count, window_start, raised_at)
     VALUES (?1, ?2, ?3, ?4, ?4, 2, ?4, ?5) RETURNING id`,
  )
    .bind(
      input.kind ?? "spend-cap",
      input.subject ?? `global:${crypto.randomUUID()}`,
      input.text ?? "全部会话 2026-12-04 的用量已达每日上限",
      now,
      input.raised === false ? null : now,
    )
    .first<{ id: number }>();
  if (!row) throw new Error("notice not seeded");
  return row.id;
}

export const noticeRow = (id: number) =>
  env.DB.prepare("SELECT acknowledged_at, acknowledged_by FROM owner_notices WHERE id = ?").bind(id).first<{
    acknowledged_at: number | null;
    acknowledged_by: string | null;
  }>();

export const ackAudit = async (id: number) =>
  (
    await env.DB.prepare("SELECT actor, detail FROM audit_log WHERE action = 'notice.ack' AND target = ?")
      .bind(`#${id}`)
      .all<{ actor: string; detail: string }>()
  ).results;
