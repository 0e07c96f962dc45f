/**
 * `/session forget-person` over D1 (docs/sessions.md#forget): the `person:<id>` items and the
 * `account:<key>` items of each of the person's accounts, their candidates and observations,
 * with the same vector and embedding clean-up as a chat's forget; without confirmation, only
 * the counts. And a left-out person's own messages, from every chat's log.
 */
import type { PersonForgetCounts, PersonForgetPreview } from "../../domain/sessions/session-registry";
import { type AfterRemoval, deleteMessages, deleteNodes } from "./d1-chunked-deletes";

/**
 * The chats an account may have messages in, for a forget that must reach each chat's own log,
 * with how many rows of it D1's log holds there: the chats it was seen in (every inbound message
 * of an account leaves a sighting of it in its chat) and the chats D1's log has rows of it in (a
 * chat whose log is still read from D1, or written there beside its object's). Read before
 * anything deletes the sightings.
 */
export async function chatsOfAccount(
  db: D1Database,
  account: string,
): Promise<{ chatKey: string; d1Rows: number }[]> {
  const { results } = await db
    .prepare(
      `SELECT chatKey, sum(n) AS d1Rows FROM (
         SELECT chat_key AS chatKey, 0 AS n FROM account_observations WHERE account_key = ?1
         UNION ALL SELECT chat_key AS chatKey, count(*) AS n FROM messages WHERE account_key = ?1 GROUP BY chat_key
       ) GROUP BY chatKey ORDER BY chatKey`,
    )
    .bind(account)
    .all<{ chatKey: string; d1Rows: number }>();
  return results;
}

/**
 * Deletes one account's own messages from the log of every chat (a left-out person's past,
 * docs/settings.md#privacy-leaving-a-person-out); the log's triggers take their FTS rows, windows and sender counts.
 */
export function forgetAccountMessages(db: D1Database, account: string): Promise<number> {
  return deleteMessages(db, "account_key = ?1", account);
}

export async function forgetPerson(
  db: D1Database,
  personId: string,
  accounts: readonly string[],
  afterRemoval: AfterRemoval,
): Promise<PersonForgetCounts> {
  const scopes = [["person", personId], ...accounts.map((a) => ["account", a])];
  const nodes = await deleteNodes(
    db,
    "(scope_type, scope_id) IN (SELECT value ->> '$[0]', value ->> '$[1]' FROM json_each(?1))",
    [JSON.stringify(scopes)],
    afterRemoval,
  );
  const list = JSON.stringify(accounts);
  const [candidates, observations] = await db.batch([
    db
      .prepare(
        `DELETE FROM memory_candidates
         WHERE (scope_type, scope_id) IN (SELECT value ->> '$[0]', value ->> '$[1]' FROM json_each(?1))`,
      )
      .bind(JSON.stringify(scopes)),
    db
      .prepare("DELETE FROM account_observations WHERE account_key IN (SELECT value FROM json_each(?1))")
      .bind(list),
  ]);
  return {
    accounts,
    memory: nodes.total,
    nodesFts: nodes.total,
    candidates: candidates?.meta.changes ?? 0,
    observations: observations?.meta.changes ?? 0,
    embeddings: nodes.embeddings,
    vectors: nodes.vectors,
  };
}

export async function previewForgetPerson(
  db: D1Database,
  personId: string,
  accounts: readonly string[],
): Promise<PersonForgetPreview> {
  const scopes = JSON.stringify([["person", personId], ...accounts.map((a) => ["account", a])]);
  const inScopes = "(scope_type, scope_id) IN (SELECT value ->> '$[0]', value ->> '$[1]' FROM json_each(?1))";
  const row = await db
    .prepare(
      `SELECT (SELECT count(*) FROM nodes WHERE ${inScopes}) AS memory,
              (SELECT count(*) FROM memory_candidates WHERE ${inScopes}) AS candidates,
              (SELECT count(*) FROM account_observations WHERE account_key IN (SELECT value FROM json_each(?2))) AS observations`,
    )
    .bind(scopes, JSON.stringify(accounts))
    .first<{ memory: number; candidates: number; observations: number }>();
  return {
    accounts,
    memory: row?.memory ?? 0,
    candidates: row?.candidates ?? 0,
    observations: row?.observations ?? 0,
  };
}
