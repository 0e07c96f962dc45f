/**
 * The retrieval pipeline's options, one group per stage (docs/retrieval.md#pipeline): what
 * each stage of `retrieve()` reads, named where that stage lives in `stages/`. Knowledge
 * search, history search and memory recall all speak this shape; a profile states only the
 * groups and fields it changes (`withOverrides`), never a field-by-field copy of the rest.
 */
import { SECTION_EVIDENCE_WEIGHT } from "./section-evidence";

/** `stages/candidates.ts`: what the indexes are asked for, and when a set is read whole instead. */
export type CandidateOptions = {
  /** Candidates fetched from the keyword index (FTS5 bm25). */
  readonly keywordWindow: number;
  /**
   * The vector leg (kNN); it runs only when the read model and `fuse.weights.vector` weigh it
   * above 0. A model's query instruction is the model's own (its embedder puts it before queries).
   */
  readonly vector: {
    /** Candidates fetched from the vector index. */
    readonly window: number;
  };
  /** A filter whose whole text fits this many tokens is returned whole (0 = never). */
  readonly readWholeTokens: number;
  /** Above this many units the search first picks parents, then searches inside them (0 = never). */
  readonly twoStageAbove: number;
  /** Parents two-stage search picks. */
  readonly parentWindow: number;
};

/** `stages/fuse.ts` and `stages/hints.ts`: reciprocal rank fusion of the candidate lists. */
export type FuseOptions = {
  readonly rrfK: number;
  /** Weights of the candidate lists; the vector list's is multiplied by the read model's own. */
  readonly weights: { readonly keyword: number; readonly inside: number; readonly vector: number };
  /** The hint list: hits whose source title or heading the query names. */
  readonly hints: {
    readonly weight: number;
    /**
     * How sharply hints are weighed (0 = a plain hint list: every named hit outranks the
     * unnamed). Above 0 a named hit gains weight × strength ^ sharpness, where strength is the
     * larger of the share of the turn the name covers and the name's IDF specificity, halved
     * per earlier turn.
     */
    readonly sharpness: number;
  };
};

/** `stages/field-scores.ts`: the fielded re-scoring that takes the hint list's place. */
export type FieldsOptions = {
  /**
   * Fielded re-scoring (0 = off): the candidates are ranked again by the query's content words,
   * IDF-weighted and halved per earlier turn, found in the heading path (this weight) or the body
   * (BM25-saturated, 1), fused with the index's ranking in place of the hint list.
   */
  readonly headingWeight: number;
  readonly weights: {
    /** The per-passage fielded list. */
    readonly fields: number;
    /** The section list (section-evidence.ts). */
    readonly sections: number;
    /** The document-evidence list (root-evidence.ts; 0 = off). */
    readonly roots: number;
  };
};

/** `stages/coverage.ts` and `stages/relevance-floor.ts`: what a hit must hold of the query. */
export type CoverageOptions = {
  /** Share of the query's tokens a hit must contain (0 = no threshold). */
  readonly min: number;
  /**
   * Relevance floor (0 = off): share of the IDF weight of the identifiers the asking turn names
   * that some candidate must hold; below it nothing is returned. Needs
   * `KeywordIndex.frequencies`; without it the floor is off.
   */
  readonly relevanceFloor: number;
};

/** `stages/rerank.ts`: reranking, memory scoring and diversity. */
export type RerankOptions = {
  /** Rerank with the configured reranker. */
  readonly enabled: boolean;
  /** Candidates the reranker reorders. */
  readonly depth: number;
  /** Weight of the reranker's order against the first-stage order (1). */
  readonly weight: number;
  /** Importance × recency for memory nodes: now, and the half-life of recency in days (null = off). */
  readonly memory: { readonly now?: number; readonly halfLifeDays?: number } | null;
  /** At most this many hits per document/episode (0 = no cap). */
  readonly perRoot: number;
};

