/** A ReminderBook over an array, for domain tests of the reminder intent and `/reminders`. */
import type { AccountKey } from "../../src/domain/chat/chat-address";
import { err, ok } from "../../src/domain/kernel/result";
import {
  MAX_OPEN_REMINDERS,
  type NewReminder,
  type Reminder,
  type ReminderBook,
} from "../../src/domain/reminders/reminder";

export class InMemoryReminders implements ReminderBook {
  readonly rows: (Reminder & { eventId: string; chat: NewReminder["chat"] })[] = [];

  async add(r: NewReminder) {
    const again = this.rows.find((x) => x.eventId === r.eventId);
    if (again) return ok(again);
    if (this.rows.filter((x) => x.state === "open").length >= MAX_OPEN_REMINDERS)
      return err({ kind: "too-many" as const, limit: MAX_OPEN_REMINDERS });
    const row = {
      id: this.rows.length + 1,
      eventId: r.eventId,
      chat: r.chat,
      setBy: r.setBy,
      setByName: r.setByName,
      text: r.text,
      dueAt: r.dueAt,
      createdAt: r.now,
      delivery: r.delivery,
      state: "open" as const,
    };
    this.rows.push(row);
    return ok(row);
  }

  async open() {
    return this.rows.filter((r) => r.state === "open").sort((a, b) => a.dueAt - b.dueAt);
  }

  async cancel(id: number, by: { account: AccountKey | null; isAdmin: boolean }) {
    const i = this.rows.findIndex((r) => r.id === id && r.state === "open");
    const row = this.rows[i];
    if (!row) return err({ kind: "not-found" as const });
    if (!by.isAdmin && row.setBy !== by.account) return err({ kind: "not-yours" as const });
    this.rows[i] = { ...row, state: "cancelled", text: "" };
    return ok(row);
  }
}
