/**
 * Explicit memory (`/remember`, "记住…", "remember that …", the `memory_write` tool): written
 * at once, in the scope its kind maps to, deduplicated within that scope, audited like every
 * dreaming candidate. A privacy phrase or the tool's `sensitivity` parameter sets
 * `sensitivity_source = explicit`, which no later dreaming can override.
 */

import type { Logger } from "../kernel/logger";
import { err, ok, type Result } from "../kernel/result";
import { levelsOf } from "../retrieval/read-gate";
import { restatedTargets } from "./decay";
import { slotOf, slotOfNamed, slotSubjectKey } from "./fact-slot";
import {
  clampImportance,
  type MemoryEvidence,
  type MemoryItem,
  type MemoryOrigin,
  memoryNodeId,
  type NewMemory,
  normalizeMemoryText,
  type Sensitivity,
} from "./memory";
import type { CandidateRecord, MemoryStore, MemoryUpdate } from "./memory-store";
import { boosted, type MergeTarget, mergeInto, mergeNote, restatedItem, ScopeItems } from "./merge";
import { learnedInPrivate, originSensitivity, withoutGlobalMarker, withoutShareMarkers } from "./origin";
import { type RestatementVectors, VectorMemo } from "./restatement-vectors";
import { classifyExplicit, type Extracted } from "./rule-extractor";
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
import {
  dreamSensitivity,
  explicitSensitivity,
  neverStored,
  outranks,
  refusalFor,
  type SensitivityTag,
  stripPrivacyPhrases,
} from "./sensitivity";
import type { Speaker } from "./speaker-name";

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
  readonly scopes: ScopeInput;
  readonly speaker: Speaker;
  readonly account: string | null;
  readonly messageId: string | null;
  /** Inbound event (plus tool call) this write belongs to: a retried turn writes the same ids. */
  readonly runId: string;
  readonly chatKey: string;
  readonly now: number;
};

export type Remembered = {
  /** `merge`: it restated an item of its scope, which took it in (merge.ts); `item` is that item. */
  readonly decision: "insert" | "supersede" | "duplicate" | "merge";
  readonly item: Pick<MemoryItem, "nodeId" | "kind" | "text" | "scope" | "sensitivity" | "sensitivitySource">;
};

export type RememberError =
  | { readonly kind: "invalid"; readonly field: string; readonly reason: string }
  | { readonly kind: "credential"; readonly reason: string }
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
 * What the request asks to remember, before any scope is chosen: refused when empty, too long,
 * a credential, or holding no statement; with its tag (origin.ts): in a shared chat the person's
 * privacy request or the model's argument, else the automatic tagger — a model's "public" never
 * lowers what the tagger noticed; in a private chat at least private, public only by the
 * person's share marker.
 */
function readStatements(req: RememberRequest): Result<{ statements: Extracted[]; tag: Tag }, RememberError> {
  const raw = req.text.trim();
  if (raw === "") return err({ kind: "invalid", field: "text", reason: "is empty" });
  if ([...raw].length > 500)
    return err({ kind: "invalid", field: "text", reason: "is longer than 500 characters" });
  if (neverStored(raw)) {
    return err({ kind: "credential", reason: refusalFor(raw) });
  }
  const privateChat = learnedInPrivate(req.scopes.session);
  const automatic = dreamSensitivity(raw, { privateChat });
  // A privacy phrase is the person's own word. The model's `sensitivity` counts as explicit
  // too, but a model-supplied "public" cannot lower what the automatic tagger noticed.
  const explicit =
    explicitSensitivity(raw) ??
    (req.sensitivity === "public" && automatic !== "public" ? null : (req.sensitivity ?? null));
  const tag = originSensitivity({
    session: req.scopes.session,
    explicit,
    automatic: [automatic],
    shared: req.shared === true,
  });
  // The person's own markers are instructions, not what to remember.
  const said = req.origin === "explicit" ? withoutGlobalMarker(withoutShareMarkers(raw)) : raw;
  const statements: Extracted[] = req.kind
    ? [{ kind: req.kind, text: stripPrivacyPhrases(said) || said, importance: 0.6, subjectKey: null }].map(
        (st) => ({ ...st, subjectKey: slotKeyOf(st.text, req.speaker) }),
      )
    : classifyExplicit(said, req.speaker);
  if (statements.length === 0)
    return err({ kind: "invalid", field: "text", reason: "has nothing to remember" });
  return ok({ statements, tag });
}

/** The slot subject of a text the model wrote, in the speaker's words or in their name. */
function slotKeyOf(text: string, who: Speaker): string | null {
  const found = slotOf(text, who.name) ?? slotOfNamed(text, who.name);
  return found ? slotSubjectKey(normalizeMemoryText(who.id), found.slot) : null;
}

/** The writes of one remember call, gathered statement by statement and committed at once. */
type WritePlan = {
  readonly out: Remembered[];
  readonly candidates: CandidateRecord[];
  readonly inserts: NewMemory[];
  readonly supersede: { oldId: string; newId: string; validTo?: number }[];
  readonly updates: MemoryUpdate[];
  /** The items of a scope a restatement may merge into, and the ones merged into so far. */
  readonly scopeItems: ScopeItems;
  readonly merged: Map<string, MergeTarget & Remembered["item"]>;
};

type CandidateBase = Omit<CandidateRecord, "decision" | "reason" | "nodeId" | "targetNodeId">;
type Tag = SensitivityTag;

/**
 * One statement, in the scope already chosen for it (`record.scope`): a duplicate of an item
 * this turn may read raises that item's importance (and its tag, when stricter); anything else
 * is inserted, superseding earlier items of the same subject.
 */
