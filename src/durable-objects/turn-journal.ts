/**
 * What the dreaming journal keeps of a turn (docs/memory.md#dreaming): the person's message with
 * the privacy it asked for, and the bot's replies, at private when the turn held words that must
 * stay in the chat (src/domain/agent/turn-privacy.ts), since a reply may repeat them.
 */
import type { InboundEvent } from "../domain/inbound/inbound-event";
import { explicitSensitivity } from "../domain/memory/sensitivity";
import type { DreamJournal } from "./dream-journal";

/** A user's message waiting for dreaming (stored chats only; commands are not journaled). */
export function journalMessage(journal: DreamJournal, event: InboundEvent, text: string): void {
  journal.append({
    role: "user",
    name: event.sender?.displayName ?? null,
    account: event.sender?.account ?? null,
    unionId: event.sender?.unionId ?? null,
    messageId: event.message?.id ?? null,
    text,
    ts: event.message?.ts ?? Date.now(),
    explicitSensitivity: explicitSensitivity(text),
  });
}

export function journalReply(journal: DreamJournal, text: string, held: boolean): void {
  journal.append({
    role: "assistant",
    name: null,
    account: null,
    unionId: null,
    messageId: null,
    text,
    ts: Date.now(),
    explicitSensitivity: held ? "private" : null,
  });
}
