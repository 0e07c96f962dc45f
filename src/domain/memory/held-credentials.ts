/**
 * Memory items that hold a credential as today's detectors read it
 * (docs/decisions/0980-memory-kept-before-a-detector-read-it.md). Memory never stores one, but it
 * can only refuse what its detectors read when the item is written: an item kept before a reader
 * learned its wording ("记住：压缩包打开要输 酸辣土豆丝 别外传", before the reader of values in Chinese
 * words) stays, and is recalled. The owner finds them and erases them; they are shown masked, so
 * finding them says the value to no one.
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
  readonly kind: MemoryKind;
  readonly status: MemoryStatus;
  readonly masked: string | null;
};

/** The items of `items` whose text an admin could not write today: read as an admin's text is. */
export function heldCredentials(items: readonly MemoryItem[]): HeldCredential[] {
  return items
    .filter((i) => looksLikeTypedCredential(i.text))
    .map((i) => {
      const masked = maskSensitiveDataInMessage(i.text);
      return {
        nodeId: i.nodeId,
        scope: i.scope.type === "global" ? "global" : `${i.scope.type}:${i.scope.id}`,
        kind: i.kind,
        status: i.status,
        masked: masked === i.text ? null : masked,
      };
    });
}

/** Why an erasure is refused whole: ids of no memory item, and items that hold no credential. */
export type ErasureRefusal = { readonly notFound: readonly string[]; readonly notHeld: readonly string[] };

/**
 * The ids to erase, when each names an item that holds a credential: the owner erases what the
 * detectors read, never an item the request only names. One id that does not is refused with the
 * rest, so a mistyped list changes nothing.
 */
export function credentialErasure(
  ids: readonly string[],
  items: readonly MemoryItem[],
): Result<string[], ErasureRefusal> {
  const wanted = [...new Set(ids)];
  const found = new Set(items.map((i) => i.nodeId));
  const held = new Set(heldCredentials(items).map((h) => h.nodeId));
  const notFound = wanted.filter((id) => !found.has(id));
  const notHeld = wanted.filter((id) => found.has(id) && !held.has(id));
  return notFound.length + notHeld.length === 0 ? ok(wanted) : err({ notFound, notHeld });
}