async function planStatement(
  store: MemoryStore,
  s: {
    statement: Extracted & { readonly kind: MemoryKind };
    record: CandidateBase & { readonly importance: number };
    tag: Tag;
    readable: ReturnType<typeof turnScopes>["readable"];
    evidence: MemoryEvidence;
    runId: string;
    now: number;
  },
  plan: WritePlan,
): Promise<void> {
  const { statement, record, tag } = s;
  const scope = record.scope;
  // Only items this turn may read count as already known: a write in a group that matches a
  // person's private item is a new write, and answers as one.
  const levels = levelsOf(s.readable, scope);
  const dup = levels.length > 0 ? await store.findDuplicate(scope, statement.text, levels) : null;
  if (dup) {
    const raise = outranks(tag, { sensitivity: dup.sensitivity, source: dup.sensitivitySource });
    // Said again on purpose: a little more important, and the stricter tag if asked for.
    plan.updates.push({
      nodeId: dup.nodeId,
      importance: boosted(Math.max(dup.importance, record.importance)),
      ...(raise ? { tag } : {}),
    });
    plan.candidates.push({
      ...record,
      decision: "duplicate",
      reason: raise ? "already remembered; sensitivity updated" : "already remembered",
      nodeId: null,
      targetNodeId: dup.nodeId,
    });
    plan.out.push({
      decision: "duplicate",
      item: raise ? { ...dup, sensitivity: tag.sensitivity, sensitivitySource: tag.source } : dup,
    });
    return;
  }
  const restated = await restatedItem(plan.scopeItems, { ...statement, scope, levels });
  if (restated) {
    planMerge(restated, { record, tag, evidence: s.evidence }, plan);
    return;
  }
  const nodeId = memoryNodeId(s.runId, scope.type, scope.id, normalizeMemoryText(statement.text));
  const older = statement.subjectKey
    ? (await store.findBySubject(scope, statement.subjectKey, levels)).filter((m) => m.nodeId !== nodeId)
    : [];
  for (const o of older) plan.supersede.push({ oldId: o.nodeId, newId: nodeId, validTo: s.now });
  plan.inserts.push({
    nodeId,
    scope,
    kind: statement.kind,
    text: statement.text,
    importance: record.importance,
    confidence: 1,
    sensitivity: tag.sensitivity,
    sensitivitySource: tag.source,
    portable: true,
    subjectKey: statement.subjectKey,
    evidence: s.evidence,
    validFrom: s.now,
  });
  const decision = older.length > 0 ? "supersede" : "insert";
  plan.candidates.push({
    ...record,
    decision,
    reason: decision === "supersede" ? "newer statement of the same subject" : null,
    nodeId,
    targetNodeId: older[0]?.nodeId ?? null,
  });
  plan.out.push({
    decision,
    item: {
      nodeId,
      kind: statement.kind,
      text: statement.text,
      scope,
      sensitivity: tag.sensitivity,
      sensitivitySource: tag.source,
    },
  });
}

/** A restatement merged into the item it restates: the item keeps its id and text (merge.ts). */
function planMerge(
  restated: NonNullable<Awaited<ReturnType<typeof restatedItem>>>,
  s: { record: CandidateBase & { readonly importance: number }; tag: Tag; evidence: MemoryEvidence },
  plan: WritePlan,
): void {
  const target = plan.merged.get(restated.item.nodeId) ?? restated.item;
  const { update, merged } = mergeInto(target, {
    evidence: s.evidence,
    confidence: 1,
    importance: s.record.importance,
    tag: s.tag,
  });
  plan.merged.set(target.nodeId, { ...target, ...merged });
  const at = plan.updates.findIndex((u) => u.nodeId === target.nodeId);
  if (at >= 0) plan.updates.splice(at, 1);
  plan.updates.push(update);
  const note = mergeNote(target.nodeId, restated.score);
  plan.candidates.push({
    ...s.record,
    decision: "duplicate",
    reason: note.reason,
    nodeId: null,
    targetNodeId: target.nodeId,
    evidence: { ...s.record.evidence, merge: note.merge },
  });
  plan.out.push({
    decision: "merge",
    item: {
      nodeId: target.nodeId,
      kind: target.kind,
      text: target.text,
      scope: target.scope,
      sensitivity: merged.sensitivity,
      sensitivitySource: merged.sensitivitySource,
    },
  });
}

/**
 * memory_forget: archives one item, only if it belongs to a scope this turn may write and is
 * one this turn may read; any other id answers not-found, so the tool cannot be used to probe
 * other chats' memory. A person's group turn writes their person scope but reads only its
 * public items: their private ones are forgotten in their private chat, where the answer that
 * names the item is said to them alone.
 */
export async function forget(
  store: MemoryStore,
  req: { nodeId: string; scopes: ScopeInput; runId: string; chatKey: string; now: number; reason: string },
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
  const report = await store.commit({
    runId: req.runId,
    chatKey: req.chatKey,
    at: req.now,
    writable,
    inserts: [],
    supersede: [],
    archive: [item.nodeId],
    updates: [],
    candidates: [
      {
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
        reason: req.reason,
        nodeId: null,
        targetNodeId: item.nodeId,
        evidence: { session: req.scopes.session },
      },
    ],
  });
  // Archived by someone else in between: the answer must not claim this call did it.
  if (report.ok && report.value.archived === 0)
    return err({ kind: "not-found", what: `memory ${req.nodeId}` });
  return ok(item);
}
