// How many ordinary messages of the shared LoCoMo, KdConv and MemoryBank sets each reader
// counts as something (a privacy request, a share permission), per 10,000, printed a dataset a
// line, readers side by side; `--show N` prints N of the last reader's hits per dataset.
import { datasets } from "./credentials.mjs";
import { evalDataDir } from "./data-dir.mjs";

/**
 * `readers` are [label, api] pairs; `hit(api, text)` says whether the reader counts the message.
 * `only` keeps the messages to count (the privacy-request eval leaves out those its trained reader
 * learned from). Returns a row a dataset: its name, its size and each reader's count.
 */
export function ordinaryRates(readers, flags, title, hit, only = () => true) {
  const dir = typeof flags.data === "string" ? flags.data : evalDataDir();
  console.log(`\n${title} (${dir}), per 10,000`);
  const out = [];
  for (const [name, all] of datasets(dir)) {
    const texts = all.filter(only);
    const cells = readers.map(([label, api]) => ({ label, hits: texts.filter((t) => hit(api, t)) }));
    const rate = (n) => ((n / texts.length) * 10_000).toFixed(1);
    console.log(
      `${name.padEnd(15)} ${String(texts.length).padStart(6)} messages  ${cells.map((c) => `${c.label}: ${rate(c.hits.length)} (${c.hits.length})`).join("   ")}`,
    );
    for (const t of cells.at(-1).hits.slice(0, Number(flags.show ?? 0)))
      console.log(`    ${t.slice(0, 160)}`);
    out.push({
      dataset: name,
      messages: texts.length,
      ...Object.fromEntries(cells.map((c) => [c.label, c.hits.length])),
    });
  }
  return out;
}
