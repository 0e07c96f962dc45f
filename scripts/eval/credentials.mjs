// `npm run eval -- credentials [--corpus <file>] [--baseline <commit>] [--data <dir>] [--show N]`:
// the credential and personal-data detector on the labelled corpus
// (tests/fixtures/privacy/credentials.jsonl): per class, recall (the secret is gone after
// masking) and precision (near misses of the class left alone), dev and held, today's detector
// next to the one at --baseline in the same run; then the false-mask rate on ordinary chat —
// messages changed per 10,000 — over the turns of the shared LoCoMo, KdConv and MemoryBank
// sets (--data, or AKASHA_EVAL_DATA, is the folder holding locomo/, kdconv/, memorybank-zh/,
// memorybank-en/). --show N prints N masked ordinary messages per dataset for inspection.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { root } from "../lib/dev-vars.mjs";
import { importTs } from "../lib/ts-import.mjs";
import { readerTrainsOn } from "../privacy/reader-split.mjs";
import { importAt } from "./baseline-source.mjs";
import { conversationSets, ordinaryConversations } from "./credential-conversations.mjs";
import { sentencesBeforeValues } from "./credential-sentences.mjs";
import { evalDataDir } from "./data-dir.mjs";
import { sweepOnOrdinaryChat } from "./log-sweep.mjs";

export const CREDENTIAL_BASELINE = "77317ac";

const readJsonl = (file) =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));

/** A detector: how it masks one message, and how it reads a conversation of one sender. */
async function detector(load) {
  const credentials = await load("src/domain/privacy/credentials.ts");
  const cues = await load("src/domain/privacy/announced-credential.ts");
  const { maskInboundEvent } = await load("src/domain/inbound/mask-inbound-event.ts");
  // A person's message is masked where it comes in, by the rules and the trained reader of values.
  const mask =
    credentials.maskSensitiveDataInMessage ?? credentials.maskSensitiveData ?? credentials.maskCredentials;
  // Messages of one sender (strings), or of a group ({ sender, text }), in order; `addressed`: each
  // said to the bot, as in a private chat or a QQ official group.
  // A value its sender names afterwards, where the revision holds that (decision 0860).
  const named = await load("src/domain/privacy/named-afterwards.ts").catch(() => null);
  const conversation = (messages, addressed = false) => {
    let state = {};
    const events = messages.map((line, i) => {
      const { sender, text } = typeof line === "string" ? { sender: "U", text: line } : line;
      const ts = 1_700_000_000_000 + i * 1000;
      const event = {
        kind: "message",
        sender: { account: `qq:user:${sender}`, displayName: null },
        message: { id: `m${i}`, text: mask(text), ts, addressedToBot: addressed, attachments: [] },
        raw: {},
      };
      const out = cues.applyCredentialCues(event, state, ts);
      state = out.cues;
      return out.event;
    });
    return (named ? named.maskNamedInOrder(events) : events).map((e) => e.message.text);
  };
  // A whole QQ group message as it comes in: its text and the payload's `content` that repeats it.
  const inbound = (text) =>
    maskInboundEvent({
      eventId: "E",
      kind: "message",
      chat: { key: "qq:group:G", channel: "qq", targetType: "group", targetId: "G" },
      sender: { userId: "U", account: "qq:user:U", displayName: null, isBot: false },
      message: { id: "m", text, ts: 0, addressedToBot: false, attachments: [], quotedMessageId: null },
      raw: { d: { id: "m", content: text } },
    });
  // Whether a group member's message would wait for its naming: the cost of decisions 0860 and
  // 0870 on ordinary chat, which reaches the short-term context late.
  const held = (text) =>
    named !== null &&
    named.valueToName({ kind: "message", message: { text, ts: 0, addressedToBot: false } }) !== null;
  return { mask, conversation, inbound, held };
}

/** The median over three passes of `f` on every text, in µs a text (a shared machine is noisy). */
function usPerText(texts, f) {
  const passes = [0, 1, 2].map(() => {
    const t0 = performance.now();
    for (const t of texts) f(t);
    return (performance.now() - t0) / texts.length;
  });
  return Math.round(passes.sort((a, b) => a - b)[1] * 1000);
}

function caught(d, row) {
  const masked = row.messages ? d.conversation(row.messages).join(" / ") : d.mask(row.text);
  if (row.label === "none") return masked !== (row.messages ? row.messages.join(" / ") : row.text);
  if (row.words) return row.words.filter((w) => new RegExp(`\\b${w}\\b`, "i").test(masked)).length <= 2;
  return !masked.includes(row.secret);
}

const pct = (x) => (x === null ? "    –" : `${(x * 100).toFixed(1)}%`.padStart(6));

