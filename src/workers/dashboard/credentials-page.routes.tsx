/**
 * The Credentials page's routes (credentials-page.tsx), through the request's memory and
 * credential-sweep services, the same ones `/api/memory/credentials`, `/api/log-credentials`
 * and `akasha memory|log credentials` use. A page reads memory from `?from=` up to a budget; an
 * erasure takes the ticked ids only when "确定" is ticked and every id holds a credential; a press
 * of 检查 or 遮盖 runs one step of the log sweep, and a 继续 form carries its cursor and counts on.
 * A refusal answers 400 with the page and the reason, having changed nothing.
 */
import { type Context, Hono } from "hono";
import type { SweepStepReport } from "../../composition/request/credential-sweep-service";
import type { DomainError } from "../../domain/kernel/result";
import { EraseBody, FromQuery, LogForm, MAX_ERASE } from "../admin-input/credential-input";
import { validate } from "../admin-input/validate";
import type { AppEnv } from "../app-env";
import { CSRF_FIELD } from "../auth/csrf";
import { CredentialsPage, type LogRun, type LogTotals, type MemoryScan } from "./credentials-page";
import { pageContext } from "./page-context";
import { render } from "./page-render";

/** Items read a call, and at most a page; fewer than the ids one erasure takes, found or not. */
const SCAN_CALL = 50;
const SCAN_BUDGET = 2_000;
/**
 * A log run's time on this page: one step of the sweep a request, since a step is bounded in the
 * calls it makes as well, and a request's subrequests are counted (credential-sweep-service.ts).
 */
const STEP_MS = 20_000;

/** Memory from `from` on, call by call, until the budget or a screenful of findings. */
async function scanMemory(c: Context<AppEnv>, from: number): Promise<MemoryScan> {
  const memory = c.get("services").memory;
  const scan = {
    from,
    scanned: 0,
    total: 0,
    nextOffset: from as number | null,
    held: [] as MemoryScan["held"][number][],
  };
  while (scan.nextOffset !== null && scan.scanned < SCAN_BUDGET && scan.held.length < MAX_ERASE - SCAN_CALL) {
    const page = await memory.heldCredentials({ limit: SCAN_CALL, offset: scan.nextOffset });
    scan.scanned += page.scanned;
    scan.total = page.total;
    scan.held.push(...page.held);
    scan.nextOffset = page.nextOffset;
  }
  return scan;
}

/** The page; `from: null` reads no memory (the offset asked for was refused). */
async function credentialsPage(
  c: Context<AppEnv>,
  extra: { from?: number | null; run?: LogRun; notice?: string; error?: string } = {},
  status: 200 | 400 = 200,
) {
  const scan = extra.from === null ? null : await scanMemory(c, extra.from ?? 0);
  return render(
    c,
    "/admin/credentials",
    c.get("i18n").t("nav.credentials"),
    <CredentialsPage
      scan={scan}
      run={extra.run ?? null}
      csrf={(await pageContext(c)).csrf}
      notice={extra.notice}
      error={extra.error}
    />,
    status,
  );
}

const said = (e: DomainError) => (e.kind === "invalid" ? `${e.field} ${e.reason}` : e.kind);

/** The ticked ids, as a form sends one field per ticked box. */
async function tickedIds(c: Context<AppEnv>) {
  const form = await c.req.parseBody({ all: true });
  const ids = ([] as unknown[]).concat(form.id ?? []).filter((v): v is string => typeof v === "string");
  const from = validate(FromQuery.pick({ from: true }), { from: form.from ?? "0" });
  return { ids, sure: form.sure === "yes", from: from.ok ? from.value.from : 0 };
}

async function erase(c: Context<AppEnv>) {
  const t = c.get("i18n").t;
  const { ids, sure, from } = await tickedIds(c);
  if (ids.length === 0) return credentialsPage(c, { from, error: t("credentials.noneTicked") }, 400);
  if (!sure) return credentialsPage(c, { from, error: t("credentials.tickSureErase") }, 400);
  const body = validate(EraseBody, { ids });
  if (!body.ok)
    return credentialsPage(c, { from, error: t("credentials.notErased", { reason: said(body.error) }) }, 400);
  const erased = await c.get("services").memory.eraseCredentials(body.value.ids);
  if (!erased.ok) {
    const { notFound, notHeld } = erased.error;
    const reason = [
      ...(notFound.length ? [t("credentials.notFound", { ids: notFound.join(", ") })] : []),
      ...(notHeld.length ? [t("credentials.notHeld", { ids: notHeld.join(", ") })] : []),
    ].join("；");
    return credentialsPage(c, { from, error: t("credentials.notErased", { reason }) }, 400);
  }
  const notice = t("credentials.erased", { n: erased.value.length });
  return c.redirect(`/admin/credentials?from=${from}&notice=${encodeURIComponent(notice)}`, 303);
}

const added = (a: LogTotals, s: SweepStepReport): LogTotals => ({
  logRead: a.logRead + s.log.read,
  logHolding: a.logHolding + s.log.holding,
  other: a.other + s.other,
  d1Read: a.d1Read + s.d1.read,
  d1Holding: a.d1Holding + s.d1.holding,
});

/**
 * One step of the log sweep from the form's cursor (from the start without one), its counts added
 * to those the form carried; a 继续 form goes on where it stopped.
 */
async function runLog(c: Context<AppEnv>) {
  const t = c.get("i18n").t;
  const { [CSRF_FIELD]: _token, ...fields } = await c.req.parseBody();
  const form = validate(LogForm, fields);
  if (!form.ok)
    return credentialsPage(c, { error: t("credentials.badLog", { reason: said(form.error) }) }, 400);
  const { mode, sure, cursor, ...carried } = form.value;
  const mask = mode === "mask";
  if (mask && sure !== "yes") return credentialsPage(c, { error: t("credentials.tickSureMask") }, 400);
  const step = await c.get("services").credentialSweep.step({ mask, cursor: cursor ?? null, maxMs: STEP_MS });
  if (!step.ok) return credentialsPage(c, { error: t("credentials.badCursor", { reason: step.error }) }, 400);
  return credentialsPage(c, { run: { mask, totals: added(carried, step.value), last: step.value } });
}

export const credentialsPageRoutes = new Hono<AppEnv>()
  .get("/", async (c) => {
    const q = validate(FromQuery, c.req.query());
    if (!q.ok) return credentialsPage(c, { from: null, error: c.get("i18n").t("credentials.badFrom") }, 400);
    return credentialsPage(c, { from: q.value.from, ...(q.value.notice ? { notice: q.value.notice } : {}) });
  })
  .post("/erase", erase)
  .post("/log", runLog);
