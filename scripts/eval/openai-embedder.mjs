// An OpenAI-compatible embeddings endpoint (`POST <base url>/embeddings`, body {model, input},
// answer {data: [{index, embedding}]}) as the eval's embedder, in place of the local model: how an
// owner measures the model the Worker reads with (Workers AI's bge-m3 through
// https://api.cloudflare.com/client/v4/accounts/<ACCOUNT_ID>/ai/v1, or any other) on the same
// labelled pairs. Texts go as they are, as the Worker embeds documents (no query prefix); the
// key is the Worker's own secret name, EMBEDDING_API_KEY, read from the environment and never
// printed.

/** A refusal or a malformed answer of the endpoint, said plainly (the key never in it). */
export class EndpointError extends Error {}

/** Texts per call: well under Workers AI's 100 and most providers' limits. */
export const ENDPOINT_BATCH = 32;

function l2(vector) {
  let n = 0;
  for (const x of vector) n += x * x;
  n = Math.sqrt(n) || 1;
  return vector.map((x) => x / n);
}

/** What the endpoint said about a refusal: OpenAI's {error: {message}}, Cloudflare's {errors: [{message}]}, or its text. */
function endpointMessage(text) {
  try {
    const body = JSON.parse(text);
    const said =
      body?.error?.message ??
      (typeof body?.error === "string" ? body.error : null) ??
      body?.errors
        ?.map((e) => e?.message)
        .filter(Boolean)
        .join("; ") ??
      body?.message;
    if (typeof said === "string" && said) return said;
  } catch {
    // not JSON: the text itself
  }
  return text.trim().slice(0, 300) || "(空回答 / empty body)";
}

/**
 * `{name, dims, embed(texts) → {vectors}, close()}`, as loadEmbedder (scripts/model/embedder.mjs)
 * gives the local model. `dims`: the length every vector must have (the settings' `dims`); unset,
 * every vector must have the length of the first. Throws on a refusal, naming the endpoint, the
 * HTTP status and what the endpoint said, never the key.
 */
export function openAiEmbedder({ baseUrl, model, dims = null, apiKey = "", batch = ENDPOINT_BATCH, fetch }) {
  const url = `${baseUrl.replace(/\/+$/, "")}/embeddings`;
  const hide = (text) => (apiKey ? text.split(apiKey).join("***") : text);
  let length = dims;

  async function call(input) {
    let res;
    try {
      res = await fetch(url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
        },
        body: JSON.stringify({ model, input }),
        signal: AbortSignal.timeout(120_000),
      });
    } catch (e) {
      throw new EndpointError(
        hide(`无法连接嵌入接口 ${url}：${e.cause?.message ?? e.message} (cannot reach ${url})`),
      );
    }
    const text = await res.text();
    if (!res.ok)
      throw new EndpointError(
        hide(
          `嵌入接口 ${url} 回答 HTTP ${res.status}：${endpointMessage(text)} (the endpoint refused: HTTP ${res.status})`,
        ),
      );
    let data;
    try {
      data = JSON.parse(text).data;
    } catch {
      data = null;
    }
    if (!Array.isArray(data) || data.length !== input.length)
      throw new EndpointError(
        hide(`嵌入接口 ${url} 的回答不是 ${input.length} 个向量 (expected {data: [{index, embedding}]})`),
      );
    return [...data].sort((a, b) => (a.index ?? 0) - (b.index ?? 0)).map((d) => checked(d.embedding));
  }

  function checked(embedding) {
    if (!Array.isArray(embedding) || embedding.length === 0)
      throw new EndpointError(hide(`嵌入接口 ${url} 的回答缺少 embedding (no embedding in the answer)`));
    length ??= embedding.length;
    if (embedding.length !== length)
      throw new EndpointError(
        hide(`嵌入接口 ${url} 返回 ${embedding.length} 维，应为 ${length} (dimensions differ)`),
      );
    return l2(embedding);
  }

  return {
    name: model,
    get dims() {
      return length;
    },
    async embed(texts) {
      const vectors = [];
      for (let i = 0; i < texts.length; i += batch) vectors.push(...(await call(texts.slice(i, i + batch))));
      return { vectors };
    },
    close: async () => {},
  };
}
