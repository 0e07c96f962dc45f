import { MAX_WORDS, shellWords, unquotedSpan } from "@src/domain/text/shell-words";
import { describe, it } from "vitest";

const raws = (text: string, from = 0) => shellWords(text, from).map((w) => w.raw);

describe("shell words", () => {
  it("splits on blanks, keeps quoted blanks and says where each word stands", ({ expect }) => {
    const text = `run -p 'a b' --x="c d" “e f”`;
    expect(raws(text)).toEqual(["run", "-p", "'a b'", '--x="c d"', "“e f”"]);
    for (const w of shellWords(text, 0)) expect(text.slice(w.start, w.start + w.raw.length)).toBe(w.raw);
  });

  it("joins lines continued by a backslash, caret or back-tick", ({ expect }) => {
    expect(raws("a \\\n b ^\r\n c `\n d")).toEqual(["a", "b", "c", "d"]);
  });

  it.for([
    ["a b\nc", ["a", "b"]],
    ["a b; c", ["a", "b"]],
    ["a b | c", ["a", "b"]],
    ["a b && c", ["a", "b"]],
    ["a b```c", ["a", "b"]],
    ["a b，然后c", ["a", "b"]],
    ["a b连不上", ["a", "b"]],
    ["a '不 停' b", ["a", "'不 停'", "b"]],
  ] as const)("ends the command of %j at its separator or at prose", ([text, words], { expect }) => {
    expect(raws(text)).toEqual(words);
  });

  it("reads at most the words asked for, so many commands in a row stay linear to read", ({ expect }) => {
    expect(shellWords("a ".repeat(200), 0)).toHaveLength(MAX_WORDS);
    expect(raws("a b c d", 0).slice(0, 2)).toEqual(shellWords("a b c d", 0, 2).map((w) => w.raw));
  });

  it("runs an unclosed quote to the line's end", ({ expect }) => {
    expect(raws("a 'b c\nd")).toEqual(["a", "'b c"]);
  });

  it("unquotes a word's tail", ({ expect }) => {
    expect(unquotedSpan("-p'x y'", 2)).toEqual({ start: 3, end: 6 });
    expect(unquotedSpan("-pxy", 2)).toEqual({ start: 2, end: 4 });
    expect(unquotedSpan("'", 0)).toEqual({ start: 0, end: 1 });
  });
});
