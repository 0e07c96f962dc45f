/**
 * Dreaming (docs/memory.md#dreaming): consolidates one chat's recent turns into long-term memory.
 *
 *   turns → extract (model with JSON schema, or rules offline) → kind → scope
 *         → sensitivity → deduplicate within the target scope → merge a restatement into the
 *         item it restates (merge.ts) → insert / supersede / archive
 *         → one atomic commit with every candidate and its decision (memory_candidates)
 *
 * A run only ever sees, deduplicates against, supersedes or archives items of the scopes its
 * turns may write; another chat's items are invisible to it, so they can neither swallow a
 * new item as a "duplicate" nor be archived by it.
 */

import type { Settings } from "../config/settings";
import type { SenderIdentity } from "../identity/sender-identity";
import type { Logger } from "../kernel/logger";
import { err, ok, type Result } from "../kernel/result";
import type { ChatModel, UsageRecord } from "../model/chat-model";
import { levelsOf } from "../retrieval/read-gate";
import { restatedTargets } from "./decay";
import { slotOfNamed, slotSubjectKey } from "./fact-slot";
import {
  clampImportance,
  type MemoryEvidence,
  type MemoryItem,
  memoryNodeId,
  type NewMemory,
  normalizeMemoryText,
  type Sensitivity,
} from "./memory";
import type { CandidateRecord, MemoryStore, MemoryUpdate, SummaryNode } from "./memory-store";
import { boosted, type MergeTarget, mergeInto, mergeNote, restatedItem, ScopeItems } from "./merge";
import { extractWithModel, type ModelTurn } from "./model-extractor";
import { learnedInPrivate, originSensitivity, shareRequested } from "./origin";
import { findRestatement } from "./restatement";
import { type RestatementVectors, VectorMemo } from "./restatement-vectors";
import { extractStatements } from "./rule-extractor";
import {
  dedupeScopes,
  includesScope,
  resolveScopeFromLaneKey,
  type Scope,
  sameScope,
  scopeForKind,
  turnScopes,
} from "./scope";
import {
  dreamSensitivity,
  explicitSensitivity,
  isBarePrivacyMarker,
  neverStored,
  outranks,
  stricter,
} from "./sensitivity";
import { type Speaker, speakerOf } from "./speaker-name";

export type DreamTurn = {
  readonly seq: number;
  readonly role: "user" | "assistant";
  readonly name: string | null;
  readonly account: string | null;
  readonly messageId: string | null;
  readonly text: string;
  readonly ts: number;
  /** Privacy requested in this turn ("别告诉别人"), recorded when the turn was journaled. */
  readonly explicitSensitivity: Sensitivity | null;
  /** The sender's identity, resolved when the run starts. */
  readonly identity: SenderIdentity | null;
};

export type DreamInput = {
  readonly runId: string;
  /** The chat key (session) whose turns these are. */
  readonly session: string;
  readonly turns: readonly DreamTurn[];
  readonly now: number;
  /** False in offline mode: the rule-based extractor runs instead of the model. */
  readonly useModel: boolean;
};

export type DreamDeps = {
  readonly model: ChatModel;
  readonly store: MemoryStore;
  readonly logger: Logger;
  readonly now: () => number;
  /** Merge restatements into the items they restate (default); false only for a baseline. */
  readonly mergeRestatements?: boolean;
  /** The read model's vectors, when its restatement threshold is measured (restatement-vectors.ts). */
  readonly restatements?: RestatementVectors | null;
};

export type DreamReport = {
  readonly runId: string;
  readonly extractor: "model" | "rules";
  readonly candidates: number;
  readonly inserted: number;
  readonly superseded: number;
  readonly archived: number;
  readonly duplicates: number;
  readonly rejected: number;
  readonly alreadyApplied: boolean;
  readonly usage: UsageRecord | null;
};

export type DreamError = {
  readonly kind: "model" | "malformed";
  readonly reason: string;
  readonly usage: UsageRecord | null;
};

/** Existing items shown to the model (and checked for duplicates and supersedes). */
const EXISTING_LIMIT = 80;

