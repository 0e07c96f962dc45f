// Secrets that are optional: typegen lists only the required ones from wrangler.toml.
declare namespace Cloudflare {
  interface Env {
    LLM_API_KEY?: string;
    ONEBOT_SECRET?: string;
    ONEBOT_ACCESS_TOKEN?: string;
  }
}
