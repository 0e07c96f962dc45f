/**
 * CQ-code strings, OneBot v11's string message format: text with `[CQ:type,key=value,…]`
 * codes inside. Text escapes `&`, `[` and `]`; parameter values also escape `,`.
 */
import type { OneBotSegment } from "./onebot-event.schema";

// Raw `,`, `[` and `]` cannot occur inside a code: values escape them.
const CQ_CODE = /\[CQ:([A-Za-z0-9_.-]+)((?:,[^,[\]]*)*)\]/g;
const CQ_ENTITIES: Readonly<Record<string, string>> = { amp: "&", "#91": "[", "#93": "]", "#44": "," };

/**
 * Splits a CQ string into segments, in order; text between codes becomes `text` segments.
 * Never throws: a bracket that does not form a code stays text.
 */
export function parseCqString(message: string): OneBotSegment[] {
  const segments: OneBotSegment[] = [];
  let last = 0;
  for (const match of message.matchAll(CQ_CODE)) {
    if (match.index > last) segments.push(textSegment(message.slice(last, match.index)));
    segments.push({ type: match[1] ?? "", data: parseParams(match[2] ?? "") });
    last = match.index + match[0].length;
  }
  if (last < message.length) segments.push(textSegment(message.slice(last)));
  return segments;
}

/**
 * Reverses CQ escaping in one pass. Only the four CQ entities: other entities (`&lt;`) are
 * text the user typed, and `&amp;#91;` must come back as the literal `&#91;`.
 */
export function unescapeCq(text: string): string {
  return text.replace(/&(amp|#91|#93|#44);/g, (whole, name: string) => CQ_ENTITIES[name] ?? whole);
}

function textSegment(raw: string): OneBotSegment {
  return { type: "text", data: { text: unescapeCq(raw) } };
}

/** `,qq=123,name=x` → `{ qq: "123", name: "x" }`. Parameters without `=` are dropped. */
function parseParams(raw: string): Record<string, string> {
  const entries: [string, string][] = [];
  for (const pair of raw.split(",").slice(1)) {
    const eq = pair.indexOf("=");
    if (eq > 0) entries.push([pair.slice(0, eq), unescapeCq(pair.slice(eq + 1))]);
  }
  // fromEntries defines own properties, so a `__proto__` key cannot touch the prototype.
  return Object.fromEntries(entries);
}
