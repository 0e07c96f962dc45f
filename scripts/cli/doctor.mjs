// `npm run akasha -- doctor [--url U] [--no-model]`: checks a deployment end to end and prints
// what is missing with the command that fixes it. The Worker reports what it can see
// (GET /api/doctor: secrets, applied migrations, admins, followed groups, the model, its
// vector indexes); this adds what only the owner's machine sees: the Worker reachable, the
// migrations folder against what was applied, the webhooks refusing unsigned requests from
// outside, and — for a deployed Worker — Vectorize's metadata indexes through wrangler.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { command as define, withApiOptions } from "../lib/args.mjs";
import { root } from "../lib/dev-vars.mjs";
import { wranglerSync } from "../lib/wrangler.mjs";
import { client, isLocalUrl } from "./admin-api.mjs";
import { output } from "./format.mjs";

/** The metadata indexes the Vectorize adapter filters on (docs/storage.md#vectorize). */
export const METADATA_INDEXES = {
  scope_type: "string",
  scope_id: "string",
  collection: "string",
  node_type: "string",
  sensitivity: "string",
  portable: "boolean",
};

const LABELS = {
  worker: "Worker",
  secrets: "密钥",
  migrations: "迁移",
  admins: "管理员",
  follow: "关注的群",
  model: "对话模型",
  vectors: "向量索引",
  webhook: "Webhook",
  "metadata-indexes": "元数据索引",
};

export function renderDoctor({ url, checks }) {
  const lines = [`${url}`];
  for (const c of checks) {
    lines.push(`${c.ok ? "✓" : "✗"} ${LABELS[c.id] ?? c.id}：${c.detail}`);
    if (!c.ok && c.fix) lines.push(`    修复：${c.fix}`);
  }
  const failed = checks.filter((c) => !c.ok).length;
  lines.push(failed === 0 ? "一切就绪。" : `${failed} 项需要处理。`);
  return lines.join("\n");
}

/** The migrations folder against the names D1 recorded as applied. */
export function migrationsCheck(applied, files, local) {
  const missing = files.filter((f) => !applied.includes(f));
  return missing.length === 0
    ? { id: "migrations", ok: true, detail: `${files.length} 个迁移都已应用` }
    : {
        id: "migrations",
        ok: false,
        detail: `${missing.length} 个迁移未应用：${missing.slice(0, 5).join("、")}${missing.length > 5 ? "…" : ""}`,
        fix: local ? "npm run db:apply:local" : "npm run db:apply:remote",
      };
}

/** A webhook that verifies answers an unsigned request with 401/403, never 2xx. */
export function webhookCheck(status) {
  if (status === 401 || status === 403)
    return { id: "webhook", ok: true, detail: `/webhook/qq 可访问，并拒绝了未签名的请求（${status}）` };
  if (status === null)
    return {
      id: "webhook",
      ok: false,
      detail: "/webhook/qq 无法访问",
      fix: "检查域名和路由，然后 npm run deploy",
    };
  return {
    id: "webhook",
    ok: false,
    detail: `/webhook/qq 对未签名的请求回答了 ${status}（应为 401）`,
    fix: "npx wrangler secret put QQ_BOT_SECRET --env production，然后 npm run deploy",
  };
}

/** `wrangler vectorize list-metadata-index --json` output against METADATA_INDEXES. */
export function metadataCheck(index, stdout) {
  let listed;
  try {
    const parsed = JSON.parse(stdout);
    listed = parsed.metadataIndexes ?? parsed;
  } catch {
    return {
      id: "metadata-indexes",
      ok: false,
      detail: `读不到 ${index} 的元数据索引`,
      fix: "npx wrangler login",
    };
  }
  const have = new Map((Array.isArray(listed) ? listed : []).map((m) => [m.propertyName, m.indexType]));
  const missing = Object.entries(METADATA_INDEXES).filter(([p, t]) => have.get(p)?.toLowerCase() !== t);
  return missing.length === 0
    ? { id: "metadata-indexes", ok: true, detail: `${index} 的 ${have.size} 个元数据索引齐全` }
    : {
        id: "metadata-indexes",
        ok: false,
        detail: `${index} 缺少元数据索引：${missing.map(([p]) => p).join("、")}`,
        fix: missing
          .map(
            ([p, t]) =>
              `npx wrangler vectorize create-metadata-index ${index} --propertyName=${p} --type=${t}`,
          )
          .join("; "),
      };
}

/** The production Vectorize index names in wrangler.toml. */
function productionIndexes() {
  const toml = readFileSync(path.join(root, "wrangler.toml"), "utf8");
  const section = toml.split(/^\[\[env\.production\.vectorize\]\]/m).slice(1);
  return section.map((s) => /index_name\s*=\s*"([^"]+)"/.exec(s)?.[1]).filter(Boolean);
}

async function gather(o) {
  const api = client(o);
  const local = isLocalUrl(api.base);
  const health = await api.request("GET", "/healthz").catch(() => null);
  if (!health?.ok)
    return [
      {
        id: "worker",
        ok: false,
        detail: `${api.base} 没有回答 /healthz`,
        fix: local ? "npm start" : "npm run deploy",
      },
    ];
  const worker = await api.call("GET", `/doctor?model=${o.model === false ? 0 : 1}`);
  const checks = worker.checks.map((c) => {
    if (c.id !== "migrations") return c;
    const files = readdirSync(path.join(root, "migrations"))
      .filter((f) => f.endsWith(".sql"))
      .sort();
    return migrationsCheck(c.data?.applied ?? [], files, local);
  });
  const probe = await fetch(`${api.base}/webhook/qq`, {
    method: "POST",
    body: "{}",
    headers: { "content-type": "application/json" },
  })
    .then((r) => r.status)
    .catch(() => null);
  checks.push(webhookCheck(probe));
  if (!local)
    for (const index of productionIndexes()) {
      const r = wranglerSync(["vectorize", "list-metadata-index", index, "--json"], { stdio: "pipe" });
      checks.push(
        r.status === 0
          ? metadataCheck(index, r.stdout)
          : {
              ...metadataCheck(index, ""),
              detail: `wrangler 读不到 ${index}：${(r.stderr || "").trim().split("\n").at(-1) ?? ""}`,
            },
      );
    }
  return checks;
}

export function command(name = "doctor") {
  return withApiOptions(
    define(name)
      .description("检查部署：密钥、迁移、webhook、管理员、关注的群、模型、向量索引，并给出修复命令")
      .option("--no-model", "不调用对话模型（默认会发一次很短的请求）"),
  ).action(async (o) => {
    const checks = await gather(o);
    output(o, { url: client(o).base, checks }, renderDoctor);
    if (checks.some((c) => !c.ok)) process.exitCode = 1;
  });
}
