/**
 * Dreaming candidates as the owner's credential sweep reads them
 * (docs/decisions/0980-memory-kept-before-a-detector-read-it.md): each `memory_candidates` row
 * keeps the statement it decided about, shown on the memory page. A statement refused for a
 * credential is recorded withheld; one recorded before a detector learned its wording keeps the
 * value, whatever was decided (a rejection keeps no item the sweep would erase with it), and so
 * may the reason the model gave for an archive. The sweep withholds both as a candidate is
 * withheld today, and keeps the record of the decision.
 */

import { WITHHELD } from "../../domain/memory/dream-decisions";
import { CANDIDATE_ID, type SweptText } from "../../domain/memory/held-credentials";
import { type AdminAct, adminActRow } from "./d1-audit-log";
import { countedPage } from "./d1-counted-page";

type Row = {
  id: number;
  chat_key: string;
  scope_type: string;
  scope_id: string;
  decision: string;
  text: string;
  reason: string | null;
};

/** A candidate's statement, with the chat it was decided in. */
export type CandidateText = SweptText & { readonly chatKey: string };

const text = (r: Row): CandidateText => ({
  nodeId: `${CANDIDATE_ID}${r.id}`,
  scope: r.scope_type === "global" ? "global" : `${r.scope_type}:${r.scope_id}`,
  status: r.decision,
  // The reason is read with the statement: the model wrote an archive's (remember.ts).
  text: r.reason ? `${r.text}\n${r.reason}` : r.text,
  chatKey: r.chat_key,
});

const COLUMNS = "id, chat_key, scope_type, scope_id, decision, text, reason";

/** The row ids of `ids` that name a candidate; other ids are left out. */
function rowIds(ids: readonly string[]): number[] {
  return ids.flatMap((id) => {
    const n = id.startsWith(CANDIDATE_ID) ? id.slice(CANDIDATE_ID.length) : "";
    return /^[1-9]\d{0,15}$/.test(n) ? [Number(n)] : [];
  });
}

export class D1CandidateTexts {
  readonly #db: D1Database;
  constructor(db: D1Database) {
    this.#db = db;
  }

  /** A page of every candidate, newest first, and how many there are. */
  async page(p: { limit: number; offset: number }): Promise<{ items: CandidateText[]; total: number }> {
    return countedPage(
      this.#db,
      this.#db
        .prepare(`SELECT ${COLUMNS} FROM memory_candidates ORDER BY id DESC LIMIT ?1 OFFSET ?2`)
        .bind(p.limit, p.offset),
      this.#db.prepare("SELECT count(*) AS total FROM memory_candidates"),
      text,
    );
  }

  /** The candidates these ids name; ids of no candidate are left out. */
  async get(ids: readonly string[]): Promise<CandidateText[]> {
    const rows = rowIds(ids);
    if (rows.length === 0) return [];
    const { results } = await this.#db
      .prepare(`SELECT ${COLUMNS} FROM memory_candidates WHERE id IN (SELECT value FROM json_each(?1))`)
      .bind(JSON.stringify(rows))
      .all<Row>();
    return results.map(text);
  }

  /**
   * Withholds one candidate's statement, as a credential is withheld when it is recorded; the
   * audit row names the id only. False when it is gone (an erased item takes its candidates).
   */
  async withhold(id: string, act: AdminAct): Promise<boolean> {
    const [found] = await this.get([id]);
    if (!found) return false;
    await this.#db.batch([
      this.#db
        .prepare("UPDATE memory_candidates SET text = ?2, reason = 'credential' WHERE id = ?1")
        .bind(rowIds([id])[0], WITHHELD),
      adminActRow(this.#db, act, { action: "candidate.withhold", target: id, chatKey: found.chatKey }),
    ]);
    return true;
  }
}
