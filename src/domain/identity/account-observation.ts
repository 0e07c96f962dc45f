/** The observation every inbound message with a sender leaves behind (docs/identity.md#people-and-accounts). */
import type { InboundEvent } from "../inbound/inbound-event";
import type { AccountObservation } from "./identity-directory";
import { unionKeyOf } from "./person";

/** Names and roles are display data; long ones are cut, not refused. */
const MAX_NAME = 64;

export function observationOf(event: InboundEvent, now: number): AccountObservation | null {
  if (event.kind !== "message" || !event.sender) return null;
  const seen = event.message?.ts ?? now;
  const { sender } = event;
  return {
    account: sender.account,
    chatKey: event.chat.key,
    userId: sender.userId,
    unionKey: sender.unionId ? unionKeyOf(event.chat.channel, sender.unionId) : null,
    displayName: clip(sender.displayName),
    role: clip(sender.role),
    firstSeen: seen,
    lastSeen: seen,
  };
}

/** Several observations of one account in one chat become one, carrying the latest name and role. */
export function mergeObservations(a: AccountObservation, b: AccountObservation): AccountObservation {
  const later = b.lastSeen >= a.lastSeen ? b : a;
  const earlier = later === b ? a : b;
  return {
    ...later,
    unionKey: later.unionKey ?? earlier.unionKey,
    displayName: later.displayName ?? earlier.displayName,
    role: later.role ?? earlier.role,
    firstSeen: Math.min(a.firstSeen, b.firstSeen),
    lastSeen: Math.max(a.lastSeen, b.lastSeen),
  };
}

function clip(text: string | null): string | null {
  if (text === null || text.trim() === "") return null;
  const chars = [...text.trim()];
  return chars.length > MAX_NAME ? chars.slice(0, MAX_NAME).join("") : chars.join("");
}
