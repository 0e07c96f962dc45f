/**
 * Plain text, CSV/TSV (papaparse) and JSON/JSONL → blocks. Text keeps its paragraphs;
 * a CSV row or a JSON record becomes one `record` block of `field: value` lines titled by
 * its first column (or its title/name/id field); nested JSON objects become headings.
 */
import Papa from "papaparse";
import { parseBoundedJson } from "../../domain/kernel/bounded-json";
import type { Block, ParsedDocument } from "../../domain/knowledge/document";
import { ConversionLimit } from "./conversion-limit";
import { paragraphs } from "./text-decoding";

export function convertText(text: string): ParsedDocument {
  return {
    title: null,
    aliases: [],
    blocks: paragraphs(text).map((p) => ({ kind: "text", text: p, role: "paragraph" })),
  };
}

export function convertCsv(
  text: string,
  delimiter?: string,
): { ok: true; doc: ParsedDocument } | { ok: false; message: string } {
  const parsed = Papa.parse<Record<string, string>>(text.replace(/^\uFEFF/, ""), {
    header: true,
    skipEmptyLines: "greedy",
    ...(delimiter ? { delimiter } : {}),
  });
  const fields = parsed.meta.fields ?? [];
  if (fields.length === 0) return { ok: false, message: "no header row" };
  const fatal = parsed.errors.find((e) => e.type === "Quotes");
  if (fatal) return { ok: false, message: `row ${fatal.row ?? "?"}: ${fatal.message}` };
  const blocks: Block[] = [];
  for (const row of parsed.data) {
    const lines = fields
      .map((f) => [f, (row[f] ?? "").toString().trim()] as const)
      .filter(([, v]) => v !== "")
      .map(([f, v]) => `${f}: ${v}`);
    if (lines.length === 0) continue;
    const first = (row[fields[0] ?? ""] ?? "").toString().trim();
    blocks.push({
      kind: "text",
      text: lines.join("\n"),
      role: "record",
      ...(first ? { title: first.slice(0, 120) } : {}),
    });
  }
  return { ok: true, doc: { title: null, aliases: [], blocks } };
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const TITLE_KEYS = ["title", "name", "名称", "标题", "id"];

function scalar(v: Json): v is string | number | boolean | null {
  return v === null || typeof v !== "object";
}

function recordTitle(o: { [key: string]: Json }): string | undefined {
  for (const k of TITLE_KEYS) {
    const v = o[k];
    if (typeof v === "string" && v.trim()) return v.trim().slice(0, 120);
    if (typeof v === "number") return String(v);
  }
  return undefined;
}

function flatLines(value: Json, prefix: string, out: string[]): void {
  if (scalar(value)) {
    if (value !== null && String(value).trim() !== "")
      out.push(prefix ? `${prefix}: ${value}` : String(value));
  } else if (Array.isArray(value)) {
    if (value.every(scalar)) {
      const items = value.filter((v) => v !== null && String(v).trim() !== "").map(String);
      if (items.length > 0) out.push(prefix ? `${prefix}: ${items.join("、")}` : items.join("、"));
    } else {
      for (const [i, v] of value.entries()) flatLines(v, `${prefix}[${i}]`, out);
    }
  } else {
    for (const [k, v] of Object.entries(value)) flatLines(v, prefix ? `${prefix}.${k}` : k, out);
  }
}

function walk(value: Json, level: number, heading: string | null, blocks: Block[]): void {
  if (Array.isArray(value) && value.some((v) => !scalar(v))) {
    if (heading) blocks.push({ kind: "heading", level, text: heading });
    for (const item of value) {
      const lines: string[] = [];
      flatLines(item, "", lines);
      if (lines.length === 0) continue;
      const title = !scalar(item) && !Array.isArray(item) ? recordTitle(item) : undefined;
      blocks.push({ kind: "text", text: lines.join("\n"), role: "record", ...(title ? { title } : {}) });
    }
    return;
  }
  if (!scalar(value) && !Array.isArray(value)) {
    const entries = Object.entries(value);
    const simple = entries.filter(([, v]) => scalar(v) || (Array.isArray(v) && v.every(scalar)));
    const nested = entries.filter(([, v]) => !(scalar(v) || (Array.isArray(v) && v.every(scalar))));
    if (heading) blocks.push({ kind: "heading", level, text: heading });
    const lines: string[] = [];
    for (const [k, v] of simple) flatLines(v, k, lines);
    if (lines.length > 0) blocks.push({ kind: "text", text: lines.join("\n"), role: "record" });
    for (const [k, v] of nested) walk(v, heading ? level + 1 : level, k, blocks);
    return;
  }
  const lines: string[] = [];
  flatLines(value, heading ?? "", lines);
  if (lines.length > 0) blocks.push({ kind: "text", text: lines.join("\n"), role: "record" });
}

/** One JSON text behind the depth cap: the walk below recurses once per level. */
function parseJson(text: string, where: string): Json {
  const parsed = parseBoundedJson(text);
  if (parsed.ok) return parsed.value as Json;
  if (parsed.tooDeep) throw new ConversionLimit("too-deep", `${where}${parsed.reason}`);
  throw new SyntaxError(parsed.syntax);
}

/** JSON (a document) or JSON Lines (one record per line). Throws ConversionLimit past the depth cap. */
export function convertJson(
  text: string,
  lines: boolean,
): { ok: true; doc: ParsedDocument } | { ok: false; message: string } {
  let value: Json;
  try {
    value = lines
      ? text
          .split(/\r?\n/)
          .map((l, i) => [l, i] as const)
          .filter(([l]) => l.trim() !== "")
          .map(([l, i]) => parseJson(l, `line ${i + 1} `))
      : parseJson(text.replace(/^\uFEFF/, ""), "");
  } catch (e) {
    if (e instanceof ConversionLimit) throw e;
    return { ok: false, message: `invalid JSON: ${(e as Error).message}` };
  }
  const blocks: Block[] = [];
  walk(value, 1, null, blocks);
  const title = !scalar(value) && !Array.isArray(value) ? (recordTitle(value) ?? null) : null;
  return { ok: true, doc: { title, aliases: [], blocks } };
}