/** `stages/expand.ts`: parent and neighbour expansion. */
export type ExpandOptions = {
  /** Neighbours on each side added after each of the first `hits` hits. */
  readonly neighbours: number;
  readonly hits: number;
  /** Neighbours wait until this many hits are placed (0 or 1 = right after their hit). */
  readonly after: number;
  /**
   * A hit whose parent (section or document) holds at most this many tokens of passages is
   * returned as that whole parent — short sections are read whole, not in fragments (0 = never).
   */
  readonly parentTokens: number;
};

/** `stages/pack.ts`: the token budget. */
export type PackOptions = {
  /** Estimated tokens of all returned raw texts. */
  readonly tokenBudget: number;
  /** Keep a share of the budget for each later slot (cutting long items) rather than stopping early. */
  readonly shareBudget: boolean;
};

export type RetrievalOptions = {
  /** Items returned, expansions included. */
  readonly limit: number;
  readonly candidates: CandidateOptions;
  readonly fuse: FuseOptions;
  readonly fields: FieldsOptions;
  readonly coverage: CoverageOptions;
  readonly rerank: RerankOptions;
  readonly expand: ExpandOptions;
  readonly pack: PackOptions;
};

export const DEFAULT_RETRIEVAL_OPTIONS: RetrievalOptions = {
  limit: 8,
  candidates: {
    keywordWindow: 50,
    vector: { window: 50 },
    readWholeTokens: 0,
    twoStageAbove: 20_000,
    parentWindow: 12,
  },
  fuse: { rrfK: 60, weights: { keyword: 1, inside: 1, vector: 1 }, hints: { weight: 1, sharpness: 0 } },
  fields: { headingWeight: 0, weights: { fields: 1, sections: SECTION_EVIDENCE_WEIGHT, roots: 0 } },
  coverage: { min: 0, relevanceFloor: 0 },
  rerank: { enabled: false, depth: 30, weight: 1, memory: null, perRoot: 0 },
  expand: { neighbours: 0, hits: 0, after: 0, parentTokens: 0 },
  pack: { tokenBudget: 2000, shareBudget: false },
};

type DeepPartial<T> = {
  readonly [K in keyof T]?: T[K] extends object | null ? DeepPartial<T[K]> | null : T[K];
};

/** What a profile or an experiment changes: any stage's fields, the rest left as they are. */
export type RetrievalOverrides = DeepPartial<RetrievalOptions>;

const isGroup = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** `base` with each override laid over it, group by group (later overrides win). */
export function withOverrides(base: RetrievalOptions, ...overrides: RetrievalOverrides[]): RetrievalOptions {
  let out: Record<string, unknown> = { ...base };
  for (const o of overrides) out = merged(out, o as Record<string, unknown>);
  return out as RetrievalOptions;
}

function merged(a: Record<string, unknown>, b: Record<string, unknown>): Record<string, unknown> {
  const out = { ...a };
  for (const [k, v] of Object.entries(b)) {
    if (v === undefined) continue;
    const prev = out[k];
    out[k] = isGroup(v) && isGroup(prev) ? merged(prev, v) : v;
  }
  return out;
}

/**
 * Paths of `overrides` that name no option (an experiment's typo, or the flat names of an
 * older shape), so that the caller can refuse them rather than run the defaults unnoticed.
 */
export function unknownOptions(overrides: unknown, shape: unknown = DEFAULT_RETRIEVAL_OPTIONS): string[] {
  if (!isGroup(overrides) || !isGroup(shape)) return [];
  return Object.entries(overrides).flatMap(([k, v]) => {
    if (!(k in shape)) return [k];
    const inner = shape[k] === null ? DEFAULT_MEMORY_SCORING : shape[k];
    return isGroup(inner) ? unknownOptions(v, inner).map((p) => `${k}.${p}`) : [];
  });
}

/** The fields memory scoring takes (null by default, so the defaults cannot show them). */
const DEFAULT_MEMORY_SCORING = { now: 0, halfLifeDays: 0 };
