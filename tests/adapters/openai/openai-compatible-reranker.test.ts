/**
 * The OpenAI-compatible rerank provider against a stand-in endpoint that honours the documented
 * shape (`POST /rerank {model, query, documents, top_n}` → `{results: [{index,
 * relevance_score}]}`, best first): scores come back in input order; every failure (HTTP errors,
 * 429, a body of another shape, an unreachable host, no answer in time) is a logged value.
 */

import { OpenAiCompatibleReranker } from "@src/adapters/openai/openai-compatible-reranker";
import type { LogFields, Logger } from "@src/domain/kernel/logger";
import { describe, it } from "vitest";

type Sent = { url: string; auth: string | null; body: Record<string, unknown> };

/** Scores a document by how many of the query's characters it holds; answers best first. */
function honouring(sent: Sent[]): typeof fetch {
  return (async (input: RequestInfo | URL, init?: RequestInit) => {
    const body = JSON.parse(String(init?.body)) as { query: string; documents: string[]; top_n?: number };
    sent.push({ url: String(input), auth: new Headers(init?.headers).get("authorization"), body });
    const results = body.documents
      .map((d, index) => ({
        index,
        relevance_score: [...body.query].filter((ch) => d.includes(ch)).length / 10,
      }))
      .sort((a, b) => b.relevance_score - a.relevance_score)
      .slice(0, body.top_n ?? body.documents.length);
    return Response.json({ id: "r1", results, usage: { total_tokens: 10 } });
  }) as typeof fetch;
}

function recordingLogger() {
  const warnings: { msg: string; fields?: LogFields }[] = [];
  const logger: Logger = { info() {}, error() {}, warn: (msg, fields) => warnings.push({ msg, fields }) };
  return { logger, warnings };
}

const make = (f: typeof fetch, logger: Logger, timeoutMs?: number) =>
  new OpenAiCompatibleReranker({
    baseUrl: "https://rerank.test/v1/",
    apiKey: "sk-test",
    model: "BAAI/bge-reranker-v2-m3",
    fetch: f,
    logger,
    ...(timeoutMs ? { timeoutMs } : {}),
  });

describe("OpenAI-compatible reranker", () => {
  it("sends the documented request and returns scores in input order", async ({ expect }) => {
    const sent: Sent[] = [];
    const { logger, warnings } = recordingLogger();
    const result = await make(honouring(sent), logger).rerank("组件状态", ["天气", "组件的状态", "状态"]);
    expect(result).toEqual({ ok: true, value: [0, 0.4, 0.2] });
    expect(sent).toEqual([
      {
        url: "https://rerank.test/v1/rerank",
        auth: "Bearer sk-test",
        body: {
          model: "BAAI/bge-reranker-v2-m3",
          query: "组件状态",
          documents: ["天气", "组件的状态", "状态"],
          top_n: 3,
          return_documents: false,
        },
      },
    ]);
    expect(warnings).toEqual([]);
    expect(await make(honouring(sent), logger).rerank("q", [])).toEqual({ ok: true, value: [] });
    expect(sent).toHaveLength(1);
  });

  it("ranks a document the answer leaves out below every scored one", async ({ expect }) => {
    const partial = (async () =>
      Response.json({
        results: [
          { index: 1, relevance_score: 0.9 },
          { index: 0, relevance_score: -2 },
        ],
      })) as typeof fetch;
    const result = await make(partial, recordingLogger().logger).rerank("q", ["a", "b", "c"]);
    expect(result).toEqual({ ok: true, value: [-2, 0.9, -3] });
  });

  it("turns every failure into a logged value", async ({ expect }) => {
    const answers: [string, () => Promise<Response>, string, RegExp][] = [
      ["server error", async () => new Response("{}", { status: 500 }), "unavailable", /HTTP 500/],
      ["rate limit", async () => new Response("{}", { status: 429 }), "rate-limited", /429/],
      ["not JSON", async () => new Response("<html>", { status: 200 }), "bad-response", /no results/],
      ["empty", async () => Response.json({ results: [] }), "bad-response", /no results/],
      [
        "index out of range",
        async () => Response.json({ results: [{ index: 7, relevance_score: 1 }] }),
        "bad-response",
        /index 7/,
      ],
      ["no score", async () => Response.json({ results: [{ index: 0 }] }), "bad-response", /relevance_score/],
      [
        "unreachable",
        async () => {
          throw new TypeError("fetch failed");
        },
        "unavailable",
        /fetch failed/,
      ],
    ];
    for (const [what, answer, kind, message] of answers) {
      const { logger, warnings } = recordingLogger();
      const result = await make(answer as unknown as typeof fetch, logger).rerank("q", ["a", "b"]);
      expect(result.ok, what).toBe(false);
      if (!result.ok) {
        expect(result.error.kind, what).toBe(kind);
        expect(result.error.message, what).toMatch(message);
      }
      expect(warnings, what).toEqual([
        {
          msg: "rerank failed; first-stage order kept",
          fields: { kind, reason: expect.any(String), model: "BAAI/bge-reranker-v2-m3" },
        },
      ]);
    }
  });

  it("gives up after its timeout", async ({ expect }) => {
    const silent = ((_: RequestInfo | URL, init?: RequestInit) =>
      new Promise<Response>((_resolve, reject) => {
        init?.signal?.addEventListener("abort", () => reject(init.signal?.reason));
      })) as typeof fetch;
    const { logger, warnings } = recordingLogger();
    const result = await make(silent, logger, 150).rerank("q", ["a"]);
    expect(result).toEqual({ ok: false, error: { kind: "unavailable", message: "no answer within 150 ms" } });
    expect(warnings).toHaveLength(1);
  });
});
