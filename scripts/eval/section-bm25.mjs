// The vue-docs baseline: the simplest search a person could write over Markdown documentation.
// One document per heading section (its heading path plus the section's own text, up to the
// next heading of any level), CJK unigrams and bigrams plus lowercased Latin words, Okapi BM25
// with k1 1.2 and b 0.75. It shares no code with the pipeline on purpose.

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const WORD = /[\p{L}\p{N}_]+/gu;
const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const ANCHOR = /\s*\{#([^}]+)\}\s*$/;

/** Unigrams and bigrams of CJK runs, lowercased words of everything else. */
export function baselineTokens(text) {
  const out = [];
  for (const [w] of text.normalize("NFKC").toLowerCase().matchAll(WORD)) {
    let run = "";
    const flush = () => {
      for (let i = 0; i < run.length; i++) {
        out.push(run[i]);
        if (i + 1 < run.length) out.push(run.slice(i, i + 2));
      }
      run = "";
    };
    let latin = "";
    for (const ch of w) {
      if (CJK.test(ch)) {
        if (latin) out.push(latin);
        latin = "";
        run += ch;
      } else {
        flush();
        latin += ch;
      }
    }
    flush();
    if (latin) out.push(latin);
  }
  return out;
}

/** ATX-heading sections of one Markdown file (code fences and front matter skipped). */
export function markdownSections(path, markdown) {
  const lines = markdown.split(/\r?\n/);
  let i = 0;
  if (lines[0]?.trim() === "---") {
    i = lines.findIndex((l, k) => k > 0 && l.trim() === "---") + 1;
  }
  const sections = [];
  const stack = [];
  let current = null;
  let fence = null;
  for (; i < lines.length; i++) {
    const line = lines[i];
    const f = /^\s*(`{3,}|~{3,})/.exec(line);
    if (f) {
      if (fence === null) fence = f[1][0];
      else if (f[1][0] === fence) fence = null;
    }
    const h = fence === null && !f ? HEADING.exec(line) : null;
    if (!h) {
      if (current) current.text.push(line);
      continue;
    }
    const level = h[1].length;
    const anchor = ANCHOR.exec(h[2])?.[1] ?? null;
    const title = h[2].replace(ANCHOR, "");
    while (stack.length > 0 && stack.at(-1).level >= level) stack.pop();
    stack.push({ level, title });
    current = { path, anchor, headings: stack.map((s) => s.title), text: [] };
    sections.push(current);
  }
  return sections.map((s) => ({ ...s, text: s.text.join("\n") }));
}

export class SectionBm25 {
  constructor(sections, { k1 = 1.2, b = 0.75 } = {}) {
    this.k1 = k1;
    this.b = b;
    this.sections = sections;
    this.docs = sections.map((s) => {
      const tf = new Map();
      const tokens = baselineTokens(`${s.headings.join(" ")}\n${s.text}`);
      for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
      return { tf, length: tokens.length };
    });
    this.avgLength = this.docs.reduce((n, d) => n + d.length, 0) / Math.max(1, this.docs.length);
    this.df = new Map();
    for (const d of this.docs) for (const t of d.tf.keys()) this.df.set(t, (this.df.get(t) ?? 0) + 1);
  }

  search(query, limit) {
    const n = this.docs.length;
    const terms = [...new Set(baselineTokens(query))].filter((t) => this.df.has(t));
    const scored = [];
    this.docs.forEach((d, i) => {
      let score = 0;
      for (const t of terms) {
        const tf = d.tf.get(t);
        if (!tf) continue;
        const df = this.df.get(t);
        const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
        score +=
          (idf * tf * (this.k1 + 1)) / (tf + this.k1 * (1 - this.b + (this.b * d.length) / this.avgLength));
      }
      if (score > 0) scored.push({ i, score });
    });
    scored.sort((a, b) => b.score - a.score);
    return scored.slice(0, limit).map(({ i, score }) => ({ ...this.sections[i], score }));
  }
}
