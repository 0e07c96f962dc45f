/**
 * MemoryStore + MemoryIndex over an array, with the same visibility rules as the D1 adapter
 * (scope and sensitivity-level filter; inserts only into writable scopes; soft scope: own scopes or public and portable; filters before the limit).
 * Ranking is token overlap, enough for domain tests; the D1 tests cover bm25.
 */

import { err, ok, type Result } from "../../src/domain/kernel/result";
import { NO_DECAY, type ReinforceCause } from "../../src/domain/memory/decay";
import type { MemoryItem, NewMemory, Sensitivity } from "../../src/domain/memory/memory";
import { memoryNodeId, normalizeMemoryText } from "../../src/domain/memory/memory";
import type {
  CandidateRecord,
  CommitReport,
  MemoryCommit,
  MemoryHit,
  MemoryIndex,
  MemorySearchQuery,
  MemoryServices,
  MemoryStore,
} from "../../src/domain/memory/memory-store";
import { type ActiveQuery, noChatLinks } from "../../src/domain/memory/memory-store";
import type { ProfileStore } from "../../src/domain/memory/profile-store";
import { includesScope, type Scope, scopeAllows, scopeKey } from "../../src/domain/memory/scope";
import { queryTokens, searchTokens } from "../../src/domain/text/search-tokens";

export class InMemoryMemory implements MemoryStore, MemoryIndex {
  /** Profiles are never kept here: every read builds one from the items, as after any write. */
  readonly profiles: ProfileStore = {
    read: async () => ({ version: 0, text: null, items: 0, builtAt: null, by: null }),
    rewrite: async () => false,
    save: async () => {},
  };
  readonly items: MemoryItem[] = [];
  readonly candidates: CandidateRecord[] = [];
  readonly summaries: {
    nodeId: string;
    scope: Scope;
    text: string;
    createdAt: number;
    sensitivity?: Sensitivity;
  }[] = [];
  readonly runs = new Set<string>();
  readonly commits: MemoryCommit[] = [];

  constructor(items: MemoryItem[] = []) {
    this.items.push(...items);
  }

  async search(q: MemorySearchQuery): Promise<MemoryHit[]> {
    const wanted = new Set(queryTokens(q.text, 16));
    if (wanted.size === 0 || q.limit <= 0) return [];
    const hits: MemoryHit[] = [];
    for (const item of this.items) {
      if (item.status !== "active" && !(q.closed === true && item.status === "superseded")) continue;
      const visible =
        scopeAllows(q.scopes, item) || (q.soft === true && item.sensitivity === "public" && item.portable);
      if (!visible) continue;
      const overlap = searchTokens(item.text).filter((t) => wanted.has(t)).length;
      if (overlap > 0) hits.push({ ...item, rank: -overlap });
    }
    hits.sort((a, b) => a.rank - b.rank);
    if (q.perScope === undefined || q.soft) return hits.slice(0, q.limit);
    const perScope = new Map<string, number>();
    return hits
      .filter((h) => {
        const key = scopeKey(h.scope);
        const n = (perScope.get(key) ?? 0) + 1;
        perScope.set(key, n);
        return n <= (q.perScope ?? Number.POSITIVE_INFINITY);
      })
      .slice(0, q.limit);
  }

  /** Same rule as the D1 adapter: active items, once per cause key. */
  async reinforce(nodeIds: readonly string[], cause: ReinforceCause, at: number): Promise<number> {
    const key = `${cause.kind}:${cause.key}`;
    let n = 0;
    for (const [i, item] of this.items.entries()) {
      if (!nodeIds.includes(item.nodeId) || item.status !== "active") continue;
      if (this.reinforcedBy.get(item.nodeId) === key) continue;
      this.reinforcedBy.set(item.nodeId, key);
      const d = item.decay ?? NO_DECAY;
      this.items[i] = {
        ...item,
        decay: {
          ...d,
          reinforcedAt: Math.max(d.reinforcedAt ?? 0, at),
          reinforceCount: d.reinforceCount + 1,
        },
      };
      n++;
    }
    return n;
  }
  readonly reinforcedBy = new Map<string, string>();

  async load(nodeIds: readonly string[]) {
    return this.items.filter((m) => nodeIds.includes(m.nodeId));
  }

  async listActive(q: ActiveQuery) {
    return this.items
      .filter(
        (m) =>
          (m.status === "active" || (q.closed === true && m.status === "superseded")) &&
          scopeAllows(q.scopes, m) &&
          m.importance >= (q.minImportance ?? 0) &&
          (!q.kinds || q.kinds.includes(m.kind)) &&
          (!q.authors || q.authors.includes(m.evidence?.account ?? "")),
      )
      .sort((a, b) => b.importance - a.importance || b.updatedAt - a.updatedAt)
      .slice(0, q.limit);
  }

  async get(nodeId: string) {
    return this.items.find((m) => m.nodeId === nodeId) ?? null;
  }

  async findDuplicate(scope: Scope, text: string, levels: readonly Sensitivity[]) {
    const norm = normalizeMemoryText(text);
    return (
      this.items.find(
        (m) =>
          m.status === "active" &&
          scopeKey(m.scope) === scopeKey(scope) &&
          levels.includes(m.sensitivity) &&
          normalizeMemoryText(m.text) === norm,
      ) ?? null
    );
  }

  async findBySubject(scope: Scope, subjectKey: string, levels: readonly Sensitivity[]) {
    return this.items.filter(
      (m) =>
        m.status === "active" &&
        scopeKey(m.scope) === scopeKey(scope) &&
        levels.includes(m.sensitivity) &&
        m.subjectKey === subjectKey,
    );
  }

