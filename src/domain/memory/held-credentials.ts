/**
 * Memory items, chat summaries and dreaming candidates that hold a credential as today's
 * detectors read it (docs/decisions/0980-memory-kept-before-a-detector-read-it.md). Memory never
 * stores one, but it can only refuse what its detectors read when the item is written: an item
 * kept before a reader learned its wording ("记住：压缩包打开要输 酸辣土豆丝 别外传", before the reader
 * of values in Chinese words) stays, and is recalled; so does a summary written then, and a
 * candidate's statement recorded then. The owner finds them and erases them; they are shown
 * masked, so finding them says the value to no one.
 */
import { err, ok, type Result } from "../kernel/result";
import { maskSensitiveDataInMessage } from "../privacy/credentials";
import type { MemoryItem, MemoryStatus } from "./memory";
import type { MemoryKind } from "./scope";
import { looksLikeTypedCredential } from "./sensitivity";

/**
 * An item that holds a credential, as the owner is shown it: its text with the value masked, or
 * null when no detector reads the value and the text only says what a secret is ("wifi密码是作业写完了吗
 * 老铁"): such a text is not shown at all.
 */
export type HeldCredential = {
  readonly nodeId: string;
  readonly scope: string;
  /** A memory item's kind, `summary` for a chat's summary, `candidate` for a dreaming candidate. */
  readonly kind: MemoryKind | "summary" | "candidate";
  readonly status: MemoryStatus | string;
  readonly masked: string | null;
};

/**
 * A text the sweep reads beside the items: a chat's summary (daily or of a conversation), or a
 * dreaming candidate's statement (`candidate:<id>`, its decision as its status).
 */
export type SweptText = {
  readonly nodeId: string;
  readonly scope: string;
  readonly status: string;
  readonly text: string;
};

/** The prefix of a dreaming candidate's id in the sweep: its row id follows. */
export const CANDIDATE_ID = "candidate:";

/** The items of `items` whose text an admin could not write today: read as an admin's text is. */
export function heldCredentials(items: readonly MemoryItem[]): HeldCredential[] {
  return items
    .filter((i) => holds(i))
    .map((i) => ({
      nodeId: i.nodeId,
      scope: i.scope.type === "global" ? "global" : `${i.scope.type}:${i.scope.id}`,
      kind: i.kind,
      status: i.status,
      masked: shown(i.text),
    }));
}

/**
 * The summaries or dreaming candidates that hold a credential, read as memory is: one written
 * before a detector learned a wording keeps the value. A summary is read into its chat's context
 * and by sibling chats; a candidate is shown on the memory page.
 */
export function heldTexts(kind: "summary" | "candidate", texts: readonly SweptText[]): HeldCredential[] {
  return texts
    .filter((s) => holds(s))
    .map((s) => ({ nodeId: s.nodeId, scope: s.scope, kind, status: s.status, masked: shown(s.text) }));
}

const holds = (t: { readonly text: string }) => looksLikeTypedCredential(t.text);

function shown(text: string): string | null {
  const masked = maskSensitiveDataInMessage(text);
  return masked === text ? null : masked;
}

/** Why an erasure is refused whole: ids of no memory item, summary or candidate, and ones that hold no credential. */
export type ErasureRefusal = { readonly notFound: readonly string[]; readonly notHeld: readonly string[] };

/**
 * The ids to erase, when each names an item that holds a credential: the owner erases what the
 * detectors read, never an item the request only names. One id that does not is refused with the
 * rest, so a mistyped list changes nothing.
 */
export function credentialErasure(
  ids: readonly string[],
  items: readonly { readonly nodeId: string; readonly text: string }[],
): Result<string[], ErasureRefusal> {
  const wanted = [...new Set(ids)];
  const found = new Set(items.map((i) => i.nodeId));
  const held = new Set(items.filter(holds).map((i) => i.nodeId));
  const notFound = wanted.filter((id) => !found.has(id));
  const notHeld = wanted.filter((id) => found.has(id) && !held.has(id));
  return notFound.length + notHeld.length === 0 ? ok(wanted) : err({ notFound, notHeld });
}
