// Secrets and vars that are optional: typegen lists only what wrangler.toml names.
interface OptionalAkashaEnv {
  LLM_API_KEY?: string;
  ONEBOT_SECRET?: string;
  ONEBOT_ACCESS_TOKEN?: string;
  /** `live` makes a local run send replies to the real QQ API instead of recording them. */
  QQ_OUTBOUND?: string;
}
interface Env extends OptionalAkashaEnv {}
declare namespace Cloudflare {
  interface Env extends OptionalAkashaEnv {}
}
