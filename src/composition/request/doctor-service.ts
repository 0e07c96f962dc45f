/**
 * What the deployment itself can say about its health for `npm run akasha -- doctor`
 * (docs/http-api.md#doctor): secrets, applied migrations, admins, followed groups, the chat
 * model and the vector indexes. Each check names what is missing and the command that fixes
 * it; the CLI adds what only the owner's machine can see (the migrations folder, the webhook
 * from outside, Vectorize's metadata indexes through wrangler). Each check also carries a stable
 * `code` with its values (`params`), so the CLI can say it in the owner's chosen language; the
 * Chinese `detail` stays for every other reader.
 */
import { D1DeploymentProbe } from "../../adapters/d1/d1-deployment-probe";
import type { Settings } from "../../domain/config/settings";
import type { SettingsSource } from "../../domain/config/settings-source";
import { createChatModel } from "../common/model-and-outbound";
import type { AdminRequest } from "./admin-request";

export type DoctorCheck = {
  readonly id: string;
  readonly ok: boolean;
  /** What was found, in Chinese for the owner. */
  readonly detail: string;
  /** The command that fixes it, when not ok. */
  readonly fix?: string;
  /** What was found as a stable code (`admins.none`, `model.failed`, …) and the values it names. */
  readonly code: string;
  readonly params?: Readonly<Record<string, string | number>>;
  readonly data?: unknown;
};

const list = (items: readonly string[]) => items.join("、");

const MODEL_PROBE_MS = 20_000;

function secretsCheck(env: Env, who: AdminRequest): DoctorCheck {
  const model = who.config.model;
  const missing: string[] = [];
  if (model.provider === "openai-compatible" && model.apiKey === "") missing.push("LLM_API_KEY");
  if (who.config.onebot.apiBase && !who.config.onebot.secret) missing.push("ONEBOT_SECRET");
  if (Boolean(env.ACCESS_TEAM_DOMAIN) !== Boolean(env.ACCESS_AUD))
    missing.push(env.ACCESS_TEAM_DOMAIN ? "ACCESS_AUD" : "ACCESS_TEAM_DOMAIN");
  return {
    id: "secrets",
    ok: missing.length === 0,
    detail:
      missing.length === 0
        ? `必需的密钥已设置（QQ_BOT_APPID、QQ_BOT_SECRET、ADMIN_TOKEN；模式 ${who.config.mode}）`
        : `缺少密钥：${missing.join("、")}`,
    code: missing.length === 0 ? "secrets.ok" : "secrets.missing",
    params: { mode: who.config.mode, missing: missing.join(", ") },
    ...(missing.length
      ? { fix: missing.map((m) => `npx wrangler secret put ${m} --env production`).join("; ") }
      : {}),
    data: { mode: who.config.mode, missing },
  };
}

async function migrationsCheck(probe: D1DeploymentProbe): Promise<DoctorCheck> {
  try {
    const applied = await probe.appliedMigrations();
    return {
      id: "migrations",
      ok: applied.length > 0,
      detail: `已应用 ${applied.length} 个迁移`,
      code: "migrations.applied",
      params: { n: applied.length },
      data: { applied },
    };
  } catch (e) {
    return {
      id: "migrations",
      ok: false,
      detail: `读不到 d1_migrations（${String(e).slice(0, 120)}）`,
      code: "migrations.unreadable",
      params: { error: String(e).slice(0, 120) },
      fix: "npm run db:apply:remote",
      data: { applied: [] },
    };
  }
}

function adminsCheck(settings: Settings): DoctorCheck {
  const { enabled, admins } = settings.identity;
  if (admins.length > 0 && enabled)
    return {
      id: "admins",
      ok: true,
      detail: `管理员 ${admins.length} 位：${list(admins)}`,
      code: "admins.ok",
      params: { count: admins.length, admins: admins.join(", ") },
    };
  return {
    id: "admins",
    ok: false,
    detail:
      admins.length === 0
        ? "还没有管理员：所有管理命令都会被拒绝"
        : "声明了管理员，但身份系统未启用（identity.enabled = false）",
    code: admins.length === 0 ? "admins.none" : "admins.identityOff",
    fix:
      admins.length === 0
        ? "npm run akasha -- admins claim（然后私聊机器人 /claim <口令>）"
        : "npm run akasha -- settings set identity.enabled true",
  };
}

async function followCheck(probe: D1DeploymentProbe, settings: Settings): Promise<DoctorCheck> {
  const groups = settings.follow.groups;
  const seen = await probe.recentGroupChats(200);
  const unfollowed = groups.includes("*") ? [] : seen.filter((k) => !groups.includes(k));
  const ok = groups.length > 0;
  const listed =
    groups.length === 0 ? "没有关注任何群：群聊记录、总结和记忆都不会保存" : `关注的群：${groups.join("、")}`;
  return {
    id: "follow",
    ok,
    detail: unfollowed.length ? `${listed}；见过但未关注：${list(unfollowed.slice(0, 10))}` : listed,
    code: groups.length === 0 ? "follow.none" : "follow.listed",
    params: { groups: groups.join(", "), unfollowed: unfollowed.slice(0, 10).join(", ") },
    ...(ok ? {} : { fix: "在群里 @机器人 发送 /follow，或 npm run akasha -- follow add <群的聊天标识>" }),
    data: { groups, unfollowed },
  };
}

