/**
 * `private-origin` (docs/memory.md#private-origin-migration): what was learned in a person's
 * private chat before private-by-origin existed (origin.ts) is re-marked the way a new item is
 * written. Only structured evidence counts — the session the item was written from
 * (`provenance.session`) or the private chat scope it lives in; text is never guessed from.
 *
 *   a `public` item in a person, account or chat scope, learned in a private chat
 *       → make_private: `private`, sensitivity_source `origin` (safe: `--apply-all-safe`)
 *   a global item learned in a private chat
 *       → review_global: moved to that private chat's scope, `private`/`origin` — listed for
 *         the owner, applied only when approved one by one
 *
 * Items already `private` or `secret_like` are left as they are.
 */
import { chatKeyOf, isOneToOneKey, parseLaneKey } from "../chat/chat-address";
import { err, ok, type Result } from "../kernel/result";
import { checkEntries, checkHeader, type Database, isObjectValue, type PlanHeader } from "./owner-plan";

export const PRIVATE_ORIGIN = "akasha.private-origin";

/** A row as `inspect` reads it. */
export type OriginRow = {
  readonly node_id: string;
  readonly node_type: string;
  readonly kind: string | null;
  readonly scope_type: string;
  readonly scope_id: string;
  readonly status: string;
  readonly sensitivity: string;
  readonly sensitivity_source: string;
  readonly raw_text: string;
  readonly provenance: string;
  readonly updated_at: number;
};

export type OriginAction = "make_private" | "review_global";

export type OriginEntry = {
  readonly nodeId: string;
  readonly kind: string | null;
  readonly action: OriginAction;
  readonly scope: string;
  /** The private chat it was learned in. */
  readonly chat: string;
  readonly approval: "pending" | "approved" | "rejected";
  readonly before: {
    readonly scope_type: string;
    readonly scope_id: string;
    readonly sensitivity: "public";
    readonly sensitivity_source: string;
    readonly updated_at: number;
  };
  /** The item's text, clipped, so the owner can review the plan. */
  readonly text: string;
};

export type OriginPlan = PlanHeader<typeof PRIVATE_ORIGIN> & {
  readonly counts: { readonly make_private: number; readonly review_global: number };
  readonly entries: readonly OriginEntry[];
};

/** A public item never has source `origin`: origin makes it at least private. */
const SOURCES = new Set(["default", "dream", "explicit"]);

function sessionOf(provenance: string): string | null {
  try {
    const v: unknown = JSON.parse(provenance);
    return isObjectValue(v) && typeof v.session === "string" ? v.session : null;
  } catch {
    return null;
  }
}

/** The private chat (chat key, lanes dropped) a row was learned in, or null. */
export function learnedInChat(row: Pick<OriginRow, "scope_type" | "scope_id" | "provenance">): string | null {
  const candidates = [sessionOf(row.provenance), row.scope_type === "chat" ? row.scope_id : null];
  for (const key of candidates) {
    if (key === null || !isOneToOneKey(key)) continue;
    const parsed = parseLaneKey(key);
    if (parsed.ok) return chatKeyOf(parsed.value.address);
  }
  return null;
}

export function planPrivateOrigin(
  rows: readonly OriginRow[],
  meta: { createdAt: string; database: Database },
): OriginPlan {
  const entries: OriginEntry[] = [];
  for (const r of rows) {
    if (r.status !== "active" || (r.node_type !== "memory" && r.node_type !== "summary")) continue;
    if (r.sensitivity !== "public" || !SOURCES.has(r.sensitivity_source)) continue;
    const chat = learnedInChat(r);
    if (chat === null) continue;
    entries.push({
      nodeId: r.node_id,
      kind: r.kind,
      action: r.scope_type === "global" ? "review_global" : "make_private",
      scope: `${r.scope_type}:${r.scope_id}`,
      chat,
      approval: "pending",
      before: {
        scope_type: r.scope_type,
        scope_id: r.scope_id,
        sensitivity: "public",
        sensitivity_source: r.sensitivity_source,
        updated_at: r.updated_at,
      },
      text: [...r.raw_text].slice(0, 120).join(""),
    });
  }
  const count = (a: OriginAction) => entries.filter((e) => e.action === a).length;
  return {
    kind: PRIVATE_ORIGIN,
    version: 1,
    createdAt: meta.createdAt,
    database: meta.database,
    counts: { make_private: count("make_private"), review_global: count("review_global") },
    entries,
  };
}

/** Validates a plan as read back (the owner may have edited approvals). */
export function readPrivateOriginPlan(json: unknown, database: Database): Result<OriginPlan, string> {
  const header = checkHeader(json, PRIVATE_ORIGIN, database);
  if (!header.ok) return header;
  const entries = checkEntries(
    header.value.entries as unknown[],
    ["make_private", "review_global"],
    (e, where) => {
      const b = e.before;
      const chat = typeof e.chat === "string" && isOneToOneKey(e.chat) ? e.chat : null;
      if (chat === null) return err(`${where} (${e.nodeId}): chat must be a private chat key`);
      if (
        !isObjectValue(b) ||
        b.sensitivity !== "public" ||
        typeof b.sensitivity_source !== "string" ||
        !SOURCES.has(b.sensitivity_source) ||
        typeof b.scope_type !== "string" ||
        typeof b.scope_id !== "string" ||
        (e.action === "review_global") !== (b.scope_type === "global") ||
        !Number.isSafeInteger(b.updated_at)
      ) {
        return err(
          `${where} (${e.nodeId}): before-state must be a public item of the scope its action names`,
        );
      }
      return ok(undefined);
    },
  );
  if (!entries.ok) return entries;
  return ok(header.value as unknown as OriginPlan);
}

/**
 * The rows an apply changes: approved rows, or — with `applyAllSafe` — also every pending
 * make_private row. A global item leaves global only when the owner approves it.
 */
export function selectPrivateOrigin(plan: OriginPlan, options: { applyAllSafe: boolean }): OriginEntry[] {
  return plan.entries.filter(
    (e) =>
      e.approval === "approved" ||
      (options.applyAllSafe && e.action === "make_private" && e.approval === "pending"),
  );
}
