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
import { has, inLang, t } from "./i18n/lang.mjs";

/** The metadata indexes the Vectorize adapter filters on (docs/storage.md#vectorize). */
export const METADATA_INDEXES = {
  scope_type: "string",
  scope_id: "string",
  collection: "string",
  node_type: "string",
  sensitivity: "string",
  portable: "boolean",
};

const MARK = (ok) => (ok ? "✓" : "✗");

/** The Worker's indexes (`data.indexes` of the vectors check) in the chosen language. */
function vectorsDetail(indexes) {
  return indexes
    .map((i) =>
      i.problem === "unbound"
        ? t("doctor.vectors.unbound", i)
        : i.problem === "unavailable"
          ? t("doctor.vectors.unavailable", i)
          : t(i.problem === "dims" ? "doctor.vectors.dimsMismatch" : "doctor.vectors.dims", {
              ...i,
              dims: i.dims ?? "?",
            }),
    )
    .join(t("doctor.vectors.separator"));
}

/**
 * What a check found, in the chosen language: by its code and values where the catalogue knows
 * the code (`doctor.<code>`), else the Worker's own detail as it came.
 */
export function detailOf(c) {
  if (c.code === "vectors.indexes" && Array.isArray(c.data?.indexes)) return vectorsDetail(c.data.indexes);
  if (!c.code || !has(`doctor.${c.code}`)) return c.detail;
  const said = t(`doctor.${c.code}`, c.params);
  return c.params?.unfollowed
    ? `${said}${t("doctor.follow.unfollowed", { chats: c.params.unfollowed })}`
    : said;
}

/** The fix of a check: the catalogue's words for its code or check, else the command as it came. */
export function fixOf(c) {
  for (const key of [`doctor.fix.${c.code}`, `doctor.fix.${c.id}`]) if (has(key)) return t(key);
  return c.fix;
}

export function renderDoctor({ url, checks }) {
  const lines = [`${url}`];
  for (const c of checks) {
    const label = has(`doctor.label.${c.id}`) ? t(`doctor.label.${c.id}`) : c.id;
    lines.push(t("doctor.line", { mark: MARK(c.ok), label, detail: detailOf(c) }));
    if (!c.ok && c.fix) lines.push(t("doctor.fix", { fix: fixOf(c) }));
  }
  const failed = checks.filter((c) => !c.ok).length;
  lines.push(failed === 0 ? t("doctor.allGood") : t("doctor.failed", { n: failed }));
  return lines.join("\n");
}

/**
 * A check made here, shaped as the Worker's: a code with its values, which the text output says
 * in the chosen language, and `detail`/`fix` in Chinese as the Worker's are, so `--json` is the
 * same in every language.
 */
function check(id, ok, code, params = {}, fix) {
  const fixText = fix && has(`doctor.fix.${code}`) ? inLang("zh-CN", `doctor.fix.${code}`) : fix;
  return {
    id,
    ok,
    detail: inLang("zh-CN", `doctor.${code}`, params),
    code,
    params,
    ...(fixText ? { fix: fixText } : {}),
  };
}

/** The migrations folder against the names D1 recorded as applied. */
export function migrationsCheck(applied, files, local) {
  const missing = files.filter((f) => !applied.includes(f));
  if (missing.length === 0) return check("migrations", true, "migrations.allApplied", { n: files.length });
  const names = `${missing.slice(0, 5).join(", ")}${missing.length > 5 ? "…" : ""}`;
  return check(
    "migrations",
    false,
    "migrations.missing",
    { n: missing.length, names },
    local ? "npm run db:apply:local" : "npm run db:apply:remote",
  );
}

/** A webhook that verifies answers an unsigned request with 401/403, never 2xx. */
export function webhookCheck(status) {
  if (status === 401 || status === 403) return check("webhook", true, "webhook.ok", { status });
  if (status === null) return check("webhook", false, "webhook.down", {}, true);
  return check("webhook", false, "webhook.open", { status }, true);
}

/** `wrangler vectorize list-metadata-index --json` output against METADATA_INDEXES. */
export function metadataCheck(index, stdout) {
  let listed;
  try {
    const parsed = JSON.parse(stdout);
    listed = parsed.metadataIndexes ?? parsed;
  } catch {
    return check("metadata-indexes", false, "metadata.unreadable", { index }, "npx wrangler login");
  }
  const have = new Map((Array.isArray(listed) ? listed : []).map((m) => [m.propertyName, m.indexType]));
  const missing = Object.entries(METADATA_INDEXES).filter(([p, type]) => have.get(p)?.toLowerCase() !== type);
  if (missing.length === 0) return check("metadata-indexes", true, "metadata.ok", { index, n: have.size });
  return check(
    "metadata-indexes",
    false,
    "metadata.missing",
    { index, names: missing.map(([p]) => p).join(", ") },
    missing
      .map(
        ([p, type]) =>
          `npx wrangler vectorize create-metadata-index ${index} --propertyName=${p} --type=${type}`,
      )
      .join("; "),
  );
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
      check("worker", false, "worker.noHealthz", { url: api.base }, local ? "npm start" : "npm run deploy"),
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
          : check(
              "metadata-indexes",
              false,
              "metadata.wranglerCannotRead",
              { index, error: (r.stderr || "").trim().split("\n").at(-1) ?? "" },
              "npx wrangler login",
            ),
      );
    }
  return checks;
}

export function command(name = "doctor") {
  return withApiOptions(
    define(name).description(t("doctor.desc")).option("--no-model", t("doctor.opt.noModel")),
  ).action(async (o) => {
    const checks = await gather(o);
    output(o, { url: client(o).base, checks }, renderDoctor);
    if (checks.some((c) => !c.ok)) process.exitCode = 1;
  });
}
