/**
 * Message text normalization shared by every transport: adapters parse wire markup into
 * segments; this module turns segments into the one text form that is logged, indexed and
 * shown to the model — mentions as `@nick`, media as `[图片]`, `[表情]`, `[语音]`, …
 */

export type MessageSegment =
  | { readonly type: "text"; readonly text: string }
  | { readonly type: "mention"; readonly name: string }
  | { readonly type: "mention_all" }
  | { readonly type: "image" }
  | { readonly type: "face" }
  | { readonly type: "voice"; readonly transcript?: string | null }
  | { readonly type: "video" }
  | { readonly type: "file"; readonly name?: string | null }
  | { readonly type: "other"; readonly label?: string };

export const PLACEHOLDERS = {
  image: "[图片]",
  face: "[表情]",
  voice: "[语音]",
  video: "[视频]",
  file: "[文件]",
  other: "[消息]",
  mentionAll: "@全体成员",
} as const;

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

/** Unescapes the HTML entities the platforms use in text (`&amp;`, `&#91;`, `&#x5B;`, …). */
export function unescapeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, body: string) => {
    if (body[0] === "#") {
      const code =
        body[1] === "x" || body[1] === "X" ? Number.parseInt(body.slice(2), 16) : Number(body.slice(1));
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[body.toLowerCase()] ?? whole;
  });
}

function segmentText(segment: MessageSegment): string {
  switch (segment.type) {
    case "text":
      return segment.text;
    case "mention":
      return `@${segment.name}`;
    case "mention_all":
      return PLACEHOLDERS.mentionAll;
    case "image":
      return PLACEHOLDERS.image;
    case "face":
      return PLACEHOLDERS.face;
    case "voice":
      return segment.transcript ? `${PLACEHOLDERS.voice} ${segment.transcript}` : PLACEHOLDERS.voice;
    case "video":
      return PLACEHOLDERS.video;
    case "file":
      return segment.name ? `${PLACEHOLDERS.file} ${segment.name}` : PLACEHOLDERS.file;
    case "other":
      return segment.label ? `[${segment.label}]` : PLACEHOLDERS.other;
  }
}

/** Joins segments into normalized text: placeholders spaced from words, whitespace collapsed. */
export function composeMessageText(segments: readonly MessageSegment[]): string {
  const pieces: string[] = [];
  for (const segment of segments) {
    const text = segmentText(segment);
    if (segment.type === "text") pieces.push(text);
    else pieces.push(` ${text} `);
  }
  return pieces
    .join("")
    .replace(/[ \t\u3000]+/g, " ")
    .replace(/ *\n */g, "\n")
    .trim();
}
