/**
 * A turn attempt's usage and audit records, queued in the outbox beside its other rows for the
 * flush to D1. Each key names the chat, the event, the attempt and the record's place, so a
 * retried flush writes nothing twice.
 */
import type { AuditEvent } from "../domain/kernel/audit";
import type { UsageRecord } from "../domain/model/chat-model";
import type { InboxRow } from "./inbox";
import type { Outbox } from "./outbox";

export function pushTurnRecords(
  outbox: Outbox,
  row: InboxRow,
  records: { usage: readonly UsageRecord[]; audit: readonly AuditEvent[] },
  now: number,
): void {
  const key = `${row.event.chat.key}:${row.eventId}:${row.attempts}`;
  records.usage.forEach((u, i) => {
    outbox.push({ kind: "usage", body: { ...u, dedupeKey: `${key}:${i}` } }, now);
  });
  records.audit.forEach((a, i) => {
    outbox.push(
      {
        kind: "audit",
        body: {
          dedupeKey: `${key}:audit:${i}`,
          at: a.at,
          actor: a.actor,
          action: a.action,
          chatKey: a.chatKey,
          target: a.target,
          detail: { outcome: a.outcome, ...a.detail },
        },
      },
      now,
    );
  });
}
