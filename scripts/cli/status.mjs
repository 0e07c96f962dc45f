// `npm run akasha -- status`: is the Worker up, what it stores, today's spend, embeddings.
import { command as define, withApiOptions } from "../lib/args.mjs";
import { client } from "./admin-api.mjs";
import { againstCap, bytes, output } from "./format.mjs";
import { t } from "./i18n/lang.mjs";

/** An embedding model as the API reports it ({ id, version, dims }) → `local-hash@1-512, 512 dims`. */
export function modelName(model) {
  if (typeof model === "string") return model;
  if (model === null || typeof model !== "object") return "?";
  const id = typeof model.id === "string" ? model.id : typeof model.model === "string" ? model.model : "?";
  const version = typeof model.version === "string" ? `@${model.version}` : "";
  return `${id}${version}${typeof model.dims === "number" ? `, ${t("status.dims", { dims: model.dims })}` : ""}`;
}

/** The embedding cache's counts as GET /api/embeddings/status reports them, in this order. */
const EMBEDDING_COUNTS = ["embedded", "missing", "synced"];

export function renderStatus(s) {
  const st = s.stats;
  const active = st.memoryByKind.filter((m) => m.status === "active").reduce((n, m) => n + m.items, 0);
  const state = t(s.healthy ? "status.up" : "status.down");
  const { chats, messages, kbNodes, auditRows: audit } = st;
  const lines = [
    t("status.health", { url: s.url, state, ms: s.healthzMs }),
    t("status.counts", { chats, messages, memory: active, kbNodes, audit, bytes: bytes(st.databaseBytes) }),
  ];
  if (s.spend)
    lines.push(
      t("status.spend", {
        day: s.spend.day,
        zone: s.spend.timeZone,
        used: againstCap(s.spend.global.tokens, s.spend.globalDailyTokens),
        capped: s.spend.chats.filter((c) => c.capped).length,
      }),
    );
  for (const m of s.embeddings?.models ?? []) {
    const counts = EMBEDDING_COUNTS.filter((k) => typeof m[k] === "number")
      .map((k) => t(`status.count.${k}`, { n: m[k] }))
      .join(t("status.countSeparator"));
    const read = m.read ? t("status.read") : "";
    lines.push(
      t("status.embeddings", { key: m.key, model: modelName(m.model), index: m.index, read, counts }),
    );
  }
  return lines.join("\n");
}

export function command(name = "status") {
  return withApiOptions(define(name).description(t("status.desc"))).action(async (o) => {
    const api = client(o);
    const t0 = performance.now();
    const health = await api.request("GET", "/healthz");
    const healthzMs = Math.round(performance.now() - t0);
    const [stats, usage, embeddings] = await Promise.all([
      api.call("GET", "/stats?days=1"),
      api.call("GET", "/usage?days=1"),
      api.request("GET", "/embeddings/status").then((r) => (r.ok ? r.json : null)),
    ]);
    const s = { url: api.base, healthy: health.ok, healthzMs, stats, spend: usage.spend ?? null, embeddings };
    output(o, s, renderStatus);
    if (!health.ok) process.exitCode = 1;
  });
}
