/**
 * Ports of the memory store (docs/memory.md#memory-items). `MemoryIndex` is shaped like the retrieval
 * pipeline's KeywordIndex (`search({ text, scopes, limit })` → candidates best first); recall
 * fuses its hits with the pipeline's vector candidates (recall-candidates.ts).
 */
import type { KnowledgeSettings } from "../config/knowledge-settings";
import type { Result } from "../kernel/result";
import type { VectorSearchDeps } from "../retrieval/vector-search";
import type { ReinforceCause } from "./decay";
import type {
  MemoryEvidence,
  MemoryItem,
  MemoryOrigin,
  NewMemory,
  Sensitivity,
  SensitivitySource,
} from "./memory";
import type { ProfileRewrites, ProfileStore } from "./profile-store";
import type { RestatementVectors } from "./restatement-vectors";
import type { ReadableScope, Scope } from "./scope";

/** A full-text hit: the item plus its bm25 rank (lower is better, as FTS5 reports it). */
/** What `MemoryStore.listActive` lists. */
export type ActiveQuery = {
  readonly scopes: readonly ReadableScope[];
  readonly limit: number;
  readonly minImportance?: number;
  readonly kinds?: readonly string[];
  /** Only items whose evidence names one of these accounts (what a person said themselves). */
  readonly authors?: readonly string[];
  /** Closed items too (a person's own list in their private chat, so they can forget them). */
  readonly closed?: boolean;
};

export type MemoryHit = MemoryItem & { readonly rank: number };

export type MemorySearchQuery = {
  readonly text: string;
  /** The turn's readable scopes (hard scope), with their levels. Hits come only from these… */
  readonly scopes: readonly ReadableScope[];
  /** …or, when true (soft scope), also from public items with portable = true of any scope. */
  readonly soft?: boolean;
  readonly limit: number;
  /** At most this many hits per scope, so that a cascade can fill its budget scope by scope. */
  readonly perScope?: number;
  /**
   * Closed items too (status `superseded`), for a question about the past; the same scope and
   * level filter applies. Absent = current items only.
   */
  readonly closed?: boolean;
};

export interface MemoryIndex {
  /**
   * Active memory items matching the text, best bm25 first. Scope, sensitivity and portable
   * filters are applied inside the query, before LIMIT, so filtered items never crowd out
   * visible ones. Returns [] (never throws) for text with nothing searchable.
   */
  search(q: MemorySearchQuery): Promise<MemoryHit[]>;
  /**
   * Memory items by id, whatever their scope or status — the authority a vector candidate is
   * re-checked against. Unknown ids and nodes that are not memory items are absent.
   */
  load(nodeIds: readonly string[]): Promise<MemoryItem[]>;
}

/** One extracted or requested memory and what was decided about it (memory_candidates). */
export type CandidateRecord = {
  readonly runId: string;
  readonly chatKey: string;
  readonly origin: MemoryOrigin;
  readonly kind: string;
  readonly text: string;
  readonly scope: Scope;
  readonly sensitivity: Sensitivity;
  readonly sensitivitySource: SensitivitySource;
  readonly importance: number | null;
  readonly decision: "insert" | "supersede" | "archive" | "duplicate" | "rejected";
  readonly reason: string | null;
  readonly nodeId: string | null;
  readonly targetNodeId: string | null;
  readonly evidence: Readonly<Record<string, unknown>>;
};

export type MemoryUpdate = {
  readonly nodeId: string;
  readonly tag?: { readonly sensitivity: Sensitivity; readonly source: SensitivitySource };
  readonly importance?: number;
  /** A merged restatement (merge.ts): the raised confidence and the joined evidence. */
  readonly confidence?: number;
  readonly evidence?: MemoryEvidence;
};

export type SummaryNode = {
  readonly nodeId: string;
  readonly scope: Scope;
  readonly text: string;
  readonly sensitivity: Sensitivity;
  /** `origin` for a private chat's summary (private whatever it says), else `dream`. */
  readonly sensitivitySource: "dream" | "origin";
  readonly evidence: MemoryEvidence;
};

/**
 * Everything one run (dreaming, an explicit request, a tool call) changes, written at once.
 * Every status change is re-checked against `writable` inside the write itself.
 */