type Candidate = {
  readonly kind: string;
  readonly text: string;
  readonly importance: number;
  readonly turn: number;
  readonly subjectKey: string | null;
  readonly supersedes: string | null;
  readonly hint: Sensitivity | null;
};

export async function dream(input: DreamInput, deps: DreamDeps): Promise<Result<DreamReport, DreamError>> {
  const turns = applyPrivacyMarkers(input.turns);
  const scopeInputs = turns.map((t) => ({ session: input.session, identity: t.identity }));
  const writable = dedupeScopes(scopeInputs.flatMap((s) => turnScopes(s).writable));
  // What the extractor is shown as already known: the writable scopes at the levels this chat
  // may read them (a person's private items never reach a model working on a group's turns).
  const shown = dedupeScopes(scopeInputs.flatMap((s) => turnScopes(s).readable)).filter((r) =>
    includesScope(writable, r),
  );
  const existing = await deps.store.listActive({ scopes: shown, limit: EXISTING_LIMIT });
  const privateChat = learnedInPrivate(input.session);

  // 1. Extract.
  const extracted = await extract(input, turns, existing, deps);
  if (!extracted.ok) return extracted;
  if (extracted.value === null) return ok(emptyReport(input.runId, input.useModel ? "model" : "rules"));
  const { candidates, archiveRequests, summaryText, usage } = extracted.value;

  // 2. Decide, candidate by candidate, then the archive requests.
  const decided = await decideCandidates(input, turns, candidates, existing, privateChat, {
    store: deps.store,
    merge: deps.mergeRestatements !== false,
    vectors: new VectorMemo(deps.restatements ?? null, deps.logger),
  });
  decideArchives(input, archiveRequests, writable, decided);

  // 3. Commit once.
  return ok(await commitRun(input, turns, writable, decided, summaryText, privateChat, usage, deps.store));
}

/** What one run extracted: candidates, the model's archive requests, a summary, its usage. */
type Extraction = {
  readonly candidates: readonly Candidate[];
  readonly archiveRequests: readonly { readonly id: string; readonly reason: string }[];
  readonly summaryText: string | null;
  readonly usage: UsageRecord | null;
};

/** Step 1: the model (JSON schema) or, offline, the rules; null when no turn is extractable. */
async function extract(
  input: DreamInput,
  turns: readonly MarkedTurn[],
  existing: readonly MemoryItem[],
  deps: DreamDeps,
): Promise<Result<Extraction | null, DreamError>> {
  const extractable = turns.map((t, index) => ({ t, index })).filter(({ t }) => t.role === "user" && !t.skip);
  if (extractable.length === 0) return ok(null);
  if (input.useModel) {
    const modelTurns: ModelTurn[] = turns.map((t, index) => ({
      index,
      role: t.role,
      speaker: t.role === "assistant" ? "bot" : speakerOfTurn(t).name,
      text: t.text,
    }));
    const extracted = await extractWithModel(deps.model, modelTurns, existing, {
      chatKey: input.session,
      now: deps.now,
    });
    const usage = extracted.usage;
    if (!extracted.result.ok) {
      deps.logger.warn("dreaming extraction failed; nothing written", {
        run: input.runId,
        kind: extracted.result.error.kind,
        reason: extracted.result.error.reason,
      });
      return err({ ...extracted.result.error, usage });
    }
    const out = extracted.result.value;
    const candidates = out.memories.map((m) => ({
      kind: m.kind,
      text: m.text,
      importance: clampImportance(m.importance, 0.5),
      turn: m.turn,
      // The model's wording names the speaker: its slot closes that person's earlier value.
      subjectKey: slotKeyOfNamed(m.text, turns[m.turn]),
      supersedes: m.supersedes ?? null,
      hint: m.sensitivity ?? null,
    }));
    return ok({ candidates, archiveRequests: out.archive, summaryText: out.summary?.trim() || null, usage });
  }
  const candidates = extractable.flatMap(({ t, index }) =>
    extractStatements(t.text, speakerOfTurn(t)).map((e) => ({
      kind: e.kind,
      text: e.text,
      importance: e.importance,
      turn: index,
      subjectKey: e.subjectKey,
      supersedes: null,
      hint: null,
    })),
  );
  return ok({ candidates, archiveRequests: [], summaryText: null, usage: null });
}

