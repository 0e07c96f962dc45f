/** QQ message bodies with identity fields, and readers for the identity and audit tables. */
import { env } from "cloudflare:workers";
import { qqMessageBody } from "./qq-events";
import { eventually } from "./wait";

export const uid = (prefix: string) => `${prefix}${crypto.randomUUID().replaceAll("-", "").toUpperCase()}`;

export function groupBodyWithIdentity(input: {
  group: string;
  member: string;
  text: string;
  union?: string;
  name?: string;
  role?: string;
  ts?: string;
}) {
  return qqMessageBody("GROUP_AT_MESSAGE_CREATE", {
    content: ` ${input.text}`,
    timestamp: input.ts ?? new Date().toISOString(),
    author: {
      id: input.member,
      member_openid: input.member,
      ...(input.union ? { union_openid: input.union } : {}),
      ...(input.name ? { username: input.name } : {}),
      ...(input.role ? { member_role: input.role } : {}),
    },
    group_id: input.group,
    group_openid: input.group,
  });
}

export function c2cBodyWithIdentity(input: { user: string; text: string; union?: string; name?: string }) {
  return qqMessageBody("C2C_MESSAGE_CREATE", {
    content: input.text,
    timestamp: new Date().toISOString(),
    author: {
      id: input.user,
      user_openid: input.user,
      ...(input.union ? { union_openid: input.union } : {}),
      ...(input.name ? { username: input.name } : {}),
    },
  });
}

export type ObservationRow = {
  account_key: string;
  chat_key: string;
  user_id: string;
  union_key: string | null;
  display_name: string | null;
  role: string | null;
  first_seen: number;
  last_seen: number;
};

export async function observationRows(account: string): Promise<ObservationRow[]> {
  const { results } = await env.DB.prepare(
    "SELECT * FROM account_observations WHERE account_key = ? ORDER BY chat_key",
  )
    .bind(account)
    .all<ObservationRow>();
  return results;
}

export async function linkRow(account: string) {
  return env.DB.prepare(
    "SELECT account_key, person_id, source, union_key, linked_by FROM person_accounts WHERE account_key = ?",
  )
    .bind(account)
    .first<{
      account_key: string;
      person_id: string | null;
      source: string;
      union_key: string | null;
      linked_by: string | null;
    }>();
}

export type AuditRow = {
  actor: string | null;
  action: string;
  chat_key: string | null;
  target: string | null;
  detail: Record<string, unknown>;
};

export async function auditRows(chatKey: string): Promise<AuditRow[]> {
  const { results } = await env.DB.prepare(
    "SELECT actor, action, chat_key, target, detail FROM audit_log WHERE chat_key = ? ORDER BY at, id",
  )
    .bind(chatKey)
    .all<Omit<AuditRow, "detail"> & { detail: string }>();
  return results.map((r) => ({ ...r, detail: JSON.parse(r.detail) as Record<string, unknown> }));
}

/**
 * The chat's audit rows that `which` keeps, once `enough` says they are all there (any one by
 * default): a turn's audit rows may reach D1 after the turn is done.
 */
export const auditRowsOnceThere = (
  chatKey: string,
  which: (row: AuditRow) => boolean = () => true,
  enough: (rows: AuditRow[]) => boolean = (rows) => rows.length > 0,
): Promise<AuditRow[]> =>
  eventually(async () => {
    const rows = (await auditRows(chatKey)).filter(which);
    return enough(rows) ? rows : undefined;
  });
