/**
 * Reranker over the rerank endpoint hosted bge-reranker services expose (Jina, Cohere-style
 * servers such as Xinference, SiliconFlow, TEI's OpenAI-compatible routes): `POST {baseUrl}/rerank`
 * `{model, query, documents: string[], top_n}` → `{results: [{index, relevance_score}]}`, with
 * `index` the position in `documents`. Every failure — unreachable, a timeout, an HTTP error, a
 * body of another shape — is logged and returned as a value, and the pipeline then keeps its
 * first-stage order (docs/retrieval.md#pipeline).
 */

import type { Logger } from "../../domain/kernel/logger";
import { err, ok, type Result } from "../../domain/kernel/result";
import type { EmbedError, Reranker } from "../../domain/retrieval/ports";

export type OpenAiRerankerOptions = {
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly model: string;
  readonly fetch: typeof fetch;
  readonly logger: Logger;
  /** A rerank sits on a search's path: past this, searching goes on without it. */
  readonly timeoutMs?: number;
};

type RerankBody = { results?: unknown };

export class OpenAiCompatibleReranker implements Reranker {
  readonly #options: OpenAiRerankerOptions;
  readonly #fetch: typeof fetch;

  constructor(options: OpenAiRerankerOptions) {
    this.#options = options;
    // workerd throws "Illegal invocation" when its fetch is called as a method of another object.
    const f = options.fetch;
    this.#fetch = (input, init) => f(input, init);
  }

  async rerank(query: string, texts: readonly string[]): Promise<Result<number[], EmbedError>> {
    if (texts.length === 0) return ok([]);
    const result = await this.#call(query, texts);
    if (!result.ok)
      this.#options.logger.warn("rerank failed; first-stage order kept", {
        kind: result.error.kind,
        reason: result.error.message.slice(0, 200),
        model: this.#options.model,
      });
    return result;
  }

  async #call(query: string, texts: readonly string[]): Promise<Result<number[], EmbedError>> {
    const { baseUrl, apiKey, model, timeoutMs = 5_000 } = this.#options;
    let res: Response;
    try {
      res = await this.#fetch(`${baseUrl.replace(/\/+$/, "")}/rerank`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
        },
        body: JSON.stringify({
          model,
          query,
          documents: texts,
          top_n: texts.length,
          return_documents: false,
        }),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (e) {
      const timedOut = e instanceof Error && (e.name === "TimeoutError" || e.name === "AbortError");
      return err({ kind: "unavailable", message: timedOut ? `no answer within ${timeoutMs} ms` : String(e) });
    }
    if (res.status === 429) return err({ kind: "rate-limited", message: "HTTP 429" });
    if (!res.ok) return err({ kind: "unavailable", message: `HTTP ${res.status}` });
    const body = (await res.json().catch(() => null)) as RerankBody | null;
    return scoresOf(body, texts.length);
  }
}

/** One score per document in input order; a document the answer leaves out scores below all. */
function scoresOf(body: RerankBody | null, n: number): Result<number[], EmbedError> {
  if (!Array.isArray(body?.results) || body.results.length === 0)
    return err({ kind: "bad-response", message: "no results list" });
  const scores = new Array<number>(n).fill(Number.NEGATIVE_INFINITY);
  for (const entry of body.results as { index?: unknown; relevance_score?: unknown }[]) {
    const { index, relevance_score: score } = entry ?? {};
    if (typeof index !== "number" || !Number.isInteger(index) || index < 0 || index >= n)
      return err({ kind: "bad-response", message: `result index ${String(index)} is not a document` });
    if (typeof score !== "number" || !Number.isFinite(score))
      return err({ kind: "bad-response", message: `result ${index} has no relevance_score` });
    scores[index] = score;
  }
  const lowest = Math.min(...scores.filter(Number.isFinite));
  return ok(scores.map((s) => (Number.isFinite(s) ? s : lowest - 1)));
}
