/**
 * Deployment configuration read from env once per request: secrets, endpoints, model and
 * outbound selection. Production is the default: local mode (dev defaults, recorded replies,
 * the /dev routes) only when `AKASHA_ENV` is exactly `local`, which only the local start path
 * sets (`npm start`, `npm run dev`, bench, eval, tests). A missing, empty or unknown value is
 * production, so a deploy that forgot its environment fails closed. Local runs fall back to
 * the embedded dev defaults (printed by `npm start`); production refuses to run without the
 * real secrets and refuses the published dev defaults, and keeps the admin routes closed
 * while ADMIN_TOKEN is missing, short or published (admin-token.ts).
 */
import devDefaults from "../dev-defaults.json";
import { adminTokenProblem } from "./admin-token";

export type Mode = "local" | "production";

export type ModelChoice =
  | { provider: "openai-compatible"; baseUrl: string; apiKey: string; model: string }
  | { provider: "workers-ai"; model: string }
  | { provider: "offline" };

export type RuntimeConfig = {
  readonly mode: Mode;
  readonly qq: { appId: string; secret: string; apiBase: string; tokenUrl: string; liveOutbound: boolean };
  readonly onebot: { secret: string | null; apiBase: string | null; accessToken: string | null };
  /**
   * The admin token. In production a token that adminTokenProblem refuses (missing, short,
   * published) throws ConfigError when read: only the admin routes read it, so they fail
   * closed while webhooks and turns keep working.
   */
  readonly adminToken: string;
  /** Why the admin routes are closed, or null: what the admin door answers before anything else. */
  readonly adminTokenProblem: string | null;
  readonly model: ModelChoice;
  readonly settingsVar: string;
};

export class ConfigError extends Error {
  override readonly name = "ConfigError";
}

function text(value: unknown): string | null {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : null;
}

/**
 * AKASHA_CONFIG as written: JSON text, or "" when it is not set. Any other value (a TOML table
 * under [vars] arrives as an object) is a ConfigError: read as "no settings", the owner's
 * follow list, identity and limits would be dropped without a word.
 */
export function akashaConfigText(env: Env): string {
  const value: unknown = env.AKASHA_CONFIG;
  if (value === undefined || value === null) return "";
  if (typeof value !== "string")
    throw new ConfigError(
      `AKASHA_CONFIG must be JSON text (a string var), not ${Array.isArray(value) ? "a list" : `a ${typeof value}`}`,
    );
  return value;
}

/** The only value that selects local mode; anything else (or nothing) is production. */
export const LOCAL_MODE = "local";

export function modeOf(value: unknown): Mode {
  return value === LOCAL_MODE ? "local" : "production";
}

type SecretName = "QQ_BOT_APPID" | "QQ_BOT_SECRET";
/** Published in the repository, so never a credential outside local mode. */
const PUBLISHED: readonly SecretName[] = ["QQ_BOT_SECRET"];

/** The admin token and, in production, why it is refused (admin-token.ts). */
function adminTokenOf(env: Env, dev: boolean): { token: string; problem: string | null } {
  const given = text(env.ADMIN_TOKEN);
  if (dev) return { token: given ?? devDefaults.ADMIN_TOKEN, problem: null };
  return { token: given ?? "", problem: adminTokenProblem(given) };
}

export function readRuntimeConfig(env: Env): RuntimeConfig {
  const mode = modeOf(env.AKASHA_ENV);
  const dev = mode === "local";
  const required = (name: SecretName): string => {
    const value = text(env[name]) ?? (dev ? devDefaults[name] : null);
    if (!value)
      throw new ConfigError(`${name} is not set; run: wrangler secret put ${name} --env production`);
    if (!dev && PUBLISHED.includes(name) && value === devDefaults[name])
      throw new ConfigError(`${name} is the published dev default; set a real one with wrangler secret put`);
    return value;
  };
  const llmBase = text(env.LLM_BASE_URL);
  const llmModel = text(env.LLM_MODEL);
  const aiModel = text(env.AI_CHAT_MODEL);
  const model: ModelChoice =
    llmBase && llmModel
      ? {
          provider: "openai-compatible",
          baseUrl: llmBase,
          apiKey: text(env.LLM_API_KEY) ?? "",
          model: llmModel,
        }
      : env.AI && aiModel
        ? { provider: "workers-ai", model: aiModel }
        : { provider: "offline" };
  const admin = adminTokenOf(env, dev);
  return {
    mode,
    qq: {
      appId: required("QQ_BOT_APPID"),
      secret: required("QQ_BOT_SECRET"),
      apiBase: text(env.QQ_API_BASE) ?? "https://api.sgroup.qq.com",
      tokenUrl: text(env.QQ_TOKEN_URL) ?? "https://bots.qq.com/app/getAppAccessToken",
      // Local runs record replies instead of calling QQ unless QQ_OUTBOUND=live.
      liveOutbound: mode === "production" || text(env.QQ_OUTBOUND) === "live",
    },
    onebot: {
      secret: text(env.ONEBOT_SECRET),
      apiBase: text(env.ONEBOT_API_BASE),
      accessToken: text(env.ONEBOT_ACCESS_TOKEN),
    },
    get adminToken() {
      if (admin.problem) throw new ConfigError(admin.problem);
      return admin.token;
    },
    adminTokenProblem: admin.problem,
    model,
    settingsVar: akashaConfigText(env),
  };
}
