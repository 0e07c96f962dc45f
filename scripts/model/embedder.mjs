// bge-small-zh-v1.5 in this process: the model's own tokenizer file read by the Hugging Face
// tokenizer library, the ONNX graph run by onnxruntime on the CPU, the [CLS] vector of the last
// hidden state L2-normalized, as the model card prescribes. Texts longer than the model's 512
// tokens are cut to their first 512 (with [CLS] and [SEP]), never refused.
//
// Each text runs alone, never padded into a batch: the int8 graph quantizes activations per
// tensor, so padding a text beside a longer one changes its vector (cosine 0.989 measured) and a
// cached vector would depend on its batch; alone it is the same every time, and without the
// padding a batch of 32 passages took half the time (docs/decisions/0170-local-embedding-model.md).
import { readFileSync } from "node:fs";
import { Tokenizer } from "@huggingface/tokenizers";
import ort from "onnxruntime-node";

/**
 * Characters of one text looked at before tokenizing. 512 WordPiece tokens never span more
 * (a token is at most 100 characters plus a separator), so the cut changes nothing the model
 * would see; it only bounds the tokenizer's work on a huge input.
 */
const MAX_CHARS = 512 * 101;

/**
 * The tokenizer as the model needs it. The packaged tokenizer.json says `lowercase: false`, but
 * its vocabulary (bert-base-chinese's) holds no upper-case Latin letter, so "Vue" or
 * "KeepAlive" would each become one [UNK]; lower-casing first maps them onto the vocabulary
 * ("v ##ue", "keep ##al ##ive"), as BERT's Chinese tokenizer does.
 */
export function loadTokenizer(file) {
  const json = JSON.parse(readFileSync(file, "utf8"));
  if (json.normalizer?.type === "BertNormalizer") json.normalizer.lowercase = true;
  return new Tokenizer(json, {});
}

/** Token ids of one text, cut to `maxTokens` with the closing [SEP] kept. */
export function encode(tokenizer, text, maxTokens) {
  const ids = tokenizer.encode(text.length > MAX_CHARS ? text.slice(0, MAX_CHARS) : text).ids;
  if (ids.length <= maxTokens) return ids;
  return [...ids.slice(0, maxTokens - 1), ids[ids.length - 1]];
}

function l2(vector) {
  let n = 0;
  for (const x of vector) n += x * x;
  n = Math.sqrt(n) || 1;
  return vector.map((x) => x / n);
}

/**
 * Loads the model from verified paths (cache.mjs `verifiedModel`). `threads` is onnxruntime's
 * intra-op thread count: 1 leaves the machine's other cores to the Worker beside it.
 */
export async function loadEmbedder(spec, paths, { threads = 1 } = {}) {
  const tokenizer = loadTokenizer(paths.tokenizer);
  const session = await ort.InferenceSession.create(paths.model, {
    intraOpNumThreads: threads,
    interOpNumThreads: 1,
    graphOptimizationLevel: "all",
  });
  const needsTypes = session.inputNames.includes("token_type_ids");

  async function run(tokenIds) {
    const dims = [1, tokenIds.length];
    const feeds = {
      input_ids: new ort.Tensor("int64", BigInt64Array.from(tokenIds, BigInt), dims),
      attention_mask: new ort.Tensor("int64", new BigInt64Array(tokenIds.length).fill(1n), dims),
    };
    if (needsTypes) feeds.token_type_ids = new ort.Tensor("int64", new BigInt64Array(tokenIds.length), dims);
    const hidden = (await session.run(feeds))[session.outputNames[0]];
    const d = hidden.dims[2];
    if (d !== spec.dims) throw new Error(`the model returned ${d} dimensions, expected ${spec.dims}`);
    // [CLS] is the first position: the first d numbers of the last hidden state.
    return l2(Array.from(hidden.data.subarray(0, d)));
  }

  return {
    dims: spec.dims,
    maxTokens: spec.maxTokens,
    /** Token ids as the model sees them (after the cut): for tests and usage counts. */
    encode: (text) => encode(tokenizer, text, spec.maxTokens),
    /** One unit vector per text, in order, and the tokens the model read. */
    async embed(texts) {
      const encoded = texts.map((t) => encode(tokenizer, t, spec.maxTokens));
      const vectors = [];
      for (const ids of encoded) vectors.push(await run(ids));
      return { vectors, tokens: encoded.reduce((n, ids) => n + ids.length, 0) };
    },
    close: () => session.release(),
  };
}
