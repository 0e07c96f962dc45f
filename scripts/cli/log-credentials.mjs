// `npm run akasha -- log credentials [--mask --yes]`: every message log — each chat object's,
// then D1's — read again by today's credential detectors, kept before a detector read it
// (docs/decisions/0990-logs-kept-before-a-detector-read-them.md). The Worker sweeps in bounded
// steps (POST /api/log-credentials/step); the CLI passes each answer's cursor back until done,
// with a bar over the chats, and sums the steps' counts. Without --mask it only counts the rows
// that hold a value; with --mask --yes each is rewritten masked (the Worker audits it). A chat
// whose object failed is named and the run exits 1: a re-run reads everything again, and a
// masked row reads as clean.
import { CliError, command as define, withApiOptions } from "../lib/args.mjs";
import { client } from "./admin-api.mjs";
import { output } from "./format.mjs";
import { t } from "./i18n/lang.mjs";
import { progressBar } from "./progress.mjs";

/** Steps one run makes at most (each bounded by the Worker): a Worker that never says done is stopped. */
export const MAX_STEPS = 100_000;

/** The Worker's refusal of a cursor it gave (a deploy between two steps, say), by its code. */
const refusals = {
  "invalid:cursor": (problem) => t("log.credentials.badCursor", { reason: problem.reason ?? "?" }),
};

const none = (mask) => ({
  mask,
  log: { read: 0, holding: 0 },
  other: 0,
  d1: { read: 0, holding: 0 },
  unswept: [],
});

/** The run's totals with one step's counts added. */
export function addStep(totals, step) {
  return {
    mask: totals.mask,
    log: { read: totals.log.read + step.log.read, holding: totals.log.holding + step.log.holding },
    other: totals.other + step.other,
    d1: { read: totals.d1.read + step.d1.read, holding: totals.d1.holding + step.d1.holding },
    unswept: [...totals.unswept, ...step.unswept],
  };
}

/** Every step of one sweep, from the start until the Worker says done; the summed counts. */
async function sweep(api, o, mask) {
  const bar = progressBar(o, "chats");
  let totals = none(mask);
  let cursor = null;
  try {
    for (let step = 1; step <= MAX_STEPS; step++) {
      const body = { mask, ...(cursor === null ? {} : { cursor }) };
      const answer = await api.call("POST", "/log-credentials/step", body, refusals);
      totals = addStep(totals, answer);
      bar.update(answer.progress.chatsBefore, answer.progress.chats);
      if (answer.done) return totals;
      cursor = answer.cursor;
    }
  } finally {
    bar.stop();
  }
  throw new CliError(t("log.credentials.unfinished", { n: MAX_STEPS }), 1);
}

/** The summary in the CLI's language: rows read, rows holding a value, what to do, chats unread. */
export function renderSweep(s) {
  const held = s.log.holding + s.other + s.d1.holding;
  const lines = [t("log.credentials.read", { log: s.log.read, d1: s.d1.read })];
  if (held === 0) lines.push(t("log.credentials.clean"));
  else {
    lines.push(t("log.credentials.holding", { log: s.log.holding, d1: s.d1.holding, other: s.other }));
    lines.push(t(s.mask ? "log.credentials.masked" : "log.credentials.found", { n: held }));
  }
  if (s.unswept.length > 0) lines.push(t("log.credentials.unswept", { n: s.unswept.length }));
  for (const u of s.unswept) lines.push(t("log.credentials.unsweptChat", { chat: u.chat, error: u.error }));
  return lines.join("\n");
}

async function credentials(o) {
  if (o.mask && !o.yes) throw new CliError(t("log.credentials.maskNeedsYes"));
  const totals = await sweep(client(o), o, o.mask === true);
  output(o, totals, renderSweep);
  if (totals.unswept.length > 0) process.exitCode = 1;
}

export function credentialsCommand() {
  return withApiOptions(
    define("credentials")
      .description(t("log.desc.credentials"))
      .option("--mask", t("log.opt.mask"))
      .option("--yes", t("log.opt.confirmMask")),
  ).action(credentials);
}
