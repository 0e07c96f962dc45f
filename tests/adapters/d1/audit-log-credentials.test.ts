/**
 * Every writer of the audit log stores records through one row (auditLogRow), which masks
 * credentials in the target and the detail: a tool, a route or a migration that puts what it
 * was sent there cannot store a secret, whatever it forgets to check itself.
 *
 * Own file: it writes the stored settings.
 */
import { env } from "cloudflare:workers";
import { auditLogRow, D1AuditLog } from "@src/adapters/d1/d1-audit-log";
import { D1MessageLog } from "@src/adapters/d1/d1-message-log";
import { openDatabase } from "@src/adapters/d1/database";
import { auditSql } from "@src/adapters/d1/owner-migrations/owner-plan-sql";
import { D1SettingsStore } from "@src/adapters/d1/settings-store";
import type { AuditRecord } from "@src/domain/history/message-log";
import { CREDENTIAL_MASK } from "@src/domain/privacy/credentials";
import { Outbox } from "@src/durable-objects/outbox";
import { afterEach, describe, type ExpectStatic, it } from "vitest";
import { inFreshChatObject } from "../../support/chat-object";

const GHP = "ghp_0123456789abcdefghijABCDEFGHIJ";
const XOXB = "xoxb-1234567890-0987654321-AbCdEfGhIjKlMnOpQrStUvWx";
const PIECES = ["0123456789abcdefghij", "AbCdEfGhIjKlMnOpQrStUvWx"];

/** An audit record carrying a key in its target and another in a nested detail value. */
const record = (action: string): AuditRecord => ({
  dedupeKey: `${action}:${crypto.randomUUID()}`,
  at: Date.now(),
  actor: "qq:user:ADMIN",
  action,
  chatKey: "qq:private:ADMIN",
  target: `llm.${GHP}`,
  detail: { via: "tool", source: `notes ${XOXB}.md`, paths: ["turn.persona", `x ${GHP}`] },
});

/** The stored row of `action`, as D1 holds it. */
const storedRow = (action: string) =>
  env.DB.prepare("SELECT target, detail FROM audit_log WHERE action = ?1").bind(action).first<{
    target: string;
    detail: string;
  }>();

function expectMasked(expect: ExpectStatic, text: string) {
  for (const piece of PIECES) expect(text).not.toContain(piece);
}

afterEach(async () => {
  await env.DB.prepare("DELETE FROM settings").run();
});

describe("the audit log keeps no credential", () => {
  it("auditLogRow masks the target and every string of the detail, nested ones included", ({ expect }) => {
    const row = auditLogRow(record("test.row"));
    expect(row.target).toBe(`llm.${CREDENTIAL_MASK}`);
    expect(JSON.parse(row.detail)).toEqual({
      via: "tool",
      source: `notes ${CREDENTIAL_MASK}.md`,
      paths: ["turn.persona", `x ${CREDENTIAL_MASK}`],
    });
  });

  it.for([
    [
      "the admin routes' log",
      (r: AuditRecord) =>
        new D1AuditLog(env.DB).record({ ...r, actor: r.actor ?? "", target: r.target ?? "" }),
    ],
    [
      "the chat objects' flush",
      (r: AuditRecord) =>
        new D1MessageLog(openDatabase(env.DB)).flush({
          messages: [],
          recalls: [],
          chats: [],
          usage: [],
          audit: [r],
        }),
    ],
    [
      "the settings save",
      async (r: AuditRecord) => {
        const store = new D1SettingsStore(openDatabase(env.DB));
        if (!(await store.save("{}", await store.read(), r)))
          throw new Error("the settings save was refused");
      },
    ],
  ] as const)("stores it masked through %s", async ([label, write], { expect }) => {
    const action = `test.${label.replaceAll(" ", "_")}`;
    await write(record(action));
    const row = await storedRow(action);
    expect(row?.target).toBe(`llm.${CREDENTIAL_MASK}`);
    expect(row?.detail).toContain(CREDENTIAL_MASK);
    expectMasked(expect, JSON.stringify(row));
  });

  it("writes the owner migrations' audit SQL masked", ({ expect }) => {
    const sql = auditSql({
      dedupeKey: "k1",
      at: 1,
      action: "owner_plan.apply",
      detail: { note: `by ${GHP}` },
    });
    expect(sql).toContain(CREDENTIAL_MASK);
    expectMasked(expect, sql);
  });

  it("keeps none in the chat object's outbox while the row waits for its flush", async ({ expect }) => {
    const stored = await inFreshChatObject((storage) => {
      const outbox = new Outbox(storage.sql);
      outbox.push({ kind: "audit", body: record("test.outbox") }, 1);
      const rows = storage.sql.exec<{ body: string }>("SELECT body FROM outbox").toArray();
      return { rows: rows.map((r) => r.body).join("\n"), taken: outbox.take(10)?.batch.audit[0] };
    });
    expectMasked(expect, stored.rows);
    expect(stored.taken?.target).toBe(`llm.${CREDENTIAL_MASK}`);
  });
});
