// Text output of the CLI: aligned tables, times, clipped text. Pure functions, tested by
// tests/cli/cli.test.mjs; `--json` bypasses them and prints the API's data as it came.
import { t } from "./i18n/lang.mjs";

/** Width of a string in a terminal: CJK and full-width characters take two columns. */
export function width(text) {
  let w = 0;
  for (const ch of String(text)) {
    const c = ch.codePointAt(0) ?? 0;
    w +=
      (c >= 0x1100 && c <= 0x115f) ||
      (c >= 0x2e80 && c <= 0xa4cf) ||
      (c >= 0xac00 && c <= 0xd7a3) ||
      (c >= 0xf900 && c <= 0xfaff) ||
      (c >= 0xfe30 && c <= 0xfe4f) ||
      (c >= 0xff00 && c <= 0xff60) ||
      (c >= 0xffe0 && c <= 0xffe6)
        ? 2
        : 1;
  }
  return w;
}

const pad = (text, n, right = false) => {
  const fill = " ".repeat(Math.max(0, n - width(text)));
  return right ? fill + text : text + fill;
};

/** One line, at most `max` columns, `…` when cut. */
export function clip(text, max) {
  const flat = String(text ?? "")
    .replace(/\s+/g, " ")
    .trim();
  if (width(flat) <= max) return flat;
  let out = "";
  for (const ch of flat) {
    if (width(out + ch) > max - 1) break;
    out += ch;
  }
  return `${out}…`;
}

const clocks = new Map();

/**
 * `2026-12-03 00:30 +08:00`: an instant in the deployment's `calendar.timeZone` (which the
 * commands read from the Worker, admin-api.mjs `calendarZone`), with its offset — the format of
 * src/domain/kernel/local-time.ts, which a script cannot import; tests/cli/cli.test.mjs holds
 * the two to the same strings at the day boundary.
 */
export function time(ms, timeZone = "UTC") {
  if (typeof ms !== "number" || !Number.isFinite(ms)) return "—";
  let f = clocks.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      timeZoneName: "longOffset",
    });
    clocks.set(timeZone, f);
  }
  const p = Object.fromEntries(f.formatToParts(new Date(ms)).map((x) => [x.type, x.value]));
  // `GMT+08:00`, `GMT-08:00`, or a bare `GMT` at offset zero.
  const offset = p.timeZoneName === "GMT" ? "+00:00" : p.timeZoneName.replace("GMT", "");
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute} ${offset}`;
}

/**
 * An aligned table. `columns`: [{ title, value: (row) => string|number, right? }]. Numbers
 * align right by default.
 */
export function table(rows, columns, { empty = t("format.none") } = {}) {
  if (rows.length === 0) return empty;
  const cells = rows.map((r) => columns.map((c) => String(c.value(r) ?? "")));
  const widths = columns.map((c, i) => Math.max(width(c.title), ...cells.map((row) => width(row[i]))));
  const right = columns.map((c) => c.right ?? rows.every((r) => typeof c.value(r) === "number"));
  const line = (values) =>
    values
      .map((v, i) => pad(v, i === values.length - 1 && !right[i] ? 0 : widths[i], right[i]))
      .join("  ")
      .trimEnd();
  return [line(columns.map((c) => c.title)), ...cells.map(line)].join("\n");
}

export const tokens = (n) => (typeof n === "number" ? n.toLocaleString("en-US") : "—");

export function bytes(n) {
  if (typeof n !== "number") return "—";
  const units = ["B", "KiB", "MiB", "GiB"];
  let v = n;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${u === 0 ? v : v.toFixed(1)} ${units[u]}`;
}

/** `123,456 / 400,000 tokens (30.9 %)`, or `… (no cap)`. */
export function againstCap(used, cap) {
  if (cap === null || cap === undefined) return t("format.noCap", { used: tokens(used) });
  const share = cap > 0 ? ` (${((used / cap) * 100).toFixed(1)} %)` : "";
  return `${tokens(used)} / ${tokens(cap)} tokens${share}${used >= cap ? t("format.capped") : ""}`;
}

/** Prints `data` as JSON with --json, else the text `render` makes of it. */
export function output(options, data, render) {
  console.log(options.json ? JSON.stringify(data, null, 2) : render(data));
}
