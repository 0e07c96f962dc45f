/**
 * An in-memory Vectorize index that honours the platform contract (docs/storage.md#vectorize):
 * topK ≤ 100 (≤ 20 with values or full metadata), ≤ 1,000 vectors per upsert, ids ≤ 64
 * bytes, fixed dimensions, filters with $eq/$in/$ne/$nin on metadata, and mutations that
 * become visible only later (eventual consistency) — here when `settle()` is called.
 */
type Vector = { id: string; values: number[]; metadata: Record<string, unknown> };
type Filter = Record<string, unknown>;

export class FakeVectorize {
  readonly dims: number;
  readonly #visible = new Map<string, Vector>();
  readonly #pending: (() => void)[] = [];
  queries: { topK: number; filter: Filter | undefined }[] = [];

  constructor(dims: number) {
    this.dims = dims;
  }

  /** Applies every queued mutation, as the real index does a few seconds later. */
  settle(): void {
    for (const apply of this.#pending.splice(0)) apply();
  }

  get size(): number {
    return this.#visible.size;
  }

  has(id: string): boolean {
    return this.#visible.has(id);
  }

  /** Test hook: rewrite a stored vector's metadata (stale or wrong metadata in the index). */
  tamper(id: string, metadata: Record<string, unknown>): void {
    const v = this.#visible.get(id);
    if (v) v.metadata = { ...v.metadata, ...metadata };
  }

  async query(
    vector: number[],
    options: { topK?: number; returnValues?: boolean; returnMetadata?: unknown; filter?: Filter },
  ) {
    const topK = options.topK ?? 5;
    const heavy =
      options.returnValues === true || options.returnMetadata === "all" || options.returnMetadata === true;
    if (topK > (heavy ? 20 : 100)) throw new Error(`VECTOR_QUERY_ERROR: topK ${topK} over the limit`);
    if (vector.length !== this.dims)
      throw new Error(`query vector has ${vector.length} dimensions, index ${this.dims}`);
    if (options.filter && JSON.stringify(options.filter).length >= 2048) throw new Error("filter too large");
    this.queries.push({ topK, filter: options.filter });
    const matches = [...this.#visible.values()]
      .filter((v) => matchesFilter(v.metadata, options.filter))
      .map((v) => ({ id: v.id, score: v.values.reduce((s, x, i) => s + x * (vector[i] ?? 0), 0) }))
      .sort((a, b) => b.score - a.score)
      .slice(0, topK);
    return { matches, count: matches.length };
  }

  async upsert(vectors: { id: string; values: ArrayLike<number>; metadata?: Record<string, unknown> }[]) {
    if (vectors.length > 1000) throw new Error("upsert batch over 1,000 vectors");
    for (const v of vectors) {
      if (new TextEncoder().encode(v.id).byteLength > 64) throw new Error(`vector id over 64 bytes: ${v.id}`);
      if (v.values.length !== this.dims)
        throw new Error(`vector has ${v.values.length} dimensions, index ${this.dims}`);
    }
    const copies = vectors.map((v) => ({
      id: v.id,
      values: Array.from(v.values),
      metadata: { ...(v.metadata ?? {}) },
    }));
    this.#pending.push(() => {
      for (const v of copies) this.#visible.set(v.id, v);
    });
    return { mutationId: crypto.randomUUID() };
  }

  async deleteByIds(ids: string[]) {
    const copy = [...ids];
    this.#pending.push(() => {
      for (const id of copy) this.#visible.delete(id);
    });
    return { mutationId: crypto.randomUUID() };
  }
}

function matchesFilter(metadata: Record<string, unknown>, filter: Filter | undefined): boolean {
  if (!filter) return true;
  return Object.entries(filter).every(([key, cond]) => {
    const value = metadata[key];
    if (cond === null || typeof cond !== "object") return value === cond;
    const c = cond as Record<string, unknown>;
    if ("$eq" in c && value !== c.$eq) return false;
    if ("$ne" in c && value === c.$ne) return false;
    if ("$in" in c && !(c.$in as unknown[]).includes(value)) return false;
    if ("$nin" in c && (c.$nin as unknown[]).includes(value)) return false;
    return true;
  });
}
