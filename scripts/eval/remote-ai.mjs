// `npm run eval -- <dataset> --remote-ai`: the same harness against the real Workers AI embedder
// (bge-m3) and reranker (bge-reranker-base) through wrangler's remote bindings, so an owner can
// check the production retrieval settings before enabling them. Everything else (D1, Durable
// Objects, the Worker) stays local; only the AI binding reaches the account, and every call is
// billed to it. Needs a Cloudflare login (`npx wrangler login`) or CLOUDFLARE_API_TOKEN with
// Workers AI access.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { root } from "../lib/dev-vars.mjs";
import { wranglerSync } from "../lib/wrangler.mjs";

/** Settings the remote run merges in: the production read model fused at weight 1, and rerank. */
export const REMOTE_AI_SETTINGS = {
  knowledge: {
    embeddings: { read: "bge-m3", write: ["bge-m3"] },
    reranker: { provider: "workers-ai", model: "@cf/baai/bge-reranker-base" },
    search: { rerank: true },
  },
};

/** The chat model the remote run rewrites follow-ups with: production's AI_CHAT_MODEL. */
export const REMOTE_CHAT_MODEL = "@cf/qwen/qwen3-30b-a3b-fp8";

/**
 * Fails with a plain message unless wrangler can reach an account: the remote binding cannot
 * start without one, and a half-started run would only print a proxy error.
 */
export function requireCloudflareLogin() {
  const r = wranglerSync(["whoami"], { stdio: "pipe" });
  const out = `${r.stdout ?? ""}${r.stderr ?? ""}`;
  const loggedIn = r.status === 0 && !/not authenticated|not logged in/i.test(out);
  if (loggedIn) return;
  throw new Error(
    "--remote-ai needs a Cloudflare account: run `npx wrangler login` (or set CLOUDFLARE_API_TOKEN " +
      "with Workers AI access, and CLOUDFLARE_ACCOUNT_ID if the token sees several accounts), then retry. " +
      `wrangler whoami said: ${out.trim().split("\n").slice(-3).join(" ") || `exit ${r.status}`}`,
  );
}

/**
 * A wrangler config for the eval: the project's own, plus the AI binding marked remote, written
 * under .eval/ (paths in it are made relative to that directory). Returns its path.
 */
export function remoteAiConfig() {
  const dir = path.join(root, ".eval");
  mkdirSync(dir, { recursive: true });
  const base = readFileSync(path.join(root, "wrangler.toml"), "utf8");
  // Top-level keys come before the first [table]: the [ai] table goes at the end of the file,
  // outside [env.production], so it binds in the default (local) environment only.
  const rebased = base
    .replace(/^main = "(.+)"$/m, (_, p) => `main = "../${p}"`)
    .replace(/^migrations_dir = "(.+)"$/gm, (_, p) => `migrations_dir = "../${p}"`);
  const file = path.join(dir, "wrangler.remote-ai.toml");
  writeFileSync(
    file,
    `${rebased}\n# Added by --remote-ai: Workers AI through the account.\n[ai]\nbinding = "AI"\nremote = true\n`,
  );
  return file;
}
