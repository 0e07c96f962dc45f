/**
 * Explicit memory (`/remember`, "记住…", "remember that …", the `memory_write` tool): written
 * at once, in the scope its kind maps to, deduplicated within that scope, audited like every
 * dreaming candidate. A privacy phrase or the tool's `sensitivity` parameter sets
 * `sensitivity_source = explicit`, which no later dreaming can override.
 */

import type { Logger } from "../kernel/logger";
import { err, ok, type Result } from "../kernel/result";
import { maskSensitiveDataInMessage } from "../privacy/credentials";
import { restatedTargets } from "./decay";
import {
  clampImportance,
  type MemoryEvidence,
  type MemoryItem,
  type MemoryOrigin,
  type Sensitivity,
} from "./memory";
import type { CandidateRecord, MemoryStore } from "./memory-store";
import { ScopeItems } from "./merge";
import { learnedInPrivate } from "./origin";
import { readStatements, type StatementRefusal } from "./read-statements";
import { type RestatementVectors, VectorMemo } from "./restatement-vectors";
import {
  includesScope,
  isMemoryKind,
  type MemoryKind,
  type Scope,
  type ScopeInput,
  scopeAllows,
  scopeForKind,
  turnScopes,
} from "./scope";
import type { Speaker } from "./speaker-name";
import { planStatement, type Remembered, type WritePlan } from "./write-plan";

export type { Remembered } from "./write-plan";

const STORAGE_OFF = "storage is off for this chat: nothing was stored";

export type RememberRequest = {
  /** What to remember, as the person or the model said it. */
  readonly text: string;
  readonly origin: Exclude<MemoryOrigin, "dream">;
  /** The model's kind (memory_write); absent → classified by the rules. */
  readonly kind?: MemoryKind;
  readonly importance?: number;
  /** memory_write's sensitivity parameter: explicit, but never below private in a private chat. */
  readonly sensitivity?: Sensitivity;
  /**
   * The person's own message carries a share marker ("可以告诉大家", origin.ts): in their private
   * chat the item is then public. For a command it is read from the command's text; for
   * memory_write from the person's message, never from the model's words. Absent = false.
   */
  readonly shared?: boolean;
  /** A privacy request of the speaker around the message (read-statements.ts): private at least. */
  readonly asked?: Sensitivity;
  readonly scopes: ScopeInput;
  readonly speaker: Speaker;
  readonly account: string | null;
  readonly messageId: string | null;
  /** Inbound event (plus tool call) this write belongs to: a retried turn writes the same ids. */
  readonly runId: string;
  readonly chatKey: string;
  readonly now: number;
};

export type RememberError =
  | StatementRefusal
  | { readonly kind: "not-writable"; readonly reason: string }
  /**
   * The store kept fewer new items than were written: the chat's storage is off
   * (`/session store <id> off`), which drops every insert (docs/sessions.md#commands).
   */
  | { readonly kind: "not-stored"; readonly stored: number; readonly of: number; readonly reason: string };

/** What a write may use beside the store: the read model's vectors for restatements in other words. */
export type RememberOptions = {
  readonly restatements?: RestatementVectors | null;
  readonly logger?: Logger;
};

