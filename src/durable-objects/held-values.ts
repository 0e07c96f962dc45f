/**
 * The chat object's side of a value named afterwards (src/domain/privacy/named-afterwards.ts;
 * docs/decisions/0860-a-value-named-afterwards.md): a message that is nothing but a value is
 * accepted held, and each event accepted after it ends the waits it concerns before anything
 * triages them. Its sender's next message ends theirs, with the value masked when that message
 * names it a secret; a withdrawal ends every wait, so that a held message is logged before the
 * mark that withdraws it.
 */
import type { InboundEvent } from "../domain/inbound/inbound-event";
import { maskNamedValue, NAMING_WAIT_MS, valueToName } from "../domain/privacy/named-afterwards";
import type { Inbox } from "./inbox";

/** Until when an arriving event waits for its sender to name it: 0 for one that does not wait. */
export function heldUntil(event: InboundEvent, now: number): number {
  return valueToName(event) !== null ? now + NAMING_WAIT_MS : 0;
}

/** Ends the waits that `event`, just accepted, concerns. */
export function settleHeld(inbox: Inbox, event: InboundEvent, now: number): void {
  const account = event.sender?.account;
  for (const row of inbox.held(now)) {
    if (row.event.eventId === event.eventId) continue;
    if (event.kind === "message_deleted") inbox.release(row.seq, null);
    else if (account !== undefined && row.event.sender?.account === account) {
      const next = event.kind === "message" ? event.message?.text : undefined;
      inbox.release(row.seq, next === undefined ? null : maskNamedValue(row.event, next));
    }
  }
}
