// LoCoMo on the live path: each conversation goes into the live message log as one group
// chat (every turn inbound from its speaker, at its session's time, a second apart; an image
// turn carries its caption as `[image: …]`, as the conversation-tree path indexes it), and
// every question is asked through history_search's code the day after the last session.
// Scored like the tree path: recall@k of the evidence turns (dia_id) among the top k matches.
// `live` is history_search as it runs (the log's conversation sessions and turn windows),
// `live_flat` the same search over the flat log (each message matched alone, context turns
// across sessions), `live_words_only` the live search with day and sender resolution off,
// `live_lexical_only` the live search without the reranker the settings may give history.
// `liveDump` (--live-dump <file>): every question with the live search's first 100 matches and
// what it resolved, for fusing another ranking offline (history-log.mjs, dumpLive).
import { byCategory } from "./by-category.mjs";
import { askAll, DAY_MS, dumpLive, recallAt, shanghai, writeLog } from "./history-log.mjs";

export async function evalLocomoLive({ post, readJsonl, maxQueries, split = () => true, liveDump }) {
  const turns = readJsonl("turns");
  const chatOf = (conv) => `locomo:group:${conv}`;
  const byChat = new Map();
  const last = new Map();
  const inSession = new Map();
  for (const t of turns) {
    const chat = chatOf(t.conv_id);
    if (!byChat.has(chat)) byChat.set(chat, []);
    const key = `${chat} ${t.session}`;
    const n = (inSession.get(key) ?? 0) + 1;
    inSession.set(key, n);
    const ts = shanghai(`${t.date_iso}:00`) + n * 1000;
    byChat.get(chat).push({
      id: t.dia_id,
      ts,
      speaker: t.speaker,
      role: "user",
      text: t.image_caption ? `${t.text} [image: ${t.image_caption}]` : t.text,
    });
    last.set(t.conv_id, Math.max(last.get(t.conv_id) ?? 0, ts));
  }
  const written = await writeLog(post, byChat);
  const questions = readJsonl("questions")
    .filter((q) => !q.adversarial && q.evidence.length > 0)
    .filter(split)
    .slice(0, maxQueries)
    .map((q) => ({
      ...q,
      id: q.qid,
      text: q.question,
      chat: chatOf(q.conv_id),
      now: last.get(q.conv_id) + DAY_MS,
    }));
  const keysOf = (it) => [it.message_id];
  const gold = (q) => q.evidence;
  const live = await askAll(post, "live", questions);
  const lexical = await askAll(post, "live", questions, 10, { lexical: true });
  const flat = await askAll(post, "flat", questions);
  const plain = await askAll(post, "plain", questions);
  if (liveDump) await dumpLive(post, liveDump, byChat, questions, gold);
  const phrases = questions.flatMap((q) => live.get(q.id)?.resolved?.phrase ?? []);
  return {
    turns: written,
    days_read: phrases.length,
    questions: questions.length,
    live: recallAt(live, questions, gold, keysOf, [5, 10]),
    live_lexical_only: recallAt(lexical, questions, gold, keysOf, [5, 10]),
    live_with_context: recallAt(live, questions, gold, keysOf, [5, 10], { withContext: true }),
    live_flat: recallAt(flat, questions, gold, keysOf, [5, 10]),
    live_flat_with_context: recallAt(flat, questions, gold, keysOf, [5, 10], { withContext: true }),
    live_words_only: recallAt(plain, questions, gold, keysOf, [5, 10]),
    // Per category: the live search next to the same run's words-only search (no day or
    // sender resolution), the plain baseline for temporal questions in particular.
    by_category: byCategory(questions, (subset) => ({
      live: recallAt(live, subset, gold, keysOf, [5, 10]),
      live_lexical_only: recallAt(lexical, subset, gold, keysOf, [5, 10]),
      live_words_only: recallAt(plain, subset, gold, keysOf, [5, 10]),
    })),
  };
}
