// Own file: a chat domain is set through the stored settings, which every test of a file shares.
// A group message whose speaker asked for privacy ("这事别外传啊，我下个月离职", or "我下个月离职"
// then "别说出去哈") is logged marked and is never served to a sibling chat of its domain,
// whichever history tool reads it (docs/invariants.md#one-read-gate); its own chat still reads
// it. Every line of the labelled wording corpus, and of the requests written blind as QQ groups
// type them (tests/fixtures/privacy/requests-wild.jsonl), is written to group A through the chat
// object's record and write it to the log (the production writers), then read from sibling group
// B and from A.
import { env } from "cloudflare:workers";
import { D1DailySummaries } from "@src/adapters/d1/d1-daily-summaries";
import { openDatabase } from "@src/adapters/d1/database";
import { inboundRecord, type MessageRecord } from "@src/domain/history/message-record";
import { beforeAll, describe, it } from "vitest";
import { messageEvent } from "../fakes/inbound";
import { uid as idOf } from "../support/identity";
import { uid } from "../support/memory";
import { objectLogRows, writeLog } from "../support/object-log";
import { type LabelledRequest, PRIVACY_REQUESTS, WILD_REQUESTS } from "../support/privacy-requests";
import { siblingGroups } from "../support/sibling-groups";
import { type ToolCallSpec, toolTurn } from "../support/turns";

const run = uid().slice(0, 6);
const GROUP_A = `qq:group:${idOf("GA")}`;
const GROUP_B = `qq:group:${idOf("GB")}`;
const MEMBER_B = idOf("MB");
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
/** China's offset: the calendar zone history reads days in (Asia/Shanghai, no summer time). */
const CHINA = 8 * 60 * MINUTE;
/**
 * 01:00 two days ago in China, so that no line is newer than a turn's own time and all of them
 * (about eight hours) fall on one day. A line naming a weekday ("周五交报告", "friday") makes
 * history_search read that day first: with the lines on one day, that day holds all of them or
 * none, whatever the hour the test runs. Starting at "now minus two days" let the lines cross
 * midnight at some hours, and that day's other lines then filled the answer.
 */
const START = Math.floor((Date.now() + CHINA) / DAY) * DAY - CHINA - 2 * DAY + 60 * MINUTE;
// The control names no day or hour: "周六…" made history_search read that weekday first, and
// on a run two days after a Saturday (China time) all the lines fell on it and filled the answer.
const CONTROL = `在北门集合去爬山，记得带水 ${run}`;

/** A line of either set: its message, its label, and the statement a marker points at. */
type Line = Pick<LabelledRequest, "text" | "label" | "previous" | "next">;

/** One corpus line as logged: the content a request is about, and the messages that carry it. */
type Case = {
  readonly line: Line;
  /** The message whose words the line is about: marked when the line is a request. */
  readonly content: string;
  readonly messages: readonly string[];
};

function caseOf(line: Line): Case {
  if (line.previous !== undefined)
    return { line, content: line.previous, messages: [line.previous, line.text] };
  if (line.next !== undefined) return { line, content: line.text, messages: [line.text, line.next] };
  return { line, content: line.text, messages: [line.text] };
}

const CASES = [...PRIVACY_REQUESTS, ...WILD_REQUESTS].map(caseOf);
const requests = CASES.filter((c) => c.line.label === "request");
const others = CASES.filter((c) => c.line.label === "none");

/**
 * Each line by its own member, a minute after the previous line; a line's messages ten seconds
 * apart. Pairs whose marker comes second are written marker first in one case of two, as OneBot
 * backfill writes pages newest first: the log marks them alike.
 */
function records(): MessageRecord[] {
  const out: MessageRecord[] = [];
  CASES.forEach((c, i) => {
    const sender = `M${run}${i}`;
    const rows = c.messages.map((text, j) => {
      const event = messageEvent({
        chat: GROUP_A,
        text,
        sender,
        name: `群友${i}`,
        id: `${run}-${i}-${j}`,
        ts: START + i * MINUTE + j * 10_000,
        addressedToBot: false,
      });
      const record = inboundRecord(event);
      if (!record) throw new Error("no record");
      return record;
    });
    out.push(...(i % 2 === 0 ? rows : [...rows].reverse()));
  });
  const control = inboundRecord(
    messageEvent({
      chat: GROUP_A,
      text: CONTROL,
      sender: `C${run}`,
      id: `${run}-control`,
      ts: Date.now() - MINUTE,
    }),
  );
  if (control) out.push(control);
  return out;
}

/** Runs the calls in turns of at most 40 in `chat`: every tool's answer, in order. */
async function ask(chat: string, calls: readonly ToolCallSpec[]) {
  const answers: string[] = [];
  for (let i = 0; i < calls.length; i += 40) {
    const turn = await toolTurn(chat, chat === GROUP_B ? MEMBER_B : `M${run}0`, calls.slice(i, i + 40));
    answers.push(...turn.answers);
  }
  return { answers };
}

/**
 * The texts the log marked, read back from D1, less those that some other line of the corpus
 * also says unmarked (the same statement before a marker and before a non-marker).
 */
async function markedContents(): Promise<Set<string>> {
  const { results } = await env.DB.prepare("SELECT text, private_marked FROM messages WHERE chat_key = ?1")
    .bind(GROUP_A)
    .all<{ text: string; private_marked: number }>();
  const open = new Set(results.filter((r) => r.private_marked === 0).map((r) => r.text));
  return new Set(results.filter((r) => r.private_marked !== 0 && !open.has(r.text)).map((r) => r.text));
}

