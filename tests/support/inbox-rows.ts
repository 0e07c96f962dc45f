/** An inbox row as the alarm sees it after triage: accepted, then triaged. */

import type { InboundEvent } from "@src/domain/inbound/inbound-event";
import type { Inbox } from "@src/durable-objects/inbox";

export function addTriaged(inbox: Inbox, event: InboundEvent, needsTurn: boolean, now: number): void {
  if (!inbox.accept(event, needsTurn, now)) throw new Error(`event ${event.eventId} already accepted`);
  for (const row of inbox.untriaged(100)) inbox.markTriaged(row.seq, row.needsTurn, now);
}
