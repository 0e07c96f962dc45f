// `npm run akasha -- log migrate [--status | --retry]` and `log rollback`: the owner's copy of
// each chat's D1 message log into the chat's object (docs/storage.md#moving-the-log-into-the-chat-objects)
// through the admin API. `migrate` calls bounded steps until every chat is verified, skipped or a
// mismatch, printing where it stands after each; stopped anywhere, it goes on from there when run
// again. `--status` only reads; `--retry` first reopens the chats that did not verify.
// `rollback` sends the verified chats' reads back to D1, each object first queuing for D1 what
// it alone logged since it became the home. `delete-d1` lists the old D1 rows of verified chats,
// and with `--yes` deletes them (the Worker checks each chat again first; no rollback after).
// `credentials [--mask --yes]` reads every log again with today's credential detectors
// (log-credentials.mjs).
import { CliError, command as define, integer, withApiOptions } from "../lib/args.mjs";
import { client } from "./admin-api.mjs";
import { t } from "./i18n/lang.mjs";
import { credentialsCommand } from "./log-credentials.mjs";

const print = (x) => console.log(JSON.stringify(x, null, 2));

/** Steps one run makes at most (each bounded by the Worker); a run that needs more says so. */
const MAX_STEPS = 100_000;

/** One line of progress: chats verified of all, skipped and mismatched, rows copied of D1's. */
export function progressLine(p) {
  return t("log.progress", {
    verified: p.chats.verified,
    total: p.chats.total,
    skipped: p.chats.skipped,
    mismatch: p.chats.mismatch,
    copied: p.rows.copied,
    rows: p.rows.total,
  });
}

/** A mismatch's reason in the CLI's language where the Worker gave counts (`object 3, D1 5 (-2)`). */
export function mismatchReason(detail) {
  const counts = /^object (\d+), D1 (\d+) \(([+-]\d+)\)$/.exec(String(detail ?? ""));
  if (counts) return t("log.counts", { object: counts[1], d1: counts[2], difference: counts[3] });
  const refused = /^refused: (.*)$/s.exec(String(detail ?? ""));
  return refused ? t("log.refused", { reason: refused[1] }) : String(detail ?? "?");
}

function summary(p) {
  const lines = [progressLine(p)];
  for (const m of p.mismatches)
    lines.push(t("log.mismatch", { chat: m.chatKey, reason: mismatchReason(m.detail) }));
  if (p.chats.total === 0) lines.push(t("log.notStarted"));
  else if (p.done && p.chats.mismatch > 0) lines.push(t("log.retryHint", { n: p.chats.mismatch }));
  else if (p.done) lines.push(t("log.done", { n: p.chats.verified + p.chats.skipped }));
  return lines.join("\n");
}

async function status(o) {
  const p = await client(o).call("GET", "/log-migration");
  if (o.json) print(p);
  else console.log(summary(p));
}

async function migrate(o) {
  if (o.status) return status(o);
  const api = client(o);
  if (o.retry) {
    const r = await api.call("POST", "/log-migration/retry", {});
    if (!o.json) console.log(t("log.retried", { n: r.reopened }));
  }
  const budget = {
    ...(o.pageSize ? { pageSize: o.pageSize } : {}),
    ...(o.maxRows ? { maxRows: o.maxRows } : {}),
  };
  for (let step = 1; step <= MAX_STEPS; step++) {
    const p = await api.call("POST", "/log-migration/step", budget);
    if (!o.json && !p.done) console.log(progressLine(p));
    if (p.done) {
      if (o.json) print(p);
      else console.log(summary(p));
      if (p.chats.mismatch > 0) process.exitCode = 1;
      return;
    }
  }
  throw new CliError(t("log.unfinished", { n: MAX_STEPS }), 1);
}

async function rollback(o) {
  const api = client(o);
  let total = 0;
  for (;;) {
    const r = await api.call("POST", "/log-migration/rollback", {});
    total += r.rolledBack;
    if (r.left === 0 || r.rolledBack === 0) {
      if (o.json) print({ rolledBack: total, progress: r.progress });
      else console.log(t("log.rolledBack", { n: total }));
      return;
    }
  }
}

async function deleteD1(o) {
  const api = client(o);
  if (!o.yes) {
    const r = await api.call("POST", "/log-migration/delete-d1", {});
    if (o.json) return print(r);
    const more = r.left > 0 ? t("log.deleteMore") : "";
    console.log(t("log.deletePreview", { chats: r.chats.length, rows: r.rows, more }));
    return;
  }
  let chats = 0;
  let rows = 0;
  for (;;) {
    const r = await api.call("POST", "/log-migration/delete-d1", { confirm: true });
    const deleted = r.chats.filter((c) => c.outcome === "deleted");
    chats += deleted.length;
    rows += r.rows;
    if (!o.json)
      for (const c of r.chats.filter((x) => x.outcome === "kept"))
        console.log(t("log.deleteKept", { chat: c.chatKey, reason: c.reason }));
    if (r.left === 0 || deleted.length === 0) break;
  }
  if (o.json) print({ chats, rows });
  else console.log(t("log.deleted", { chats, rows }));
}

export function command(name = "log") {
  const log = define(name).description(t("summary.log"));
  log.addCommand(
    withApiOptions(
      define("migrate")
        .description(t("log.desc.migrate"))
        .option("--status", t("log.opt.status"))
        .option("--retry", t("log.opt.retry"))
        .option("--page-size <n>", t("log.opt.pageSize"), integer(1, 1000))
        .option("--max-rows <n>", t("log.opt.maxRows"), integer(1, 50_000)),
    ).action(migrate),
  );
  log.addCommand(withApiOptions(define("rollback").description(t("log.desc.rollback"))).action(rollback));
  log.addCommand(
    withApiOptions(
      define("delete-d1").description(t("log.desc.deleteD1")).option("--yes", t("log.opt.yes")),
    ).action(deleteD1),
  );
  log.addCommand(credentialsCommand());
  return log;
}
