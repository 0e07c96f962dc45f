/**
 * What a question is about, without how it asks. Chinese questions wrap their topic in
 * phrases that carry no topic ("markRaw 是做什么的？什么时候需要用它"): the words of such a phrase
 * are dropped from term weighting already, but the bigrams the index matches run across them
 * ("是做", "做什", "么的") and are rare in documentation, so a search that keeps its rarest terms
 * ranks a code comment saying "这些 class 是做什么的" above the markRaw section. Cutting the
 * phrases out before tokenizing keeps those bigrams from forming (RAGFlow's query builder
 * strips question phrases the same way). Measured:
 * docs/decisions/0027-question-phrases-cut-before-tokenizing.md.
 */
import { QUESTION_WORDS } from "./question-words";

const SEGMENTER = new Intl.Segmenter("zh", { granularity: "word" });
const HAN = /^\p{Script=Han}+$/u;
const HAS_WORD_CHAR = /[\p{L}\p{N}]/u;

/**
 * Question words and the particles that end a question ("吗", "呢"), beyond the list term
 * weighting already drops; the segmenter may give a phrase whole or in two or three parts.
 */
const ASKING = new Set([
  ...QUESTION_WORDS,
  ..."什么时候 什么样 什么东西 怎么办 怎么回事 干什么 干嘛 是不是 能不能 会不会 要不要 可不可以 到底 到底是 请问 为啥 咋 啥 吗 呢".split(
    " ",
  ),
]);

/**
 * One-character words that glue a question phrase to its sentence ("是做什么的", "需要用它",
 * "有什么区别"): cut only where they touch a question phrase, so "上万行的列表" keeps its bigrams.
 */
const GLUE = new Set([..."的了是吗呢吧啊呀么嘛它做干用有要该"]);

/**
 * `text` with its question phrases replaced by spaces, line by line (a follow-up's earlier
 * turns stay one line each). A line that is nothing but a question phrase is kept whole.
 */
export function withoutQuestionPhrases(text: string): string {
  return text.split("\n").map(withoutPhrasesInLine).join("\n");
}

function withoutPhrasesInLine(line: string): string {
  const parts = [...SEGMENTER.segment(line)].map((s) => s.segment);
  const cut = parts.map((p) => HAN.test(p) && ASKING.has(p));
  // A phrase the segmenter split ("干|嘛", "怎么|办") is cut as a whole.
  for (let i = 0; i < parts.length; i++)
    for (let n = 2; n <= 3 && i + n <= parts.length; n++) {
      const span = parts.slice(i, i + n);
      if (span.every((p) => HAN.test(p)) && ASKING.has(span.join(""))) cut.fill(true, i, i + n);
    }
  const phrases = cut.flatMap((c, i) => (c ? [i] : []));
  // The cut spreads outwards from each phrase over the glue words that touch it.
  for (const i of phrases) {
    for (let j = i - 1; j >= 0 && !cut[j] && GLUE.has(parts[j] ?? ""); j--) cut[j] = true;
    for (let j = i + 1; j < parts.length && !cut[j] && GLUE.has(parts[j] ?? ""); j++) cut[j] = true;
  }
  const out = parts.map((p, i) => (cut[i] ? " " : p)).join("");
  return HAS_WORD_CHAR.test(out) ? out : line;
}
