// `npm run eval -- memorybank --turns <turns.jsonl> --questions <questions.jsonl>`: MemoryBank
// (zh or en). Each user's ten daily sessions go into the live message log as one private chat
// (the user's utterances inbound, the companion's as the bot's replies), each day's
// utterances a minute apart from 10:00; every question is asked the day after the user's last
// session. Scored where the dataset knows the evidence day (`evidence_session`): an item is
// right when it was said on that day. `named_day` = questions that name the day in their text
// (evidence_rule "date-in-question"); `live` resolves that day through history_search's date
// resolution, `plain` is the same search of the words alone, in the same run.
// `recallQuestions` (--recall-questions <file>, the memory-recall set's format): the same log
// searched for what the user said, asked in other words; scored like memory recall (hit@k of
// the gold utterance among the matches). `liveDump` (--live-dump <file>) dumps those questions.
import { askAll, DAY_MS, dumpLive, recallAt, shanghai, writeLog } from "./history-log.mjs";
import { hitMetrics, readMemoryQuestions } from "./memory-recall.mjs";

export async function evalMemorybank({ post, readJsonl, maxQueries, recallQuestions, split, liveDump }) {
  const turns = readJsonl("turns");
  const chatOf = (conv) => `eval:private:${conv}`;
  const byChat = new Map();
  const dayOf = new Map();
  const lastDay = new Map();
  const perDay = new Map();
  for (const t of turns) {
    const chat = chatOf(t.conv_id);
    if (!byChat.has(chat)) byChat.set(chat, []);
    const n = (perDay.get(`${chat} ${t.date}`) ?? 0) + 1;
    perDay.set(`${chat} ${t.date}`, n);
    byChat.get(chat).push({
      id: t.dia_id,
      ts: shanghai(`${t.date}T10:00:00`) + n * 60_000,
      speaker: t.speaker,
      role: t.role,
      text: t.text,
    });
    dayOf.set(`${t.conv_id} ${t.session}`, t.date);
    if ((lastDay.get(t.conv_id) ?? "") < t.date) lastDay.set(t.conv_id, t.date);
  }
  const written = await writeLog(post, byChat);
  const nextDay = (conv) => shanghai(`${lastDay.get(conv)}T12:00:00`) + DAY_MS;
  if (recallQuestions) {
    const turnsByConv = Map.groupBy(turns, (t) => t.conv_id);
    const asked = readMemoryQuestions(recallQuestions, turnsByConv)
      .filter(split)
      .slice(0, maxQueries)
      .map((q) => ({ ...q, text: q.question, chat: chatOf(q.conv_id), now: nextDay(q.conv_id) }));
    if (liveDump) await dumpLive(post, liveDump, byChat, asked, (q) => q.gold);
    const matchIds = (results) =>
      new Map(
        [...results].map(([id, r]) => [
          id,
          r.items.filter((it) => it.via !== "context").map((it) => it.message_id),
        ]),
      );
    return {
      dataset: "memorybank",
      turns: written,
      recall_questions: asked.length,
      live: hitMetrics(matchIds(await askAll(post, "live", asked)), asked),
      live_lexical_only: hitMetrics(
        matchIds(await askAll(post, "live", asked, 10, { lexical: true })),
        asked,
      ),
      plain: hitMetrics(matchIds(await askAll(post, "plain", asked)), asked),
    };
  }
  const all = readJsonl("questions");
  const questions = all
    .filter((q) => Array.isArray(q.evidence_session) && q.evidence_session.length > 0)
    .slice(0, maxQueries)
    .map((q) => ({
      ...q,
      id: q.qid,
      text: q.question,
      chat: chatOf(q.conv_id),
      now: nextDay(q.conv_id),
      days: q.evidence_session.map((s) => dayOf.get(`${q.conv_id} ${s}`)),
    }));
  const named = questions.filter((q) => q.evidence_rule === "date-in-question");
  // An item's key: the day it was said (its dia_id is `<date>:<n>`).
  const keysOf = (it) => [it.message_id.split(":")[0]];
  const gold = (q) => q.days;
  const ks = [1, 5, 10];
  const live = await askAll(post, "live", questions);
  const plain = await askAll(post, "plain", questions);
  const resolvedRight = named.filter((q) => {
    const r = live.get(q.id)?.resolved;
    return (
      r?.since != null &&
      q.days.every((d) => shanghai(`${d}T00:00:00`) === r.since && r.until - r.since === DAY_MS)
    );
  }).length;
  return {
    dataset: "memorybank",
    turns: written,
    questions: all.length,
    with_evidence: questions.length,
    named_day: named.length,
    day_resolved: `${resolvedRight}/${named.length}`,
    live: {
      named_day: recallAt(live, named, gold, keysOf, ks),
      with_evidence: recallAt(live, questions, gold, keysOf, ks),
    },
    plain: {
      named_day: recallAt(plain, named, gold, keysOf, ks),
      with_evidence: recallAt(plain, questions, gold, keysOf, ks),
    },
  };
}