export async function remember(
  store: MemoryStore,
  req: RememberRequest,
  options: RememberOptions = {},
): Promise<Result<Remembered[], RememberError>> {
  const read = readStatements(req);
  if (!read.ok) return read;
  const { writable, readable } = turnScopes(req.scopes);
  // A legacy session's only scope is global: there, only an admin writes.
  if (writable.length === 0)
    return err({ kind: "not-writable", reason: "only an admin writes the global scope from here" });

  const plan: WritePlan = {
    out: [],
    candidates: [],
    inserts: [],
    supersede: [],
    updates: [],
    scopeItems: new ScopeItems(store, new VectorMemo(options.restatements ?? null, options.logger)),
    merged: new Map(),
  };
  const evidence: MemoryEvidence = {
    session: req.scopes.session,
    messageIds: req.messageId ? [req.messageId] : [],
    account: req.account,
    person: req.scopes.identity?.personId ?? null,
    origin: req.origin,
    runId: req.runId,
  };
  for (const s of read.value.statements) {
    if (!isMemoryKind(s.kind)) continue;
    const tag = read.value.tag;
    const scope: Scope = scopeForKind(s.kind, req.scopes, tag.sensitivity);
    if (!includesScope(writable, scope)) continue;
    const record = {
      runId: req.runId,
      chatKey: req.chatKey,
      origin: req.origin,
      kind: s.kind,
      text: s.text,
      scope,
      sensitivity: tag.sensitivity,
      sensitivitySource: tag.source,
      importance: clampImportance(req.importance, s.importance),
      evidence: { ...evidence },
    };
    const statement = { ...s, kind: s.kind };
    await planStatement(
      store,
      { statement, record, tag, readable, evidence, runId: req.runId, now: req.now },
      plan,
    );
  }

  const { out, scopeItems: _items, merged: _merged, ...writes } = plan;
  if (out.length === 0)
    return err({ kind: "not-writable", reason: "none of it belongs to a scope this chat may write" });
  const report = await store.commit({
    runId: req.runId,
    chatKey: req.chatKey,
    at: req.now,
    writable,
    archive: [],
    ...writes,
    // Said again — repeated or merged — reinforces what it restates (decay.ts).
    restated: restatedTargets(writes.candidates),
  });
  // A retried run was applied before; otherwise the answer says only what the store kept.
  const wanted = writes.inserts.length;
  // A merge or a repeat changes an existing item; with storage off it changes none.
  if (report.ok && wanted === 0 && writes.updates.length > 0 && report.value.updated === 0)
    return err({ kind: "not-stored", stored: 0, of: writes.updates.length, reason: STORAGE_OFF });
  if (report.ok && report.value.inserted < wanted)
    return err({
      kind: "not-stored",
      stored: report.value.inserted,
      of: wanted,
      reason:
        report.value.inserted === 0
          ? STORAGE_OFF
          : `only ${report.value.inserted} of ${wanted} items were stored`,
    });
  return ok(out);
}

/**
 * How a forget ends: `erase` for the person's own `/forget`, which deletes the item and every
 * copy of its text; `archive` for memory_forget, which a model calls and an admin can undo
 * (docs/decisions/0940-a-persons-forget-erases.md).
 */
export type ForgetHow = "archive" | "erase";

/**
 * `/forget` and memory_forget: ends one item, only if it belongs to a scope this turn may write
 * and is one this turn may read; any other id answers not-found, so neither can be used to probe
 * other chats' memory. A person's group turn writes their person scope but reads only its
 * public items: their private ones are forgotten in their private chat, where the answer that
 * names the item is said to them alone.
 */
export async function forget(
  store: MemoryStore,
  req: {
    nodeId: string;
    scopes: ScopeInput;
    runId: string;
    chatKey: string;
    now: number;
    reason: string;
    how: ForgetHow;
  },
): Promise<Result<MemoryItem, { kind: "not-found"; what: string }>> {
  const { writable, readable } = turnScopes(req.scopes);
  const item = await store.get(req.nodeId);
  // A closed item is still the person's to forget, in a private chat only: a group never learns
  // that something newer replaced an item. An archived one is already gone.
  const closedHere = item?.status === "superseded" && learnedInPrivate(req.scopes.session);
  if (
    (item?.status !== "active" && !closedHere) ||
    !writable.some((s) => s.type === item.scope.type && s.id === item.scope.id) ||
    !scopeAllows(readable, item)
  ) {
    return err({ kind: "not-found", what: `memory ${req.nodeId}` });
  }
  const commit = {
    runId: req.runId,
    chatKey: req.chatKey,
    at: req.now,
    writable,
    inserts: [],
    supersede: [],
  };
  const report = await store.commit(
    req.how === "erase"
      ? // No candidate row: it would copy the text the person asked to be rid of. The audit names the id.
        { ...commit, archive: [], erase: [item.nodeId], updates: [], candidates: [] }
      : { ...commit, archive: [item.nodeId], updates: [], candidates: [archiveCandidate(item, req)] },
  );
  // Ended by someone else in between: the answer must not claim this call did it.
  const ended = report.ok ? report.value[req.how === "erase" ? "erased" : "archived"] : 1;
  if (ended === 0) return err({ kind: "not-found", what: `memory ${req.nodeId}` });
  return ok(item);
}

/** The candidate row that records memory_forget's archive, as dreaming records its own. */
function archiveCandidate(
  item: MemoryItem,
  req: { runId: string; chatKey: string; reason: string; scopes: ScopeInput },
): CandidateRecord {
  return {
    runId: req.runId,
    chatKey: req.chatKey,
    origin: "tool",
    kind: item.kind,
    text: item.text,
    scope: item.scope,
    sensitivity: item.sensitivity,
    sensitivitySource: item.sensitivitySource,
    importance: item.importance,
    decision: "archive",
    // The model writes the reason, and may quote what a detector missed on the way in: it is
    // stored as a message would be.
    reason: maskSensitiveDataInMessage(req.reason),
    nodeId: null,
    targetNodeId: item.nodeId,
    evidence: { session: req.scopes.session },
  };
}
