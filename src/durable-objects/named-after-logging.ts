/**
 * A value sent to the bot and named a secret only after it was stored
 * (docs/decisions/0880-a-value-named-after-its-turn.md). A message addressed to the bot is not
 * held for its naming (held-values.ts): its answer is due at once. So when its sender's next
 * message names it, within NAMING_WAIT_MS, every store of this object that holds it since is
 * rewritten with the value masked — the kept inbox rows, the log (and D1's copy while the log is
 * read there), the waiting outbox rows, the short-term context, the dream journal, the replies
 * (the bot's echo of it among them) and the open reminders. It runs in the naming's triage transaction, before
 * the naming's own turn reads anything. The value is read again from what was stored: nothing
 * keeps it aside for the purpose.
 */
import { rewrittenRecord } from "../domain/history/message-record";
import type { InboundEvent } from "../domain/inbound/inbound-event";
import { hideInEvent, valueHider } from "../domain/privacy/announced-credential";
import {
  hideInJson,
  NAMING_WAIT_MS,
  namesValueBefore,
  valueNamedLater,
} from "../domain/privacy/named-afterwards";
import { logHomeOf } from "./chat-log-home";
import type { ChatParts } from "./chat-parts";
import { compactIndexes } from "./fts-erase";
import type { OutboxItem } from "./outbox";

export type NamingParts = Pick<
  ChatParts,
  "inbox" | "outbox" | "recent" | "journal" | "replies" | "reminders" | "log"
>;

/**
 * Masks what its sender said before `event` (inbox row `seq`) wherever it is stored, when `event`
 * names it a secret and it was a value sent alone. True when it did.
 */
export function maskNamedAfterLogging(
  parts: NamingParts,
  sql: SqlStorage,
  seq: number,
  event: InboundEvent,
): boolean {
  const message = event.message;
  const account = event.sender?.account;
  if (event.kind !== "message" || !message || account === undefined) return false;
  if (!namesValueBefore(message.text)) return false;
  const said = lastSaid(parts, seq, account, message);
  if (said === null) return false;
  hideEverywhere(parts, sql, said.value, said.ts);
  return true;
}

/**
 * The value of the sender's last message before row `seq`. Every row before it is triaged, so a
 * logged chat's log holds that message, newest by arrival. A chat whose log is not kept holds
 * only what was said to the bot: a kept inbox row whose turn is still to come, else the
 * short-term context. Null when that message is older than the wait or no value alone (Chinese
 * words alone count here: they are never held, docs/decisions/0900-chinese-words-named-afterwards.md).
 */
function lastSaid(
  parts: NamingParts,
  seq: number,
  account: string,
  naming: { text: string; ts: number },
): { value: string; ts: number } | null {
  const ts = naming.ts;
  const from = ts - NAMING_WAIT_MS;
  const waiting = parts.inbox
    .openBefore(seq)
    .flatMap((r) =>
      r.event.kind === "message" && r.event.sender?.account === account && r.event.message
        ? [r.event.message]
        : [],
    )
    .at(-1);
  const said =
    parts.log.lastFrom(account, from, ts) ??
    (waiting && waiting.ts >= from ? { text: waiting.text, ts: waiting.ts } : null) ??
    parts.recent.lastOf(account, from, ts);
  const value = said === null ? null : valueNamedLater(said.text, naming.text);
  return said === null || value === null ? null : { value, ts: said.ts };
}

function hideEverywhere(parts: NamingParts, sql: SqlStorage, value: string, since: number): void {
  const hide = valueHider(value);
  const hideJson = (json: string) => hideInJson(json, hide);
  for (const row of parts.inbox.openBefore(Number.MAX_SAFE_INTEGER)) {
    const masked = hideInEvent(row.event, hide);
    if (JSON.stringify(masked) !== JSON.stringify(row.event)) parts.inbox.rewrite(row.seq, masked);
  }
  const rewritten = parts.log.rewriteSince(since, (r) => rewrittenRecord(r, hide, hideJson));
  // The old terms leave the index pages too: secure-delete (migration 0490) can leave fragments
  // in a page's unused bytes; a chat's own indexes are small enough to rewrite (fts-erase.ts).
  if (rewritten.length > 0) compactIndexes(sql);
  parts.outbox.rewrite((item) => rewriteItem(item, hide, hideJson));
  // D1 holds a copy of the log only while the log is read there (chat-log-home.ts).
  if (logHomeOf(sql) === "d1")
    for (const r of rewritten) {
      const { transport, chatKey, messageId, ts, text, tokens, rawJson } = r;
      parts.outbox.push(
        { kind: "rewrite", body: { transport, chatKey, messageId, ts, text, tokens, rawJson } },
        Date.now(),
      );
    }
  parts.recent.hide(since, hide);
  parts.journal.hide(since, hide);
  parts.replies.hide(since, hide);
  parts.reminders.hide(since, hide);
}

/** A waiting outbox row with the value hidden: a log row's tokens rebuilt, any other row's strings. */
function rewriteItem(
  item: OutboxItem,
  hide: (text: string) => string,
  hideJson: (json: string) => string,
): OutboxItem {
  if (item.kind === "message") {
    const body = rewrittenRecord(item.body, hide, hideJson);
    return body === item.body ? item : { kind: "message", body };
  }
  const before = JSON.stringify(item.body);
  const after = hideJson(before);
  return after === before ? item : ({ kind: item.kind, body: JSON.parse(after) } as OutboxItem);
}
