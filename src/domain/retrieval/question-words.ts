/**
 * Words that say what kind of answer is wanted, or bind a sentence, not what it is about
 * (RAGFlow's query builder drops the same kinds): they must not weigh on whether a passage
 * answers. Chinese function words come from the maintained stopwords-iso list (stopwords-zh);
 * the question words a developer uses about documentation ("用法", "区别") are added here.
 */
import STOPWORDS_ZH from "stopwords-zh/stopwords-zh.json";

/** What a question asks for: stripped from text when measuring how much of it a title covers. */
export const QUESTION_WORDS: ReadonlySet<string> = new Set(
  "怎么 怎么样 怎样 如何 什么 为什么 为何 哪些 哪个 哪里 多少 是否 可以 能否 有没有 一个 一下 还是 应该 需要 要怎么 用法 使用 区别 问题".split(
    " ",
  ),
);

const NOT_CONTENT: ReadonlySet<string> = new Set([...QUESTION_WORDS, ...STOPWORDS_ZH]);

/** True for a question word or a function word: a token that says nothing about the topic. */
export const isQuestionWord = (t: string): boolean => NOT_CONTENT.has(t);