function table(rows, detectors) {
  const classes = [...new Set(rows.map((r) => r.class))].sort();
  console.log(`${"".padEnd(18)}${detectors.map(([n]) => n.padEnd(34)).join("")}`);
  console.log(`${"class".padEnd(18)}${detectors.map(() => "dev P/R          held P/R        ").join("")}`);
  const line = (cls) => {
    const cells = detectors.map(([, d]) => {
      return ["dev", "held"]
        .map((split) => {
          const pick = rows.filter((r) => r.split === split && (cls === "all" || r.class === cls));
          const tp = pick.filter((r) => r.label !== "none" && caught(d, r)).length;
          const fn = pick.filter((r) => r.label !== "none").length - tp;
          const fp = pick.filter((r) => r.label === "none" && caught(d, r)).length;
          const p = tp + fp === 0 ? null : tp / (tp + fp);
          const r = tp + fn === 0 ? null : tp / (tp + fn);
          return `${pct(p)}/${pct(r)}`;
        })
        .join("  ");
    });
    console.log(`${cls.padEnd(18)}${cells.map((c) => c.padEnd(34)).join("")}`);
  };
  for (const cls of classes) line(cls);
  line("all");
}

/**
 * Blind sets of single messages that were read while their rule was written (decisions 0730,
 * 0750, 0790 and 0920), or retired after they were measured (han E, decision 0850; security 5,
 * decision 0950; han F, decision 0960): dev data, which the eval prints and the trained reader
 * learns from (decision 0930).
 */
export const READ_SETS = [
  "credentials-read-documents.jsonl",
  "credentials-read-mixed-n.jsonl",
  "credentials-read-security-4.jsonl",
  ...["a", "b", "c", "d", "e"].map((x) => `credentials-read-han-${x}.jsonl`),
  "credentials-read-security-5.jsonl",
  "credentials-read-han-f.jsonl",
  "credentials-read-verbs.jsonl",
];

/**
 * What the reader of values in Chinese words learns from besides: the read sets, ordinary
 * messages that set a Chinese phrase apart the way a value is (a group's name, a catchphrase), and
 * two more sets of such values, written for it (docs/decisions/0970-a-reader-of-chinese-word-values.md).
 */
export const HAN_READ_SETS = [
  ...READ_SETS,
  "credentials-read-han-lookalikes.jsonl",
  "credentials-read-han-i.jsonl",
  "credentials-read-han-j.jsonl",
];

/**
 * The held-back set: lines written blind and never read while the rules were tuned, so they carry
 * no marked secret. A positive counts when the detector masks anything in it, a near miss when it
 * changes anything.
 */
function heldBack(detectors) {
  for (const name of [
    "credentials-held-back.jsonl",
    "credentials-held-back-commands.jsonl",
    "credentials-held-back-forms.jsonl",
    "credentials-held-back-chat.jsonl",
    "credentials-held-back-j.jsonl",
    "credentials-held-back-k.jsonl",
    "credentials-held-back-platforms.jsonl",
    "credentials-held-back-security.jsonl",
    "credentials-held-back-security-6.jsonl",
    "credentials-held-back-han-g.jsonl",
    "credentials-held-back-han-h.jsonl",
    "credentials-held-back-documents.jsonl",
    "credentials-held-back-verbs.jsonl",
    "credentials-held-back-code-words.jsonl",
  ]) {
    const file = path.join(root, "tests/fixtures/privacy", name);
    if (existsSync(file)) heldBackSet(file, detectors);
  }
  // The read sets: dev numbers, printed so that the experiments' can be run again.
  for (const name of HAN_READ_SETS) {
    const file = path.join(root, "tests/fixtures/privacy", name);
    if (existsSync(file)) heldBackSet(file, detectors, "read while its rule was written");
  }
  // Read, and learned from in a step that was not kept (experiment 0760): dev numbers too.
  const notLearned = path.join(root, "tests/fixtures/privacy/credentials-read-code-words.jsonl");
  if (existsSync(notLearned)) heldBackSet(notLearned, detectors, "read, not learned from");
}

function heldBackSet(file, detectors, title = "held back, never tuned on") {
  const rows = readJsonl(file);
  const positives = rows.filter((r) => r.label !== "none");
  const negatives = rows.filter((r) => r.label === "none" && r.form !== "ordinary");
  const ordinary = rows.filter((r) => r.label === "none" && r.form === "ordinary");
  const marked = positives.filter((r) => typeof r.secret === "string");
  console.log(`\n${title} (${path.relative(root, file)}):`);
  for (const [label, d] of detectors) {
    const changed = (r) => d.mask(r.text) !== r.text;
    const parts = [
      `positives masked ${positives.filter(changed).length}/${positives.length}`,
      ...(marked.length
        ? [`secret gone ${marked.filter((r) => !d.mask(r.text).includes(r.secret)).length}/${marked.length}`]
        : []),
      `near misses changed ${negatives.filter(changed).length}/${negatives.length}`,
      ...(ordinary.length ? [`ordinary changed ${ordinary.filter(changed).length}/${ordinary.length}`] : []),
    ];
    console.log(`  ${label.padEnd(20)} ${parts.join(", ")}`);
  }
}

