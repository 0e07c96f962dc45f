/**
 * One retrieval profile of the `knowledge` section (docs/retrieval.md): how many hits, within
 * which budget, ranked and expanded how. `kb_search` and the automatic recall each have one.
 */
import { z } from "zod";

export const RetrievalProfileSchema = z
  .object({
    /** Items returned, neighbour expansion included. */
    limit: z.number().int().min(1).max(50),
    /** Estimated tokens of all returned text. */
    tokenBudget: z.number().int().min(50).max(50_000),
    /** Candidates fetched from each index before fusion. */
    candidates: z.number().int().min(5).max(500),
    /** Share of query tokens a hit must contain (0 = none). */
    minCoverage: z.number().min(0).max(1),
    /**
     * Share of the IDF weight of the identifiers (Latin words of ≥ 3 letters) the asking turn names
     * that some candidate must hold (0 = none): below it, nothing is returned. Judged only when
     * those identifiers carry at least a quarter of the question's weight (FLOOR_NAME_SHARE;
     * docs/decisions/0010-relevance-floor-judges-identifiers.md).
     */
    relevanceFloor: z.number().min(0).max(1),
    /**
     * Hint sharpness (0 = plain hint list): a hit whose title or heading the query names ranks up
     * by (max(share of the turn the name covers, the name's IDF specificity) × ½ per earlier
     * turn) ^ sharpness, so generic headings in long questions or earlier turns barely move.
     * Off by default: docs/decisions/0004-hint-sharpness-off-by-default.md.
     */
    hintSharpness: z.number().min(0).max(8),
    /**
     * Fielded re-scoring: weight of a content word in the heading path against a body match (0 = off;
     * docs/decisions/0009-fielded-ranking-where-documents-have-headings.md).
     */
    headingWeight: z.number().min(0).max(50),
    /**
     * Weight of the document-evidence list in the fielded ranking (a page with several matching
     * sections ranks up; 0 = off). Off by default: it won on the questions it was designed from
     * and lost on a set written apart from them
     * (docs/decisions/0023-document-evidence-off-sections-at-half-weight.md).
     */
    documentEvidence: z.number().min(0).max(4),
    /** Collections whose whole text fits this many tokens are returned whole (0 = never). */
    readWholeTokens: z.number().int().min(0).max(50_000),
    /** Above this many passages, search picks documents/sections first, then passages inside them. */
    twoStageAbove: z.number().int().min(0).max(10_000_000),
    /** Neighbouring passages added on each side of the first `expandHits` hits. */
    neighbours: z.number().int().min(0).max(5),
    expandHits: z.number().int().min(0).max(50),
    /**
     * A hit under a section/document of at most this many tokens returns that whole parent (0 = never;
     * docs/decisions/0001-parent-expansion-returns-short-parents-whole.md).
     */
    parentTokens: z.number().int().min(0).max(20_000),
    /** Hits per document at most (0 = no cap). */
    perRoot: z.number().int().min(0).max(50),
    /** Rerank with the configured reranker (Workers AI only). */
    rerank: z.boolean(),
  })
  .strict();

export type RetrievalProfile = z.infer<typeof RetrievalProfileSchema>;
