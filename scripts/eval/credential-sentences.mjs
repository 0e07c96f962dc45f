// Values in Chinese words said after something else (decision 1000): each labelled value of the
// read sets that its line alone loses, measured again with an ordinary sentence before the line —
// how many values each detector still loses — and the shared ordinary Chinese chat joined in
// pairs, two sentences a message, changed by each. Dev data: the read sets are what the reader of
// such values learned from, so this measures only what a sentence before the value costs.
import { existsSync } from "node:fs";
import path from "node:path";
import { root } from "../lib/dev-vars.mjs";
import { readJsonl } from "./domain-bundle.mjs";

const READ = ["a", "b", "c", "d", "e", "f", "i", "j"].map((x) => `credentials-read-han-${x}.jsonl`);
const BEFORE = ["今天大家约了周六聚餐。", "刚下班，累死了！", "哈哈哈\n", "对了，"];
// Lead-ins and a comma (experiment 0740): "对了，" above is what the change was made on; these were
// written after it and not tuned on, the last two after a sentence.
const LEAD_INS = [
  "话说，",
  "哦对，",
  "另外，",
  "顺便问下，",
  "还有啊，",
  "嗯嗯，",
  "哎，",
  "那个，",
  "对了,",
  "好热。对了，",
  "哈哈\n话说，",
];
const JOINS = ["。", "\n", "！"];
// Lead-ins longer than the four characters cut off: what a longer bound would win (experiment
// 0740 tried six: the first five were written with it, the next seven after it).
const LONGER = ["我跟你说啊，", "悄悄告诉你，", "顺便提一句，", "差点忘了说，", "今天天气不错，"];
const LATER = [
  "说正经的哈，",
  "我想起来了，",
  "不好意思哈，",
  "你们记一下，",
  "刚才忘说了，",
  "等下要用的，",
  "我跟你们说一下哈，",
];
const LEADS = ["对了，", "话说，", "嗯，", "哈哈，", "今天天气不错，", "我跟你说啊，"];

export function sentencesBeforeValues(detectors, sets) {
  const rows = READ.map((f) => path.join(root, "tests/fixtures/privacy", f))
    .filter(existsSync)
    .flatMap(readJsonl)
    .filter((r) => r.label !== "none" && r.secret && r.text && !r.messages);
  console.log(
    `\nvalues in Chinese words after another sentence (read sets, ${rows.length} values): values kept`,
  );
  for (const [label, d] of detectors) {
    const alone = rows.filter((r) => !d.mask(r.text).includes(r.secret));
    const keptAfter = (openings) =>
      openings.map(
        (b) => `${JSON.stringify(b)} ${alone.filter((r) => d.mask(b + r.text).includes(r.secret)).length}`,
      );
    console.log(
      `  ${label.padEnd(20)} gone alone ${alone.length}; kept after ${keptAfter(BEFORE).join(", ")}`,
    );
    console.log(`  ${"".padEnd(20)} lead-ins not tuned on: ${keptAfter(LEAD_INS).join(", ")}`);
    console.log(`  ${"".padEnd(20)} longer: ${keptAfter(LONGER).join(", ")}`);
    console.log(`  ${"".padEnd(20)} later: ${keptAfter(LATER).join(", ")}`);
  }
  console.log(
    `\nordinary Chinese chat joined in pairs, and each message after ${LEADS.map((l) => JSON.stringify(l)).join(" / ")}: messages changed`,
  );
  for (const [name, texts] of sets.filter(([n]) => n === "KdConv" || n === "MemoryBank-zh")) {
    const cells = detectors.map(([label, d]) => {
      const changed = JOINS.map((j) => {
        let n = 0;
        for (let i = 0; i + 1 < texts.length; i += 2)
          if (d.mask(texts[i] + j + texts[i + 1]) !== texts[i] + j + texts[i + 1]) n++;
        return n;
      });
      const led = LEADS.map((l) => texts.filter((t) => d.mask(l + t) !== l + t).length);
      return `${label}: ${changed.join(" / ")}; after a lead-in ${led.join(" / ")}`;
    });
    console.log(
      `  ${name.padEnd(15)} ${Math.floor(texts.length / 2)} pairs joined by ${JOINS.map((j) => JSON.stringify(j)).join(" / ")}  ${cells.join("   ")}`,
    );
  }
}