/** Everything the decisions of one run add up to, and the bookkeeping between them. */
type Decisions = {
  readonly records: CandidateRecord[];
  readonly inserts: NewMemory[];
  readonly supersede: { oldId: string; newId: string; validTo?: number }[];
  readonly archive: string[];
  readonly updates: MemoryUpdate[];
  readonly existingById: ReadonlyMap<string, MemoryItem>;
  /** Existing items already superseded or archived by this run. */
  readonly consumed: Set<string>;
  readonly record: (r: Omit<CandidateRecord, "runId" | "chatKey" | "origin">) => void;
};

/** What one run has decided so far that later candidates of the same run must see. */
type RunMemo = {
  /** Scope and normalised text of every candidate inserted: a repeat is a duplicate. */
  readonly acceptedKeys: Set<string>;
  /** Existing items already raised by a repeat: raised once per run. */
  readonly updated: Set<string>;
  /** Items inserted by this run, by scope and subject: a later statement supersedes them too. */
  readonly runSubjects: Map<string, string>;
  /** Restatements merge (false only for a baseline), the items they may merge into, read once. */
  readonly merge: boolean;
  readonly scopeItems: ScopeItems;
  /** Stored items a restatement was merged into, as they read after it. */
  readonly merged: Map<string, MergeTarget>;
};

/** A candidate with its source turn, placed: its tag, its scope and the levels read there. */
type Placed = {
  readonly evidence: MemoryEvidence;
  readonly tag: ReturnType<typeof originSensitivity>;
  readonly scope: Scope;
  readonly levels: readonly Sensitivity[];
  readonly key: string;
  /** When the source turn was said: the event time of what it states. */
  readonly said: number;
};

type CandidateBase = { kind: string; text: string; importance: number; targetNodeId: null };

/** Step 2: kind → scope → sensitivity → duplicate, supersede or insert, for each candidate. */
async function decideCandidates(
  input: DreamInput,
  turns: readonly MarkedTurn[],
  candidates: readonly Candidate[],
  existing: readonly MemoryItem[],
  privateChat: boolean,
  { store, merge, vectors }: { store: MemoryStore; merge: boolean; vectors: VectorMemo },
): Promise<Decisions> {
  const records: CandidateRecord[] = [];
  const d: Decisions = {
    records,
    inserts: [],
    supersede: [],
    archive: [],
    updates: [],
    existingById: new Map(existing.map((m) => [m.nodeId, m])),
    consumed: new Set<string>(),
    record: (r) => {
      records.push({ runId: input.runId, chatKey: input.session, origin: "dream", ...r });
    },
  };
  const run: RunMemo = {
    acceptedKeys: new Set(),
    updated: new Set(),
    runSubjects: new Map(),
    merge,
    scopeItems: new ScopeItems(store, vectors),
    merged: new Map(),
  };
  // One embedding call for the run's statements; never for a text that may not be stored.
  if (merge) await vectors.prepare(candidates.map((c) => c.text).filter((t) => !neverStored(t)));
  for (const [i, c] of candidates.entries()) {
    const source = userTurn(turns, c.turn);
    const base: CandidateBase = { kind: c.kind, text: c.text, importance: c.importance, targetNodeId: null };
    // Checked before anything of the candidate is recorded, whatever turn it cites: a model can
    // reassemble a secret sent in pieces or quote one from the bot's own turn.
    if (!source || neverStored(c.text) || neverStored(source.text)) {
      reject(input, base, source, d);
      continue;
    }
    const placed = place(input, c, source, privateChat);
    if (await duplicate(store, base, placed, run, d)) continue;
    if (run.merge && (await mergeRestatement({ input, candidate: c, base, placed }, run, d))) continue;
    await insert(store, { input, index: i, candidate: c, base, placed }, run, d);
  }
  return d;
}