  async latestSummary(scope: Scope, levels: readonly Sensitivity[]) {
    const mine = this.summaries.filter(
      (s) => scopeKey(s.scope) === scopeKey(scope) && levels.includes(s.sensitivity ?? "public"),
    );
    const latest = mine.sort((a, b) => b.createdAt - a.createdAt)[0];
    return latest ? { ...latest, sensitivity: latest.sensitivity ?? "public" } : null;
  }

  async commit(c: MemoryCommit): Promise<Result<CommitReport, { kind: "already-applied"; runId: string }>> {
    if (c.run && this.runs.has(c.runId)) return err({ kind: "already-applied", runId: c.runId });
    if (c.run) this.runs.add(c.runId);
    this.commits.push(c);
    const restated = this.items.filter(
      (m) => c.restated?.includes(m.nodeId) && includesScope(c.writable, m.scope),
    );
    await this.reinforce(
      restated.map((m) => m.nodeId),
      { kind: "restated", key: c.runId },
      c.at,
    );
    let inserted = 0;
    for (const n of c.inserts) {
      if (!includesScope(c.writable, n.scope)) continue;
      if (this.items.some((m) => m.nodeId === n.nodeId)) continue;
      this.items.push(stored(n, c.at));
      inserted++;
    }
    const change = (id: string, status: MemoryItem["status"]) => {
      const i = this.items.findIndex(
        (m) =>
          m.nodeId === id &&
          (m.status === "active" || (status === "archived" && m.status === "superseded")) &&
          includesScope(c.writable, m.scope),
      );
      const item = this.items[i];
      if (!item) return 0;
      this.items[i] = { ...item, status, updatedAt: c.at };
      return 1;
    };
    let superseded = 0;
    for (const s of c.supersede) {
      const closed = change(s.oldId, "superseded");
      superseded += closed;
      const i = this.items.findIndex((m) => m.nodeId === s.oldId);
      const item = this.items[i];
      if (closed && item) {
        const from = item.validFrom ?? item.createdAt;
        this.items[i] = { ...item, validTo: Math.max(from, s.validTo ?? c.at), closedBy: s.newId };
      }
    }
    let archived = 0;
    for (const id of c.archive) archived += change(id, "archived");
    const erased = this.#erase(c);
    let updated = 0;
    for (const u of c.updates) {
      const i = this.items.findIndex(
        (m) => m.nodeId === u.nodeId && m.status === "active" && includesScope(c.writable, m.scope),
      );
      const item = this.items[i];
      if (!item) continue;
      this.items[i] = {
        ...item,
        ...(u.tag ? { sensitivity: u.tag.sensitivity, sensitivitySource: u.tag.source } : {}),
        ...(u.importance !== undefined ? { importance: u.importance } : {}),
        ...(u.confidence !== undefined ? { confidence: u.confidence } : {}),
        ...(u.evidence ? { evidence: u.evidence } : {}),
        updatedAt: c.at,
      };
      updated++;
    }
    if (c.summary)
      this.summaries.push({
        nodeId: c.summary.nodeId,
        scope: c.summary.scope,
        text: c.summary.text,
        createdAt: c.at,
        sensitivity: c.summary.sensitivity,
      });
    this.candidates.push(...c.candidates);
    return ok({ inserted, superseded, archived, erased, updated });
  }

  /** A person's forget: the item and every candidate that copies its text, as D1 deletes them. */
  #erase(c: MemoryCommit): number {
    const gone = (c.erase ?? []).filter((id) =>
      this.items.some(
        (m) =>
          m.nodeId === id &&
          (m.status === "active" || m.status === "superseded") &&
          includesScope(c.writable, m.scope),
      ),
    );
    const copies = (r: CandidateRecord) =>
      gone.includes(r.nodeId ?? "") || gone.includes(r.targetNodeId ?? "");
    this.items.splice(0, this.items.length, ...this.items.filter((m) => !gone.includes(m.nodeId)));
    this.candidates.splice(0, this.candidates.length, ...this.candidates.filter((r) => !copies(r)));
    return gone.length;
  }

  services(): MemoryServices {
    return { store: this, index: this, links: noChatLinks, profiles: this.profiles };
  }
}

export function stored(n: NewMemory, at: number): MemoryItem {
  return {
    ...n,
    status: "active",
    createdAt: at,
    updatedAt: at,
    validFrom: n.validFrom ?? at,
    validTo: null,
    closedBy: null,
  };
}

/** What a test memory is unless the test says otherwise: a public, portable preference. */
export const MEMORY_DEFAULTS = {
  kind: "preference",
  importance: 0.5,
  confidence: 1,
  sensitivity: "public",
  sensitivitySource: "default",
  portable: true,
  subjectKey: null,
  evidence: null,
} as const satisfies Partial<NewMemory>;

/** A memory item for tests; scope given as a key like `chat:qq:group:G1`. */
export function memoryItem(scope: string, text: string, overrides: Partial<MemoryItem> = {}): MemoryItem {
  const at = scope.indexOf(":");
  return {
    nodeId: memoryNodeId(scope, text, String(Math.random())),
    scope: { type: scope.slice(0, at) as Scope["type"], id: scope.slice(at + 1) },
    ...MEMORY_DEFAULTS,
    text,
    status: "active",
    createdAt: 1_700_000_000_000,
    updatedAt: 1_700_000_000_000,
    ...overrides,
  };
}
