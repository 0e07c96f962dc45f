/**
 * The last step of moving the log: the old D1 rows of chats whose copy in the chat's object was
 * verified are deleted — only when the owner confirms, and each chat checked again right before
 * (its object still reads its own log and holds at least D1's rows). Without the confirmation the
 * call only says how many chats and rows it would delete. A chat whose rows are gone is listed in
 * `log_d1_deleted`: a rollback can no longer send it back to D1 and leaves it in its object.
 */
import { deleteMessages } from "../../adapters/d1/d1-chunked-deletes";
import type { D1LogMigrationLedger } from "../../adapters/d1/d1-log-migration";

/** Chats one call deletes at most; the next call takes the rest (`left`). */
export const DELETE_CHATS = 50;

export type D1DeletionChat = {
  readonly chatKey: string;
  readonly rows: number;
  readonly outcome: "deleted" | "kept";
  /** Why a chat was kept (in Chinese, for the owner). */
  readonly reason?: string;
};

export type D1DeletionReport = {
  readonly confirmed: boolean;
  readonly chats: readonly D1DeletionChat[];
  /** Rows deleted (confirmed) or that would be (not confirmed). */
  readonly rows: number;
  readonly left: number;
};

export type D1DeletionPorts = {
  readonly db: D1Database;
  readonly ledger: D1LogMigrationLedger;
  readonly object: (chatKey: string) => { logHome(): Promise<"object" | "d1">; logCount(): Promise<number> };
  readonly actor: string | null;
  readonly now: () => number;
};

async function whyKeep(ports: D1DeletionPorts, chatKey: string, rows: number): Promise<string | null> {
  const object = ports.object(chatKey);
  if ((await object.logHome()) !== "object") return "这个聊天的记录仍从 D1 读取（已回滚或未完成迁移）";
  const held = await object.logCount();
  if (held < rows) return `聊天对象里只有 ${held} 条，少于 D1 的 ${rows} 条`;
  return null;
}

export async function deleteMigratedD1Rows(
  ports: D1DeletionPorts,
  confirm: boolean,
): Promise<D1DeletionReport> {
  const all = await ports.ledger.deletable(DELETE_CHATS + 1);
  const now = all.slice(0, DELETE_CHATS);
  const left = all.length - now.length;
  if (!confirm) {
    const chats = now.map((c) => ({ ...c, outcome: "kept" as const, reason: "等待确认" }));
    return { confirmed: false, chats, rows: now.reduce((n, c) => n + c.rows, 0), left };
  }
  const chats: D1DeletionChat[] = [];
  let deleted = 0;
  for (const c of now) {
    const reason = await whyKeep(ports, c.chatKey, c.rows);
    if (reason !== null) {
      chats.push({ ...c, outcome: "kept", reason });
      continue;
    }
    const rows = await deleteMessages(ports.db, "chat_key = ?1", c.chatKey);
    await ports.ledger.markDeleted(c.chatKey, rows, ports.actor, ports.now());
    chats.push({ chatKey: c.chatKey, rows, outcome: "deleted" });
    deleted += rows;
  }
  return { confirmed: true, chats, rows: deleted, left };
}