/** A candidate that holds a credential (withheld whole), or that cites no user turn. */
function reject(input: DreamInput, base: CandidateBase, source: MarkedTurn | null, d: Decisions): void {
  if (neverStored(base.text) || (source && neverStored(source.text))) {
    d.record({
      ...base,
      text: WITHHELD,
      ...unscoped(input.session),
      decision: "rejected",
      reason: "credential",
      nodeId: null,
      evidence: source ? { ...evidenceOf(input, source) } : {},
    });
    return;
  }
  d.record({
    ...base,
    ...unscoped(input.session),
    decision: "rejected",
    reason: "no user turn",
    nodeId: null,
    evidence: {},
  });
}

/** The candidate's tag (its words, its turn's and the model's hint), scope and readable levels. */
function place(input: DreamInput, c: Candidate, source: MarkedTurn, privateChat: boolean): Placed {
  // In a private chat at least private (origin.ts), whatever the turn's words or the model's hint.
  const tag = originSensitivity({
    session: input.session,
    explicit: source.explicitSensitivity ?? explicitSensitivity(source.text),
    automatic: [
      dreamSensitivity(c.text, { privateChat }),
      dreamSensitivity(source.text, { privateChat }),
      c.hint ?? "public",
    ],
    shared: shareRequested(source.text),
  });
  const scopeInput = { session: input.session, identity: source.identity };
  const scope = scopeForKind(c.kind, scopeInput, tag.sensitivity);
  // Only items the source turn may read count as known: never deduplicates against, nor
  // supersedes, an item that turn could not see.
  const levels = levelsOf(turnScopes(scopeInput).readable, scope);
  const key = `${scope.type}:${scope.id}|${normalizeMemoryText(c.text)}`;
  return { evidence: evidenceOf(input, source), tag, scope, levels, key, said: source.ts };
}

const scopedOf = (p: Placed) => ({
  scope: p.scope,
  sensitivity: p.tag.sensitivity,
  sensitivitySource: p.tag.source,
});

/**
 * True, with the duplicate recorded, when this run already inserted the same text in the scope
 * or a readable item holds it; such an item is raised (once per run) either way.
 */
async function duplicate(
  store: MemoryStore,
  base: CandidateBase,
  p: Placed,
  run: RunMemo,
  d: Decisions,
): Promise<boolean> {
  const existingDup =
    run.acceptedKeys.has(p.key) || p.levels.length === 0
      ? null
      : await store.findDuplicate(p.scope, base.text, p.levels);
  const duplicate = run.acceptedKeys.has(p.key) ? "this run" : existingDup?.nodeId;
  if (existingDup && !run.updated.has(existingDup.nodeId)) {
    // Mentioned again: a little more important, and an explicit tag outranks what it had.
    run.updated.add(existingDup.nodeId);
    const raise = outranks(p.tag, {
      sensitivity: existingDup.sensitivity,
      source: existingDup.sensitivitySource,
    });
    d.updates.push({
      nodeId: existingDup.nodeId,
      importance: boosted(existingDup.importance),
      ...(raise ? { tag: p.tag } : {}),
    });
  }
  if (!duplicate) return false;
  d.record({
    ...base,
    ...scopedOf(p),
    decision: "duplicate",
    reason: `same text in scope (${duplicate})`,
    nodeId: null,
    targetNodeId: duplicate === "this run" ? null : duplicate,
    evidence: { ...p.evidence },
  });
  return true;
}

/**
 * True, with the merge recorded, when the candidate restates an item of its scope the source
 * turn may read — stored, or inserted earlier in this run: that item keeps its id and text and
 * takes the candidate's evidence, a higher confidence and the stricter tag (merge.ts).
 */