async function modelCheck(env: Env, who: AdminRequest): Promise<DoctorCheck> {
  const choice = who.config.model;
  if (choice.provider === "offline")
    return {
      id: "model",
      ok: false,
      detail: "没有配置对话模型：只有离线模型在回答",
      code: "model.offline",
      fix: "在 wrangler.toml 的 [env.production.vars] 设置 AI_CHAT_MODEL（Workers AI）或 LLM_BASE_URL + LLM_MODEL，然后 npm run deploy",
    };
  const model = createChatModel(env, who.config);
  const timeout = new Promise<"timeout">((resolve) => setTimeout(() => resolve("timeout"), MODEL_PROBE_MS));
  const answer = await Promise.race([
    model.complete({ messages: [{ role: "user", content: "ping" }], maxTokens: 8, recalled: [] }),
    timeout,
  ]);
  const name = `${model.provider} ${model.model}`;
  if (answer === "timeout")
    return {
      id: "model",
      ok: false,
      detail: `${name} ${MODEL_PROBE_MS / 1000} 秒内没有回答`,
      code: "model.timeout",
      params: { name, seconds: MODEL_PROBE_MS / 1000 },
    };
  return answer.ok
    ? { id: "model", ok: true, detail: `${name} 可用`, code: "model.ok", params: { name } }
    : {
        id: "model",
        ok: false,
        detail: `${name} 调用失败（${answer.error.kind}）`,
        code: "model.failed",
        params: { name, kind: answer.error.kind },
        fix: "检查模型名和 LLM_API_KEY：npx wrangler secret put LLM_API_KEY --env production",
      };
}

async function vectorsCheck(env: Env, settings: Settings): Promise<DoctorCheck> {
  const models = settings.knowledge.embeddings.models;
  const write = settings.knowledge.embeddings.write;
  const lines: string[] = [];
  /** Each index as data (`problem`: unbound, dims, unavailable), which the CLI words itself. */
  const indexes: {
    model: string;
    binding: string;
    ok: boolean;
    problem?: "unbound" | "dims" | "unavailable";
    dims?: number | null;
    modelDims?: number;
    error?: string;
  }[] = [];
  for (const key of write) {
    const model = models[key];
    const binding = model?.vectorBinding;
    if (!model || !binding) continue;
    const index = (env as unknown as Record<string, VectorizeIndex | undefined>)[binding];
    if (!index) {
      indexes.push({ model: key, binding, ok: false, problem: "unbound" });
      lines.push(`${key}：没有绑定 ${binding}`);
      continue;
    }
    try {
      const info = await index.describe();
      const dims =
        "dimensions" in info
          ? info.dimensions
          : (info as { config?: { dimensions?: number } }).config?.dimensions;
      const fits = dims === undefined || dims === model.dims;
      indexes.push({
        model: key,
        binding,
        ok: fits,
        dims: typeof dims === "number" ? dims : null,
        modelDims: model.dims,
        ...(fits ? {} : { problem: "dims" as const }),
      });
      lines.push(`${key}：${binding} ${dims ?? "?"} 维${fits ? "" : `，但模型是 ${model.dims} 维`}`);
    } catch (e) {
      indexes.push({ model: key, binding, ok: false, problem: "unavailable", error: String(e).slice(0, 80) });
      lines.push(`${key}：${binding} 不可用（${String(e).slice(0, 80)}）`);
    }
  }
  const ok = indexes.every((i) => i.ok);
  return {
    id: "vectors",
    ok,
    detail: lines.length ? lines.join("；") : "没有写入 Vectorize 的向量模型（向量在 D1 中检索）",
    code: lines.length ? "vectors.indexes" : "vectors.none",
    ...(ok
      ? {}
      : { fix: "按 README「部署」第 2 步创建索引并绑定到 wrangler.toml 的 [[env.production.vectorize]]" }),
    data: { indexes },
  };
}

export function doctorService(env: Env, who: AdminRequest, source: SettingsSource) {
  return {
    async checks(options: { model: boolean }): Promise<DoctorCheck[]> {
      const settings = await source.current();
      const probe = new D1DeploymentProbe(env.DB);
      return [
        secretsCheck(env, who),
        await migrationsCheck(probe),
        adminsCheck(settings),
        await followCheck(probe, settings),
        ...(options.model ? [await modelCheck(env, who)] : []),
        await vectorsCheck(env, settings),
      ];
    },
  };
}