/** The ordinary chat messages of each shared dataset. */
/** Every distinct message of each shared dataset (LoCoMo, KdConv, MemoryBank zh and en), by name. */
export function datasets(dir) {
  const out = [];
  const add = (name, file, pick) => {
    const full = path.join(dir, file);
    if (!existsSync(full)) return console.log(`(${name}: ${full} not found, skipped)`);
    const texts = new Set();
    for (const row of readJsonl(full))
      for (const t of pick(row)) if (typeof t === "string" && t.trim()) texts.add(t);
    out.push([name, [...texts]]);
  };
  add("LoCoMo", "locomo/turns.jsonl", (r) => [r.text]);
  add("KdConv", "kdconv/queries.dev.jsonl", (r) => [r.query, ...(r.context ?? [])]);
  add("MemoryBank-zh", "memorybank-zh/turns.jsonl", (r) => [r.text]);
  add("MemoryBank-en", "memorybank-en/turns.jsonl", (r) => [r.text]);
  return out;
}

export async function evalCredentials(flags) {
  const file =
    typeof flags.corpus === "string"
      ? flags.corpus
      : path.join(root, "tests/fixtures/privacy/credentials.jsonl");
  const baseline = typeof flags.baseline === "string" ? flags.baseline : CREDENTIAL_BASELINE;
  const rows = readJsonl(file);
  const detectors = [
    [`before (${baseline})`, await detector((f) => importAt(baseline, f))],
    ["after", await detector(importTs)],
  ];
  const positives = rows.filter((r) => r.label !== "none").length;
  console.log(
    `credentials and personal numbers on ${path.relative(root, file)}: ${positives} positives, ${rows.length - positives} near misses`,
  );
  table(rows, detectors);
  if (flags.misses === "dev") {
    const after = detectors.at(-1)[1];
    for (const r of rows.filter((x) => x.split === "dev" && caught(after, x) === (x.label === "none"))) {
      console.log(
        `  ${r.label === "none" ? "false" : "missed"} [${r.class}] ${JSON.stringify(r.messages ?? r.text)}`,
      );
    }
  }

  const indirect = path.join(root, "tests/fixtures/privacy/credentials-indirect.jsonl");
  if (typeof flags.corpus !== "string" && existsSync(indirect)) {
    console.log(`\nvalues given without a keyword (${path.relative(root, indirect)}): precision/recall`);
    table(readJsonl(indirect), detectors);
  }

  heldBack(detectors);
  conversationSets(detectors);

  const dir = typeof flags.data === "string" ? flags.data : evalDataDir();
  ordinaryConversations(detectors, datasets(dir));
  console.log(`\nfalse masks on ordinary chat (${dir}): messages changed per 10,000`);
  const report = [];
  for (const [name, texts] of datasets(dir)) {
    const cells = detectors.map(([label, d]) => {
      const changed = texts.filter((t) => d.mask(t) !== t);
      // Indicative costs: masking the text, and the whole event where it comes in.
      return { label, changed, textUs: usPerText(texts, d.mask), eventUs: usPerText(texts, d.inbound) };
    });
    const rate = (n) => ((n / texts.length) * 10_000).toFixed(1);
    // The half of these messages the trained reader of values never learned from.
    const unseen = (c) => c.changed.filter((t) => !readerTrainsOn(t)).length;
    console.log(
      `${name.padEnd(15)} ${String(texts.length).padStart(6)} messages  ${cells.map((c) => `${c.label}: ${rate(c.changed.length)} (${c.changed.length}; ${unseen(c)} never trained on)`).join("   ")}`,
    );
    console.log(
      `${"".padEnd(15)} µs a message, text / whole event: ${cells.map((c) => `${c.label}: ${c.textUs} / ${c.eventUs}`).join("   ")}`,
    );
    const show = Number(flags.show ?? 0);
    for (const t of cells.at(-1).changed.slice(0, show))
      console.log(`    ${cells.at(-1).label}: ${detectors.at(-1)[1].mask(t).slice(0, 160)}`);
    report.push({
      dataset: name,
      messages: texts.length,
      ...Object.fromEntries(cells.map((c) => [c.label, c.changed.length])),
    });
  }
  sentencesBeforeValues(detectors, datasets(dir));
  await sweepOnOrdinaryChat(datasets(dir));
  console.log(
    JSON.stringify({
      dataset: "credentials",
      corpus: path.relative(root, file),
      baseline,
      falseMasks: report,
    }),
  );
}
