/**
 * `scope-migration`: moves global memory that was really about one chat into that chat's
 * scope (docs/memory.md#scope-migration). Only structured evidence counts — session and
 * chat-address keys in the item's metadata and provenance; text is never guessed from.
 *
 *   chat-scoped kind (preference, fact, task, rule) + evidence naming exactly one typed chat
 *       → migrate to chat:<that chat>
 *   evidence naming several typed chats            → manual_review (the owner picks `to`)
 *   global kind (decision, procedure, warning, summary) → keep
 *   no evidence, or only legacy sessions            → keep
 *
 * A global item is never moved without evidence.
 */
import { chatKeyOf, isTyped, parseLaneKey } from "../chat/chat-address";
import { err, ok, type Result } from "../kernel/result";
import {
  type Applied,
  checkEntries,
  checkHeader,
  type Database,
  isObjectValue,
  type PlanHeader,
} from "./owner-plan";
import { isGlobalKind, isPersonalKind } from "./scope";

export const SCOPE_MIGRATION = "akasha.scope-migration";

/** A global memory row as `inspect` reads it. */
export type GlobalMemoryRow = {
  readonly node_id: string;
  readonly kind: string | null;
  readonly scope_type: string;
  readonly scope_id: string;
  readonly status: string;
  readonly node_type: string;
  readonly raw_text: string;
  readonly metadata: string;
  readonly provenance: string;
  readonly updated_at: number;
};

export type ScopeMigrationEntry = {
  readonly nodeId: string;
  readonly kind: string | null;
  readonly action: "migrate" | "keep" | "manual_review";
  readonly reason: string;
  /** Typed chats the evidence names. */
  readonly chats: readonly string[];
  /** Legacy (untyped) sessions the evidence names. */
  readonly legacy: readonly string[];
  /** Target scope id (a chat key); null for keep, and for manual_review until the owner picks one. */
  readonly to: string | null;
  readonly approval: "pending" | "approved" | "rejected";
  readonly before: {
    readonly scope_type: string;
    readonly scope_id: string;
    readonly status: string;
    readonly updated_at: number;
  };
  /** The item's text, clipped, so the owner can review the plan. */
  readonly text: string;
};

export type ScopeMigrationPlan = PlanHeader<typeof SCOPE_MIGRATION> & {
  readonly counts: { readonly migrate: number; readonly keep: number; readonly manual_review: number };
  readonly entries: readonly ScopeMigrationEntry[];
};

const SESSION_KEYS = [
  "session",
  "session_id",
  "source_session_id",
  "created_from_session_id",
  "requester_session_id",
];
const CHAT_KEYS = [
  "chat",
  "chat_key",
  "chatKey",
  "chat_address",
  "source_chat_address",
  "created_from_chat_address",
  "target_chat_address",
  "from_chat_address",
];

function parseJson(text: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(text);
    return isObjectValue(v) ? v : {};
  } catch {
    return {};
  }
}

/** A session/chat reference: a key string, or an address object `{channel, chat_type, chat_id}`. */
function keyOf(value: unknown): string | null {
  if (typeof value === "string") return value.trim() || null;
  if (!isObjectValue(value)) return null;
  const channel = value.channel;
  const type = value.chat_type ?? value.target_type ?? value.targetType;
  const id = value.chat_id ?? value.target_id ?? value.targetId;
  if (typeof channel !== "string" || (typeof id !== "string" && typeof id !== "number")) return null;
  return typeof type === "string" && type !== "" && type !== "unknown"
    ? `${channel}:${type}:${id}`
    : `${channel}:${id}`;
}

/** Typed chats and legacy sessions named by an item's structured evidence. */
export function evidenceOf(metadata: string, provenance: string): { chats: string[]; legacy: string[] } {
  const chats = new Set<string>();
  const legacy = new Set<string>();
  const add = (raw: unknown) => {
    for (const v of Array.isArray(raw) ? raw : [raw]) {
      const key = keyOf(v);
      if (!key) continue;
      const parsed = parseLaneKey(key);
      if (!parsed.ok) continue;
      if (isTyped(parsed.value.address)) chats.add(chatKeyOf(parsed.value.address));
      else legacy.add(key);
    }
  };
  for (const source of [parseJson(metadata), parseJson(provenance)]) {
    for (const name of [...SESSION_KEYS, ...CHAT_KEYS]) add(source[name]);
    add(source.message_context);
  }
  return { chats: [...chats].sort(), legacy: [...legacy].sort() };
}