/** The ids of the messages the log marked. */
async function markedIds(): Promise<Set<string>> {
  const { results } = await env.DB.prepare(
    "SELECT message_id FROM messages WHERE chat_key = ?1 AND private_marked <> 0",
  )
    .bind(GROUP_A)
    .all<{ message_id: string }>();
  return new Set(results.map((r) => r.message_id));
}

/** Long enough for a few hundred tool calls on a shared machine. */
const LONG = 300_000;

beforeAll(async () => {
  await siblingGroups(`team${run}`, GROUP_A, GROUP_B);
  const all = records();
  await writeLog(all);
});

describe("a message its speaker marked private stays in its chat", () => {
  it("the log marks the corpus' requests, their pointed-at messages, and almost nothing else", async ({
    expect,
  }) => {
    const marked = await markedIds();
    // The chat object's own log marks exactly what D1's does: the same triggers on the same rows.
    const inObject = (await objectLogRows(GROUP_A))
      .filter((r) => r.private_marked !== 0)
      .map((r) => r.message_id);
    expect(new Set(inObject)).toEqual(marked);
    // A line's content is its first message (the statement a next-message marker points at).
    const id = (c: Case) => `${run}-${CASES.indexOf(c)}-0`;
    const missed = requests.filter((c) => !marked.has(id(c))).map((c) => c.content);
    const over = others.filter((c) => marked.has(id(c))).map((c) => c.content);
    // The recogniser's measured errors (npm run eval -- privacy-wording: on the corpus 1 request
    // missed and 13 near misses taken, dev and held together; on the blind lines 0 and 5;
    // experiments 0560, 0600, 0620 and 0630, whose families and trained reader read a literal
    // shush such as "🤫 图书馆里小声点" too) bound the log's; nothing else is lost or hidden.
    expect(missed.length, missed.join("\n")).toBeLessThanOrEqual(1);
    expect(over.length, over.join("\n")).toBeLessThanOrEqual(18);
    expect(marked.has(CONTROL)).toBe(false);
  });

  it(
    "no history tool of sibling group B serves a marked message, as a match or a context turn",
    async ({ expect }) => {
      const marked = await markedContents();
      const hidden = requests.filter((c) => marked.has(c.content));
      expect(hidden.length).toBeGreaterThan(200);
      const calls = hidden.flatMap((c): ToolCallSpec[] => [
        { name: "search_chat_history", args: { query: c.content, limit: 20 } },
        { name: "recall_cross_chat", args: { query: c.content, limit: 20 } },
        { name: "history_search", args: { query: c.content, chat: GROUP_A, limit: 20 } },
      ]);
      calls.push(
        { name: "history_recent", args: { chat: GROUP_A, limit: 50 } },
        { name: "find_chat", args: { query: "" } },
        { name: "search_chat_history", args: { query: CONTROL, limit: 20 } },
        { name: "recall_cross_chat", args: { query: CONTROL, limit: 20 } },
      );
      const { answers } = await ask(GROUP_B, calls);
      // Every tool result B's model received (its own calls hold the queries, so they are not read).
      const results = answers.join("\n");
      // A message of one or two characters ("嘘") is found as a substring of other lines: the
      // longer ones are checked.
      const findable = (t: string) => t.length > 2;
      const leaked = hidden
        .filter((c) => findable(c.content) && results.includes(c.content))
        .map((c) => c.content);
      expect(leaked).toEqual([]);
      // The markers themselves ("这个别外传") are marked too: none reaches B either.
      const markers = hidden.flatMap((c) => c.messages).filter((m) => marked.has(m) && findable(m));
      expect(markers.filter((m) => results.includes(m))).toEqual([]);
      // Control: A's unmarked message is read from B, by every cross-chat path.
      expect(answers.at(-2)).toContain(CONTROL);
      expect(answers.at(-1)).toContain(CONTROL);
      expect(answers.at(-4)).toContain(CONTROL);
    },
    LONG,
  );

  it(
    "group A's own turn reads its marked messages",
    async ({ expect }) => {
      const marked = await markedContents();
      // A line typed a character at a time ("这 事 别 外 传") is not found by its own words: that
      // is search, not privacy, so A is not asked for it.
      const spacedOut = /^(?:\S\s)+\S$/u;
      const hidden = requests.filter((c) => marked.has(c.content) && !spacedOut.test(c.content));
      const { answers } = await ask(
        GROUP_A,
        hidden.map((c) => ({ name: "history_search", args: { query: c.content, limit: 20 } })),
      );
      const unread = hidden.filter((c, i) => !answers[i]?.includes(c.content)).map((c) => c.content);
      expect(unread).toEqual([]);
    },
    LONG,
  );

  it(
    "a line that asks nothing stays readable from B",
    async ({ expect }) => {
      const marked = await markedContents();
      const open = others.filter((c) => !marked.has(c.content));
      const { answers } = await ask(
        GROUP_B,
        open.map((c) => ({ name: "history_search", args: { query: c.content, chat: GROUP_A, limit: 20 } })),
      );
      const unread = open.filter((c, i) => !answers[i]?.includes(c.content)).map((c) => c.content);
      expect(unread).toEqual([]);
    },
    LONG,
  );

  it("the daily summary of A's day reads no marked message, so none reaches a sibling through it", async ({
    expect,
  }) => {
    const marked = await markedIds();
    expect(marked.size).toBeGreaterThan(200);
    const day = await new D1DailySummaries(env.DB).dayMessages(GROUP_A, START - MINUTE, Date.now(), 5000);
    expect(day.filter((m) => marked.has(m.messageId)).map((m) => m.text)).toEqual([]);
    expect(day.map((m) => m.text)).toContain(CONTROL);
  });
});