async function mergeRestatement(
  a: { input: DreamInput; candidate: Candidate; base: CandidateBase; placed: Placed },
  run: RunMemo,
  d: Decisions,
): Promise<boolean> {
  const { candidate: c, placed: p } = a;
  const statement = {
    scope: p.scope,
    kind: c.kind as NewMemory["kind"],
    text: c.text,
    subjectKey: c.subjectKey,
  };
  const incoming = {
    evidence: p.evidence,
    confidence: a.input.useModel ? 0.8 : 0.6,
    importance: c.importance,
    tag: p.tag,
  };
  const pending = d.inserts
    .map((item, index) => ({ item, index }))
    .filter(({ item }) => sameScope(item.scope, p.scope) && p.levels.includes(item.sensitivity));
  const memo = run.scopeItems.vectors;
  const withVector = async <T extends { text: string }>(x: T) => ({ ...x, vector: await memo.of(x.text) });
  const inRun = findRestatement(
    await withVector(statement),
    await Promise.all(pending.map(({ item }) => withVector(item))),
    run.scopeItems.thresholds,
  );
  const stored = inRun
    ? null
    : await restatedItem(run.scopeItems, { ...statement, levels: p.levels }, d.consumed);
  const found = inRun ?? stored;
  if (!found) return false;
  const targetId = found.item.nodeId;
  if (inRun) {
    const index = pending.find(({ item }) => item.nodeId === targetId)?.index ?? -1;
    const target = d.inserts[index];
    if (!target) return false;
    const { merged } = mergeInto(target, incoming);
    d.inserts[index] = { ...target, ...merged, evidence: merged.evidence ?? target.evidence };
  } else if (stored) {
    const { update, merged } = mergeInto(run.merged.get(targetId) ?? stored.item, incoming);
    run.merged.set(targetId, merged);
    run.updated.add(targetId);
    const at = d.updates.findIndex((u) => u.nodeId === targetId);
    if (at >= 0) d.updates.splice(at, 1);
    d.updates.push(update);
  }
  const note = mergeNote(targetId, found.score);
  d.record({
    ...a.base,
    ...scopedOf(p),
    decision: "duplicate",
    reason: note.reason,
    nodeId: null,
    targetNodeId: targetId,
    evidence: { ...p.evidence, merge: note.merge },
  });
  return true;
}

/** A new item, superseding the items of its subject (stored, or inserted earlier in this run). */
async function insert(
  store: MemoryStore,
  a: { input: DreamInput; index: number; candidate: Candidate; base: CandidateBase; placed: Placed },
  run: RunMemo,
  d: Decisions,
): Promise<void> {
  const { input, candidate: c, placed: p } = a;
  const nodeId = memoryNodeId(input.runId, String(a.index), normalizeMemoryText(c.text));
  const replaced = await supersededBy(
    c,
    { scope: p.scope, levels: p.levels },
    d.existingById,
    store,
    d.consumed,
  );
  run.acceptedKeys.add(p.key);
  d.inserts.push({
    nodeId,
    scope: p.scope,
    kind: c.kind as NewMemory["kind"],
    text: c.text,
    importance: c.importance,
    confidence: input.useModel ? 0.8 : 0.6,
    sensitivity: p.tag.sensitivity,
    sensitivitySource: p.tag.source,
    portable: true,
    subjectKey: c.subjectKey,
    evidence: p.evidence,
    // Event time: what the turn said became true when it was said, not when the run wrote it.
    validFrom: p.said,
  });
  const subject = c.subjectKey ? `${p.scope.type}:${p.scope.id}|${c.subjectKey}` : null;
  const earlier = subject ? run.runSubjects.get(subject) : undefined;
  if (earlier) replaced.ids.push(earlier);
  if (subject) run.runSubjects.set(subject, nodeId);
  for (const old of replaced.ids) {
    d.consumed.add(old);
    d.supersede.push({ oldId: old, newId: nodeId, validTo: p.said });
  }
  d.record({
    ...a.base,
    ...scopedOf(p),
    decision: replaced.ids.length > 0 ? "supersede" : "insert",
    reason: replaced.ids.length > 0 || c.supersedes ? replaced.note : null,
    nodeId,
    targetNodeId: replaced.ids[0] ?? null,
    evidence: { ...p.evidence },
  });
}

