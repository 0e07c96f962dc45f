// The embedding service as a child of a local run (`npm start`, the eval, the bench): started
// only when the model is in the cache and verified, tied to its parent's life by a stdin pipe,
// and described to the Worker as one more embeddings model in its settings.
import { spawn } from "node:child_process";
import path from "node:path";
import { modelDir, verifiedModel } from "./cache.mjs";
import { BGE_SMALL_ZH } from "./pinned.mjs";

/** The settings key of the local model (knowledge.embeddings.models.<key>). */
export const LOCAL_MODEL_KEY = "bge-small-zh";

/**
 * The model as the Worker's settings describe it. `version` names the files and how texts
 * become vectors (lower-cased tokens, [CLS], L2): bump it whenever either changes, so vectors
 * of the old way are never compared with new ones (docs/retrieval.md#embeddings).
 */
export function localModelSettings(baseUrl, spec = BGE_SMALL_ZH) {
  return {
    provider: "openai-compatible",
    model: spec.servedAs,
    version: `${spec.version}-1`,
    dims: spec.dims,
    baseUrl,
    queryPrefix: spec.queryPrefix,
    fusionWeight: 1,
    // Memory recall gains from this model at weight 1; every knowledge set lost at any weight
    // (docs/decisions/0261-local-model-fused-for-memory-not-knowledge.md).
    knowledgeFusionWeight: 0,
    // History search's matches reordered by this model at weight 1: Chinese paraphrases gain,
    // LoCoMo's English stays within two points (docs/decisions/0490-history-matches-reranked-by-the-read-model.md).
    historyFusionWeight: 1,
    // Restatements in other words merge at this cosine, measured on the labelled pairs
    // (docs/decisions/0460-restatements-judged-by-the-read-model.md).
    restatementCosine: 0.93,
  };
}

/**
 * AKASHA_CONFIG text with the local model added (fields the text gives it win) and, unless the
 * text already chooses them (or `select` is false), made the model searches read and imports write. Throws on text that is
 * not a JSON object, as the Worker would.
 */
export function withLocalModel(configText, baseUrl, { spec = BGE_SMALL_ZH, select = true } = {}) {
  const config = configText?.trim() ? JSON.parse(configText) : {};
  if (!config || typeof config !== "object" || Array.isArray(config))
    throw new Error("AKASHA_CONFIG must be a JSON object");
  const knowledge = config.knowledge ?? {};
  const embeddings = knowledge.embeddings ?? {};
  return JSON.stringify({
    ...config,
    knowledge: {
      ...knowledge,
      embeddings: {
        ...embeddings,
        // What the text already says of this model (a fusion weight to try) wins over the defaults.
        models: {
          ...(embeddings.models ?? {}),
          [LOCAL_MODEL_KEY]: {
            ...localModelSettings(baseUrl, spec),
            ...(embeddings.models?.[LOCAL_MODEL_KEY] ?? {}),
          },
        },
        ...(select
          ? {
              read: embeddings.read !== undefined ? embeddings.read : LOCAL_MODEL_KEY,
              write: embeddings.write ?? [LOCAL_MODEL_KEY],
            }
          : {}),
      },
    },
  });
}

/**
 * The file of vectors already computed by this model, made this way (vector-cache.mjs): beside
 * the model in the cache, named for the version the Worker's settings give its vectors.
 */
export function vectorCacheFile(spec = BGE_SMALL_ZH) {
  return path.join(modelDir(spec), "vectors", `${localModelSettings("", spec).version}.jsonl`);
}

/**
 * Starts `serve.mjs` on `port` (0 = any free port) when the model is cached; resolves with
 * `{url, stop, child}`, or `{unavailable}` saying why not (no model: nothing is started).
 * `vectorCache`: a file of vectors to answer repeated texts from (serve.mjs --vector-cache).
 */
export async function startLocalEmbeddings({
  port,
  threads = 1,
  spec = BGE_SMALL_ZH,
  timeoutMs = 60_000,
  vectorCache = null,
}) {
  try {
    await verifiedModel(spec);
  } catch (e) {
    return { unavailable: e.message };
  }
  const child = spawn(
    process.execPath,
    [
      path.join(import.meta.dirname, "serve.mjs"),
      "--port",
      String(port),
      "--threads",
      String(threads),
      "--exit-with-stdin",
      ...(vectorCache ? ["--vector-cache", vectorCache] : []),
    ],
    { stdio: ["pipe", "pipe", "pipe"] },
  );
  const stop = () => {
    if (child.exitCode === null && !child.killed) child.kill("SIGTERM");
  };
  process.on("exit", stop);
  let output = "";
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`embedding service did not start in ${timeoutMs} ms\n${output}`)),
      timeoutMs,
    );
    const onData = (d) => {
      output += d;
      const m = /on (http:\/\/\S+\/v1)/.exec(output);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", (d) => (output += d));
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`embedding service exited (${code})\n${output}`));
    });
  });
  return { url, stop, child };
}
