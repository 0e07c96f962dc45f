// `node scripts/bench/conversion-heap.mjs` (through npm's Node 22: `npm exec -- node …`): how
// much input each document converter takes before it exhausts a Worker-sized heap. Every case
// runs in its own Node process with `--max-old-space-size` (default 96 MB: the Worker's 128 MB
// less the rest of the isolate) and reports ok with its time and heap, or OOM. The converters
// are the project's own (src/adapters/documents); the baselines are the libraries called
// directly, as the converters called them before their limits. CASES=<regex> runs some cases
// only (docs/experiments/0140-document-conversion-heap.md).
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { strToU8, zipSync } from "fflate";
import { importTs } from "../lib/ts-import.mjs";

const HEAP_MB = Number(process.env.HEAP_MB ?? 96);
const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';

function docx(xmlBytes) {
  const para = `<w:p w:rsidR="00A12345" w:rsidRDefault="00B23456"><w:pPr><w:spacing w:after="0"/></w:pPr><w:r><w:rPr><w:rFonts w:hint="eastAsia"/></w:rPr><w:t>${"这是一段很普通的文字。Some text. ".repeat(3)}</w:t></w:r></w:p>`;
  const body = para.repeat(Math.ceil(xmlBytes / Buffer.byteLength(para)));
  return zipSync({
    "[Content_Types].xml": strToU8(
      `<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/></Types>`,
    ),
    "_rels/.rels": strToU8(
      `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`,
    ),
    "word/document.xml": strToU8(
      `<?xml version="1.0"?><w:document ${W}><w:body>${body}</w:body></w:document>`,
    ),
  });
}

function pdf(pages) {
  const content = "BT /F1 12 Tf 72 720 Td (page) Tj ET";
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    `<< /Type /Pages /Kids [${"3 0 R ".repeat(pages)}] /Count ${pages} >>`,
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
  let out = "%PDF-1.4\n";
  const offsets = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("")}`;
  return strToU8(`${out}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
}

const markdown = (bytes) => {
  const block =
    "## 标题\n\n一段普通的文字，Some ordinary words in a sentence.\n\n- a\n- b\n  - c\n\n```js\nconst x = 1;\n```\n\n";
  return block.repeat(Math.ceil(bytes / Buffer.byteLength(block)));
};
const nested = (levels) =>
  Array.from({ length: levels }, (_, i) => `${" ".repeat(2 * i)}- level ${i}`).join("\n");

/** name → [sizes, run(size) → what it made]. */
const ONLY = process.env.CASES ? new RegExp(process.env.CASES) : null;
const CASES = {
  "docx-xml-mammoth (MB of XML)": [
    [1, 2, 2.5, 3, 4],
    async (mb) => (await import("mammoth")).default.convertToHtml({ buffer: Buffer.from(docx(mb * 1e6)) }),
  ],
  "docx-xml-convertDocx (MB of XML)": [
    [1, 2, 3],
    async (mb) => (await importTs("src/adapters/documents/binary-converters.ts")).convertDocx(docx(mb * 1e6)),
  ],
  "markdown-marked (MB)": [
    [1, 2, 4],
    async (mb) => new (await import("marked")).Lexer({ gfm: true }).lex(markdown(mb * 1e6)),
  ],
  "markdown-converter-port (MB)": [
    [1, 2, 4],
    async (mb) => {
      const { LibraryDocumentConverter } = await importTs(
        "src/adapters/documents/library-document-converter.ts",
      );
      const r = await new LibraryDocumentConverter().convert("markdown", {
        name: "big.md",
        bytes: strToU8(markdown(mb * 1e6)),
      });
      if (!r.ok) throw new Error(r.error.message);
      return r.value;
    },
  ],
  "markdown-nested-marked (levels)": [
    [32, 100, 300, 1000],
    async (n) => new (await import("marked")).Lexer({ gfm: true }).lex(nested(n)),
  ],
  "markdown-nested-convertMarkdown (levels)": [
    [32, 1000, 3000],
    async (n) => (await importTs("src/adapters/documents/markdown-converter.ts")).convertMarkdown(nested(n)),
  ],
  "pdf-extractText (pages)": [
    [1000, 2000, 5000],
    async (n) => {
      const { extractText, getDocumentProxy } = await import("unpdf");
      return extractText(await getDocumentProxy(pdf(n)), { mergePages: false });
    },
  ],
  "pdf-convertPdf (pages)": [
    [1000, 2000, 5000],
    async (n) => (await importTs("src/adapters/documents/binary-converters.ts")).convertPdf(pdf(n)),
  ],
};

if (process.argv[2] === "--child") {
  const [name, size] = [process.argv[3], Number(process.argv[4])];
  const started = performance.now();
  try {
    await CASES[name][1](size);
    const heap = Math.round(process.memoryUsage().heapUsed / 1e6);
    console.log(JSON.stringify({ ok: true, ms: Math.round(performance.now() - started), heap_mb: heap }));
  } catch (e) {
    console.log(JSON.stringify({ ok: false, refused: String(e.message ?? e).slice(0, 120) }));
  }
} else {
  const self = fileURLToPath(import.meta.url);
  for (const [name, [sizes]] of Object.entries(CASES)) {
    if (ONLY && !ONLY.test(name)) continue;
    for (const size of sizes) {
      const child = spawnSync(
        process.execPath,
        [`--max-old-space-size=${HEAP_MB}`, self, "--child", name, String(size)],
        { encoding: "utf8", timeout: 600_000 },
      );
      const line = child.stdout.trim().split("\n").at(-1) ?? "";
      const result = line.startsWith("{")
        ? JSON.parse(line)
        : {
            ok: false,
            crashed: /heap out of memory/.test(child.stderr) ? "heap out of memory" : child.signal,
          };
      console.log(JSON.stringify({ case: name, size, heap_limit_mb: HEAP_MB, ...result }));
    }
  }
}