/** Step 2b: the model's archive requests, honoured only for items of scopes this chat may write. */
function decideArchives(
  input: DreamInput,
  archiveRequests: Extraction["archiveRequests"],
  writable: readonly Scope[],
  d: Decisions,
): void {
  const { existingById, consumed, archive, record } = d;
  for (const request of archiveRequests) {
    const target = existingById.get(request.id);
    // The id and the reason are the model's words, and both are recorded (an unknown id as
    // written): they pass the credential check like a candidate's text.
    const requested = { id: withheld(request.id), reason: withheld(request.reason) };
    if (!target || !includesScope(writable, target.scope) || consumed.has(target.nodeId)) {
      record({
        kind: target?.kind ?? "unknown",
        text: target?.text ?? "",
        importance: null,
        ...unscoped(input.session),
        decision: "rejected",
        reason: `archive of ${requested.id} refused: not an item of a scope this chat may write`,
        nodeId: null,
        targetNodeId: requested.id,
        evidence: { requestedReason: requested.reason },
      });
      continue;
    }
    consumed.add(target.nodeId);
    archive.push(target.nodeId);
    record({
      kind: target.kind,
      text: target.text,
      importance: target.importance,
      scope: target.scope,
      sensitivity: target.sensitivity,
      sensitivitySource: target.sensitivitySource,
      decision: "archive",
      reason: requested.reason || "archived by dreaming",
      nodeId: null,
      targetNodeId: target.nodeId,
      evidence: {},
    });
  }
}

/** Step 3: one atomic commit of everything decided, and the run's report. */
async function commitRun(
  input: DreamInput,
  turns: readonly MarkedTurn[],
  writable: readonly Scope[],
  d: Decisions,
  summaryText: string | null,
  privateChat: boolean,
  usage: UsageRecord | null,
  store: MemoryStore,
): Promise<DreamReport> {
  const { records, inserts, supersede, archive, updates } = d;
  const summary = summaryNode(input, summaryText, privateChat, turns);
  const committed = await store.commit({
    runId: input.runId,
    chatKey: input.session,
    at: input.now,
    writable,
    inserts,
    supersede,
    archive,
    updates,
    candidates: records,
    restated: restatedTargets(records),
    summary,
    run: { kind: "dream", turns: turns.length },
  });
  const count = (d: CandidateRecord["decision"]) => records.filter((r) => r.decision === d).length;
  return {
    runId: input.runId,
    extractor: input.useModel ? "model" : "rules",
    candidates: records.length,
    inserted: committed.ok ? committed.value.inserted : 0,
    superseded: committed.ok ? committed.value.superseded : 0,
    archived: committed.ok ? committed.value.archived : 0,
    duplicates: count("duplicate"),
    rejected: count("rejected"),
    alreadyApplied: !committed.ok,
    usage,
  };
}

type MarkedTurn = DreamTurn & { readonly skip: boolean };

/** The user turn a candidate cites; null for the bot's turn, a skipped marker or no such turn. */
function userTurn(turns: readonly MarkedTurn[], index: number): MarkedTurn | null {
  const t = turns[index];
  return t?.role === "user" && !t.skip ? t : null;
}

/** What the audit trail keeps of a text that held a credential: nothing of the text. */
const WITHHELD = "[credential withheld]";

/** A text the model wrote, as recorded: withheld whole when it holds a credential. */
const withheld = (text: string) => (neverStored(text) ? WITHHELD : text);

/**
 * A bare privacy request ("这个别在别处提") is about the speaker's previous message: that
 * turn takes the requested sensitivity, and the marker itself is not extracted.
 */
export function applyPrivacyMarkers(turns: readonly DreamTurn[]): MarkedTurn[] {
  const out: MarkedTurn[] = turns.map((t) => ({ ...t, skip: false }));
  for (let i = 0; i < out.length; i++) {
    const t = out[i];
    if (t?.role !== "user" || !isBarePrivacyMarker(t.text)) continue;
    const wanted = t.explicitSensitivity ?? explicitSensitivity(t.text);
    out[i] = { ...t, skip: true };
    for (let j = i - 1; j >= 0; j--) {
      const prev = out[j];
      if (prev?.role !== "user" || prev.account !== t.account) continue;
      if (wanted) {
        out[j] = {
          ...prev,
          explicitSensitivity: prev.explicitSensitivity ? stricter(prev.explicitSensitivity, wanted) : wanted,
        };
      }
      break;
    }
  }
  return out;
}

