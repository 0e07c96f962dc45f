// Secrets and vars that are optional: typegen lists only what wrangler.toml names.
interface OptionalAkashaEnv {
  LLM_API_KEY?: string;
  ONEBOT_SECRET?: string;
  ONEBOT_ACCESS_TOKEN?: string;
  /** Key of the OpenAI-compatible embeddings endpoint (knowledge.embeddings.models.*.baseUrl). */
  EMBEDDING_API_KEY?: string;
  /** Key of the OpenAI-compatible rerank endpoint (knowledge.reranker.baseUrl). */
  RERANKER_API_KEY?: string;
  /** `live` makes a local run send replies to the real QQ API instead of recording them. */
  QQ_OUTBOUND?: string;
  /** Cloudflare Access team domain (`<team>.cloudflareaccess.com`); with ACCESS_AUD turns Access on. */
  ACCESS_TEAM_DOMAIN?: string;
  /** The Access application's AUD tag. */
  ACCESS_AUD?: string;
}
interface Env extends OptionalAkashaEnv {}
declare namespace Cloudflare {
  interface Env extends OptionalAkashaEnv {}
}