const CHAT_SCOPED = (kind: string | null) => kind !== null && (isPersonalKind(kind) || kind === "rule");

export function classify(
  row: GlobalMemoryRow,
): Omit<ScopeMigrationEntry, "approval" | "before" | "text" | "nodeId"> {
  const { chats, legacy } = evidenceOf(row.metadata, row.provenance);
  const base = { kind: row.kind, chats, legacy };
  if (row.kind !== null && isGlobalKind(row.kind))
    return { ...base, action: "keep", reason: "global kind", to: null };
  if (!CHAT_SCOPED(row.kind)) return { ...base, action: "keep", reason: "kind is not chat-scoped", to: null };
  if (chats.length === 1)
    return { ...base, action: "migrate", reason: "evidence names one chat", to: chats[0] ?? null };
  if (chats.length > 1)
    return { ...base, action: "manual_review", reason: "evidence names several chats", to: null };
  if (legacy.length > 0) return { ...base, action: "keep", reason: "only legacy sessions", to: null };
  return { ...base, action: "keep", reason: "no evidence", to: null };
}

export function planScopeMigration(
  rows: readonly GlobalMemoryRow[],
  meta: { createdAt: string; database: Database },
): ScopeMigrationPlan {
  const entries: ScopeMigrationEntry[] = rows
    .filter((r) => r.node_type === "memory" && r.scope_type === "global" && r.status === "active")
    .map((r) => ({
      nodeId: r.node_id,
      ...classify(r),
      approval: "pending",
      before: { scope_type: r.scope_type, scope_id: r.scope_id, status: r.status, updated_at: r.updated_at },
      text: [...r.raw_text].slice(0, 120).join(""),
    }));
  const count = (a: ScopeMigrationEntry["action"]) => entries.filter((e) => e.action === a).length;
  return {
    kind: SCOPE_MIGRATION,
    version: 1,
    createdAt: meta.createdAt,
    database: meta.database,
    counts: { migrate: count("migrate"), keep: count("keep"), manual_review: count("manual_review") },
    entries,
  };
}

/** Validates a plan file as read back from disk (the owner may have edited approvals and `to`). */
export function readScopeMigrationPlan(
  json: unknown,
  database: Database,
): Result<ScopeMigrationPlan, string> {
  const header = checkHeader(json, SCOPE_MIGRATION, database);
  if (!header.ok) return header;
  const entries = checkEntries(
    header.value.entries as unknown[],
    ["migrate", "keep", "manual_review"],
    (e, where) => {
      const before = e.before;
      if (
        !isObjectValue(before) ||
        before.scope_type !== "global" ||
        before.scope_id !== "__global__" ||
        typeof before.status !== "string" ||
        !Number.isSafeInteger(before.updated_at)
      ) {
        return err(`${where} (${e.nodeId}): before-state missing or not a global item`);
      }
      if (!Array.isArray(e.chats) || !e.chats.every((c) => typeof c === "string"))
        return err(`${where}: chats must be a list`);
      if (e.action === "keep" && e.approval === "approved") {
        return err(`${where} (${e.nodeId}): a 'keep' entry cannot be approved; it has nothing to migrate`);
      }
      if (e.to !== null && e.to !== undefined) {
        if (typeof e.to !== "string" || !(e.chats as string[]).includes(e.to)) {
          return err(
            `${where} (${e.nodeId}): to must be one of the chats the evidence names (${(e.chats as string[]).join(", ")})`,
          );
        }
      }
      if (e.action === "manual_review" && e.approval === "approved" && typeof e.to !== "string") {
        return err(`${where} (${e.nodeId}): an approved manual_review entry needs 'to' (one of its chats)`);
      }
      return ok(undefined);
    },
  );
  if (!entries.ok) return entries;
  return ok(header.value as unknown as ScopeMigrationPlan);
}

/**
 * The rows an apply changes: approved rows with a target, or — with `applyAllSafe` — also
 * every pending `migrate` row. Rejected rows, keep rows and manual_review rows without an
 * approved target are never applied.
 */
export function selectScopeMigration(
  plan: ScopeMigrationPlan,
  options: { applyAllSafe: boolean },
): ScopeMigrationEntry[] {
  return plan.entries.filter(
    (e) =>
      e.to !== null &&
      e.action !== "keep" &&
      (e.approval === "approved" ||
        (options.applyAllSafe && e.action === "migrate" && e.approval === "pending")),
  );
}

export type { Applied };