export type MemoryCommit = {
  readonly runId: string;
  readonly chatKey: string;
  readonly at: number;
  /** The only scopes this commit may insert into, and whose items it may archive, supersede or update. */
  readonly writable: readonly Scope[];
  readonly inserts: readonly NewMemory[];
  /**
   * Items closed by a newer statement of their subject: `validTo` is when the new one became
   * true (absent = the commit's time). The old item keeps its text and sensitivity.
   */
  readonly supersede: readonly {
    readonly oldId: string;
    readonly newId: string;
    readonly validTo?: number;
  }[];
  readonly archive: readonly string[];
  /**
   * Items their person asked to forget (`/forget`): deleted with their edges and every candidate
   * row that holds a copy of their text, and erased from the full-text index's pages
   * (docs/decisions/0940-a-persons-forget-erases.md). Active or superseded items of writable
   * scopes only, as for `archive`.
   */
  readonly erase?: readonly string[];
  /** Changes to existing items: a stricter or explicit tag, a higher importance, a merge. */
  readonly updates: readonly MemoryUpdate[];
  readonly candidates: readonly CandidateRecord[];
  /**
   * Items this commit's writes said again (a restatement merged into them): reinforced in the
   * same batch, once per run id (docs/memory.md#decay-and-reinforcement). Only items of
   * `writable` scopes.
   */
  readonly restated?: readonly string[];
  readonly summary?: SummaryNode | null;
  /** Recorded once: committing a run id that was already committed changes nothing. */
  readonly run?: { readonly kind: "dream"; readonly turns: number } | null;
};

export type CommitReport = {
  readonly inserted: number;
  readonly superseded: number;
  readonly archived: number;
  readonly erased: number;
  readonly updated: number;
};

export interface MemoryStore {
  /** Active items these scopes allow (scope and level), most important (then newest) first. */
  listActive(q: ActiveQuery): Promise<MemoryItem[]>;
  /**
   * Reinforces active items (docs/memory.md#decay-and-reinforcement): their age counts again from
   * `at`. A cause's key reinforces an item once, however often it is repeated. Changes ranking
   * only, never who may read the item. Returns how many items it reinforced.
   */
  reinforce(nodeIds: readonly string[], cause: ReinforceCause, at: number): Promise<number>;
  /** One item by id, whatever its scope or status; null when unknown. */
  get(nodeId: string): Promise<MemoryItem | null>;
  /**
   * The active item of `scope` whose normalized text equals that of `text`, if any, among the
   * items of the `levels` the writer may read there: an item the writer may not see is never a
   * duplicate, so no answer tells them it exists (docs/invariants.md#nothing-said-in-a-shared-chat-reveals-private-material).
   */
  findDuplicate(scope: Scope, text: string, levels: readonly Sensitivity[]): Promise<MemoryItem | null>;
  /** Active items of `scope` at `levels` stating the same subject (`subjectKey`), newest first. */
  findBySubject(scope: Scope, subjectKey: string, levels: readonly Sensitivity[]): Promise<MemoryItem[]>;
  /** The newest conversation summary of a scope, among those of the `levels` the reader may see. */
  latestSummary(
    scope: Scope,
    levels: readonly Sensitivity[],
  ): Promise<{ nodeId: string; text: string; createdAt: number; sensitivity: Sensitivity } | null>;
  /**
   * Writes a commit atomically (all or nothing). A commit whose `run` id was already
   * recorded writes nothing and returns `already-applied`; inserts of existing node ids are
   * ignored, so a retried commit never duplicates items.
   */
  commit(c: MemoryCommit): Promise<Result<CommitReport, { kind: "already-applied"; runId: string }>>;
}

/** Chats an admin linked into the same cluster as a chat (docs/memory.md#clusters). */
export interface ChatLinks {
  linkedChats(chatKey: string): Promise<readonly string[]>;
}

/** Until clusters exist every chat is its own cluster. */
export const noChatLinks: ChatLinks = {
  async linkedChats() {
    return [];
  },
};

export type MemoryServices = {
  readonly store: MemoryStore;
  readonly index: MemoryIndex;
  readonly links: ChatLinks;
  /** Person profiles, served only while built from the current items (person-profile.ts). */
  readonly profiles: ProfileStore;
  /** Profiles a turn read in the items' own words, waiting for the chat model (profile-rewrite.ts); absent without one. */
  readonly rewrites?: ProfileRewrites;
  /**
   * The retrieval pipeline's vector ports for the embedding model these settings read
   * (`knowledge.embeddings.read`); absent = memory recall runs on FTS alone.
   */
  readonly vectors?: (settings: KnowledgeSettings) => VectorSearchDeps;
  /**
   * The read model's vectors for judging restatements on write (restatement-vectors.ts), or null
   * when the settings give it no measured threshold; absent = words alone.
   */
  readonly restatements?: (settings: KnowledgeSettings) => RestatementVectors | null;
};