/** Supersede targets: the model's pick, or earlier statements of the same subject — same scope only. */
async function supersededBy(
  c: Candidate,
  { scope, levels }: { scope: Scope; levels: readonly Sensitivity[] },
  existing: ReadonlyMap<string, MemoryItem>,
  store: MemoryStore,
  consumed: ReadonlySet<string>,
): Promise<{ ids: string[]; note: string | null }> {
  if (c.supersedes) {
    const target = existing.get(c.supersedes);
    if (target && sameScope(target.scope, scope) && !consumed.has(target.nodeId)) {
      return { ids: [target.nodeId], note: "supersedes an earlier item" };
    }
    return {
      ids: [],
      note: `supersede target ${withheld(c.supersedes)} is not an item of the target scope; inserted`,
    };
  }
  if (!c.subjectKey) return { ids: [], note: null };
  const same = levels.length > 0 ? await store.findBySubject(scope, c.subjectKey, levels) : [];
  const ids = same
    .filter(
      (m) =>
        sameScope(m.scope, scope) &&
        !consumed.has(m.nodeId) &&
        normalizeMemoryText(m.text) !== normalizeMemoryText(c.text),
    )
    .map((m) => m.nodeId);
  return { ids, note: "newer statement of the same subject" };
}

function summaryNode(
  input: DreamInput,
  text: string | null,
  privateChat: boolean,
  turns: readonly MarkedTurn[],
): SummaryNode | null {
  const scope = resolveScopeFromLaneKey(input.session);
  if (!text || scope.type !== "chat" || neverStored(text)) return null;
  const users = turns.filter((t) => t.role === "user");
  return {
    nodeId: memoryNodeId(input.runId, "summary"),
    scope,
    text,
    ...(privateChat
      ? { sensitivity: "private" as const, sensitivitySource: "origin" as const }
      : { sensitivity: dreamSensitivity(text, { privateChat }), sensitivitySource: "dream" as const }),
    evidence: {
      session: input.session,
      messageIds: users.map((t) => t.messageId).filter((id): id is string => id !== null),
      account: null,
      person: null,
      origin: "dream",
      runId: input.runId,
    },
  };
}

function evidenceOf(input: DreamInput, t: DreamTurn): MemoryEvidence {
  return {
    session: input.session,
    messageIds: t.messageId ? [t.messageId] : [],
    account: t.account,
    person: t.identity?.personId ?? null,
    origin: "dream",
    runId: input.runId,
  };
}

const unscoped = (session: string) => ({
  scope: resolveScopeFromLaneKey(session),
  sensitivity: "public" as const,
  sensitivitySource: "default" as const,
});

/** The subject key of a model-written fact about the speaker of its turn, when it states a slot. */
function slotKeyOfNamed(text: string, t: DreamTurn | undefined): string | null {
  if (t?.role !== "user") return null;
  const who = speakerOfTurn(t);
  const found = slotOfNamed(text, who.name);
  return found ? slotSubjectKey(normalizeMemoryText(who.id), found.slot) : null;
}

const speakerOfTurn = (t: DreamTurn): Speaker =>
  speakerOf({
    displayName: t.name,
    userId: t.account?.split(":").at(-1),
    account: t.account,
    personId: t.identity?.personId,
  });

function emptyReport(runId: string, extractor: "model" | "rules"): DreamReport {
  return {
    runId,
    extractor,
    candidates: 0,
    inserted: 0,
    superseded: 0,
    archived: 0,
    duplicates: 0,
    rejected: 0,
    alreadyApplied: false,
    usage: null,
  };
}

/**
 * When the next run is due: at once when `afterTurns` user turns wait, else after the chat
 * has been idle for `idleMinutes` since the newest waiting turn; failed runs back off
 * exponentially (1 min, 2 min, 4 min, … capped at 6 h). Null when nothing waits.
 */
export function nextDreamAt(
  state: { pending: number; newestTs: number | null; failures: number; lastFailureAt: number | null },
  settings: Settings["memory"]["dreaming"],
  now: number,
): number | null {
  if (!settings.enabled || state.pending === 0 || state.newestTs === null) return null;
  let at = state.pending >= settings.afterTurns ? now : state.newestTs + settings.idleMinutes * 60_000;
  if (state.failures > 0 && state.lastFailureAt !== null) {
    at = Math.max(at, state.lastFailureAt + Math.min(6 * 3_600_000, 60_000 * 2 ** (state.failures - 1)));
  }
  return at;
}
