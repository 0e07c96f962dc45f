/**
 * Memory recall for one turn: the automatic per-turn recall, `memory_search` and the context
 * preview all call this, so they see exactly the same items. Candidates come from full text
 * and, when an embedding model is read, vectors (recall-candidates.ts); hard scope then runs
 * the cascade over the turn's readable scopes, soft scope ranks every visible item of the pool.
 */

import { DEFAULT_CALENDAR_SETTINGS } from "../config/calendar-settings";
import type { MemoryDecaySettings } from "../config/memory-decay-settings";
import { localDay } from "../kernel/local-day";
import { type AsOf, asOfQuestion, asOfWeight } from "./as-of";
import { decayWeight } from "./decay";
import { isClosed, type MemoryItem, validFromOf } from "./memory";
import type { MemoryHit } from "./memory-store";
import { cascade, closedVisible, recallVisible, type ScoredMemory, softRank } from "./ranking";
import { type RecallCandidateDeps, recallCandidates } from "./recall-candidates";
import { type Scope, scopeKey, scopeLabel, type TurnScopes } from "./scope";

/** The memory index, and the pipeline's vector ports when an embedding model is read. */
export type RecallDeps = RecallCandidateDeps;

/** Candidates fetched per scope for each item wanted, so importance × recency can reorder. */
export const OVERFETCH = 3;

export type RecalledMemory = {
  readonly item: MemoryItem;
  readonly score: number;
  readonly scope: string;
  readonly label: string;
  readonly citation: string;
  /** For a closed item, when it was true (local days): said as the past, never as current. */
  readonly past: { readonly from: string; readonly to: string } | null;
};

export type RecallRequest = {
  readonly text: string;
  readonly scopes: TurnScopes;
  readonly soft: boolean;
  readonly limit: number;
  readonly now: number;
  readonly halfLifeDays: number;
  /** How the question places itself in time; absent = read from its words (as-of.ts). */
  readonly asOf?: AsOf;
  /** `calendar.timeZone`: the periods a question names, the days a past item is shown with. */
  readonly timeZone?: string;
  /** `memory.decay`: each item's age weight (decay.ts); absent = no decay. */
  readonly decay?: MemoryDecaySettings;
};

export async function recallMemory(deps: RecallDeps, req: RecallRequest): Promise<RecalledMemory[]> {
  if (req.limit <= 0 || req.text.trim() === "") return [];
  const readable = req.scopes.readable;
  const perScope = req.limit * OVERFETCH;
  const timeZone = req.timeZone ?? DEFAULT_CALENDAR_SETTINGS.timeZone;
  const asOf = req.asOf ?? asOfQuestion(req.text, { now: req.now, timeZone });
  const candidates = await recallCandidates(deps, {
    text: req.text,
    scopes: readable,
    soft: req.soft,
    limit: req.soft ? perScope * 2 : perScope * readable.length,
    perScope: req.soft ? perScope * 2 : perScope,
    ...(asOf.past ? { closed: true } : {}),
  });
  const loaded = await withClosers(deps, candidates.hits, asOf);
  const { hits, closers } = shadowOlder(loaded.hits, loaded.closers, asOf);
  const { decay } = req;
  const weigh = (item: MemoryItem) =>
    asOfWeight(item, asOf) * (decay ? decayWeight(item, req.now, decay) : 1);
  const ranked = req.soft
    ? softRank(hits, readable, req.limit, req.now, req.halfLifeDays, weigh)
    : cascade(hits, readable, req.limit, req.now, req.halfLifeDays, weigh);
  // Final check before anything reaches a prompt: a current item the turn may read, or for a
  // question about the past a closed one whose closer it may read too.
  return ranked
    .filter((r) =>
      isClosed(r.item)
        ? asOf.past && closedVisible(r.item, closers.get(r.item.closedBy ?? ""), readable, req.soft)
        : recallVisible(r.item, readable, req.soft),
    )
    .map((r) => describeRecalled(r, req.scopes.session, timeZone));
}

/**
 * The closed hits of a question about the past, with the items that closed them (loaded by id;
 * `closedVisible` gates both). A closed hit whose closer cannot be loaded is dropped here.
 */
async function withClosers(
  deps: RecallDeps,
  hits: readonly MemoryHit[],
  asOf: AsOf,
): Promise<{ hits: MemoryHit[]; closers: Map<string, MemoryItem> }> {
  const closedBy = [...new Set(hits.filter(isClosed).map((h) => h.closedBy ?? ""))].filter(Boolean);
  if (!asOf.past || closedBy.length === 0)
    return { hits: hits.filter((h) => !isClosed(h)), closers: new Map() };
  const closers = new Map((await deps.index.load(closedBy)).map((m) => [m.nodeId, m] as const));
  return { hits: hits.filter((h) => !isClosed(h) || closers.has(h.closedBy ?? "")), closers };
}

/**
 * Two current items of one scope and subject, both visible here, that no write closed — the newer
 * was said where the older could not be seen (a group cannot see a person's private value, so its
 * statement cannot close it): the newer is current, the older is read as closed by it. Only items
 * this reader already sees take part, so the answer tells it nothing it could not read.
 */
function shadowOlder(
  hits: readonly MemoryHit[],
  closers: Map<string, MemoryItem>,
  asOf: AsOf,
): { hits: MemoryHit[]; closers: Map<string, MemoryItem> } {
  const newest = new Map<string, MemoryHit>();
  const subjectOf = (h: MemoryHit) => (h.subjectKey ? `${scopeKey(h.scope)}|${h.subjectKey}` : null);
  for (const h of hits) {
    const key = subjectOf(h);
    const seen = key ? newest.get(key) : undefined;
    if (key && !isClosed(h) && (!seen || validFromOf(h) > validFromOf(seen))) newest.set(key, h);
  }
  const out: MemoryHit[] = [];
  for (const h of hits) {
    const winner = newest.get(subjectOf(h) ?? "");
    if (isClosed(h) || !winner || winner.nodeId === h.nodeId) {
      out.push(h);
    } else if (asOf.past) {
      out.push({ ...h, status: "superseded", validTo: validFromOf(winner), closedBy: winner.nodeId });
      closers.set(winner.nodeId, winner);
    }
  }
  return { hits: out, closers };
}

const UTC = "UTC";

export function describeRecalled(r: ScoredMemory, session: Scope, timeZone = UTC): RecalledMemory {
  const label = scopeLabel(r.item.scope, session);
  // The local day, the day "昨天" means (docs/decisions/0270-one-clock.md).
  const date = localDay(r.item.updatedAt, timeZone);
  const closed = isClosed(r.item);
  return {
    item: r.item,
    score: r.score,
    scope: scopeKey(r.item.scope),
    label,
    citation: `记忆·${label}·${date} #${r.item.nodeId}`,
    past: closed
      ? {
          from: localDay(validFromOf(r.item), timeZone),
          to: localDay(r.item.validTo ?? r.item.updatedAt, timeZone),
        }
      : null,
  };
}

/** A recalled item's text as a prompt or a tool shows it: a closed one marked as the past. */
export function recalledText(r: Pick<RecalledMemory, "item" | "past">): string {
  return r.past ? `（过去：${r.past.from} 至 ${r.past.to}）${r.item.text}` : r.item.text;
}
