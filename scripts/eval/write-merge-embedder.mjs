// Which model of meaning `npm run eval -- write-merge` measures: the local model (the default),
// an OpenAI-compatible endpoint (--embed-url), or none (--no-vectors); and, for an endpoint, the
// line that tells the owner where its measured threshold goes.
import { verifiedModel } from "../model/cache.mjs";
import { loadEmbedder } from "../model/embedder.mjs";
import { BGE_SMALL_ZH } from "../model/pinned.mjs";
import { openAiEmbedder } from "./openai-embedder.mjs";

/** A mistake in the flags: said plainly, no stack. */
export class UsageError extends Error {}

function endpointOf(flags) {
  const baseUrl = flags["embed-url"];
  const model = flags["embed-model"];
  if (typeof model !== "string")
    throw new UsageError(
      "--embed-url 需要 --embed-model <模型 id>，例如 @cf/baai/bge-m3 (--embed-model is required)",
    );
  if (!/^https?:\/\//.test(baseUrl))
    throw new UsageError(
      `--embed-url 应是 http(s) 地址，到 /v1 为止 (a base URL ending before /embeddings): ${baseUrl}`,
    );
  const dims = flags["embed-dims"] === undefined ? null : Number(flags["embed-dims"]);
  if (dims !== null && !(Number.isInteger(dims) && dims > 0))
    throw new UsageError(`--embed-dims 应是正整数 (a positive integer): ${flags["embed-dims"]}`);
  const apiKey = process.env.EMBEDDING_API_KEY ?? "";
  if (!apiKey) console.error("EMBEDDING_API_KEY 未设置：不带密钥调用 (no key: calling without one)");
  return openAiEmbedder({ baseUrl, model, dims, apiKey, fetch });
}

/** `{name, embed, close}` of the model this run measures, or null (--no-vectors, or no local model). */
export async function writeMergeEmbedder(flags) {
  if (flags["embed-url"] !== undefined) return endpointOf(flags);
  if (flags["no-vectors"]) return null;
  try {
    const local = await loadEmbedder(BGE_SMALL_ZH, await verifiedModel(BGE_SMALL_ZH));
    return { ...local, name: BGE_SMALL_ZH.servedAs };
  } catch (e) {
    console.error(`no vectors: ${e.message}`);
    return null;
  }
}

/** The cosine this run judges with: --cosine, else the code's (local model) or the dev midpoint (endpoint). */
export function cosineThreshold(flags, codeThreshold, devMidpoint) {
  if (flags.cosine !== undefined) {
    const given = Number(flags.cosine);
    if (!(given > 0 && given <= 1)) throw new UsageError(`--cosine 应在 (0, 1] 之间: ${flags.cosine}`);
    return given;
  }
  return flags["embed-url"] !== undefined ? devMidpoint : codeThreshold;
}

/**
 * One line for the owner (stderr): the threshold to copy, its held scores, the settings path and
 * the command that sets it. `key`: --embed-key, else the model id's last part (@cf/baai/bge-m3 →
 * bge-m3), the name the settings give the model.
 */
export function settingsHint(flags, model, threshold, held) {
  const key = typeof flags["embed-key"] === "string" ? flags["embed-key"] : model.split("/").at(-1);
  const settingsPath = `knowledge.embeddings.models.${key}.restatementCosine`;
  if (threshold === null)
    return `${model} 在 dev 对上没有能分开同义与不同义的余弦，不建议设置 ${settingsPath}（不设 = 只按字面合并）。 (no cosine separates the dev pairs: leave it unset)`;
  const scores = `held：同义 ${held.merged_same}/${held.of_same} 合并，误合并 ${held.wrong_merges}`;
  if (threshold < 0.5)
    return `${model} 的阈值 ${threshold} 低于设置允许的 0.5（${scores}），不能写入 ${settingsPath}。 (below the settings' minimum)`;
  const caution =
    held.wrong_merges > 0
      ? "held 上有误合并：写入前用 --dump 看清是哪几对 (held pairs merged wrongly: read them first)。"
      : "";
  return `${caution}${model} 建议阈值 ${threshold}（${scores}）。写入设置：npm run akasha -- settings set ${settingsPath} ${threshold}   （${key} 是设置里这个模型的名字，不同时用 --embed-key 指定） (set it with this command)`;
}
