/**
 * QQ message content → normalized segments (docs/qq-protocol.md#message-content). `content` is HTML-escaped text with
 * inline markup for mentions, emoji and faces; attachments arrive beside it.
 */
import { type MessageSegment, unescapeEntities } from "../../domain/chat/message-text";
import type { InboundAttachment } from "../../domain/inbound/inbound-event";
import type { QqAttachment } from "./qq-event.schema";

export type QqContentContext = {
  /** Ids that are the bot itself; mentions of them are dropped (the event says it was addressed). */
  readonly botIds: ReadonlySet<string>;
  /** Display names of mentioned users by id, from the event's `mentions`. */
  readonly names: ReadonlyMap<string, string>;
};

// Literal `<` in user text arrives as `&lt;`, so every `<…>` in content is markup. Groups:
// 1 `<@id>`/`<@!id>`, 2 `<qqbot-at-user id="…" />`, 3 `<qqbot-at-everyone />`, 4 `<emoji:id>`,
// 5 `<faceType=…>`, 6 `<#channel_id>`. Anything else in angle brackets is kept as text.
const MARKUP =
  /<@!?([^>\s]+)>|<qqbot-at-user\s+id="([^"]*)"\s*\/?>|(<qqbot-at-everyone\s*\/?>)|<emoji:([^>]*)>|(<faceType=[^>]*>)|<#([^>\s]+)>/g;

/**
 * Splits `content` into text, mention and face segments. Text between markup is unescaped
 * here, after the markup is cut out, so an escaped `&lt;@1&gt;` stays literal text.
 * Mentions of `botIds` vanish; other mentions become `@name`, or `@id` when no name is known.
 */
export function parseQqContent(content: string, context: QqContentContext): MessageSegment[] {
  const segments: MessageSegment[] = [];
  let last = 0;
  for (const match of content.matchAll(MARKUP)) {
    pushText(segments, content.slice(last, match.index));
    last = match.index + match[0].length;
    const segment = markupSegment(match, context);
    if (segment) segments.push(segment);
  }
  pushText(segments, content.slice(last));
  return segments;
}

function markupSegment(match: RegExpExecArray, context: QqContentContext): MessageSegment | null {
  const [, mentionId, atUserId, everyone, emojiId, face, channelId] = match;
  const userId = mentionId ?? atUserId;
  if (userId !== undefined) {
    if (context.botIds.has(userId)) return null;
    return { type: "mention", name: context.names.get(userId) ?? userId };
  }
  if (everyone !== undefined) return { type: "mention_all" };
  if (emojiId !== undefined || face !== undefined) return { type: "face" };
  if (channelId !== undefined) return { type: "text", text: `#${channelId}` };
  return null;
}

function pushText(segments: MessageSegment[], raw: string): void {
  if (raw.length > 0) segments.push({ type: "text", text: unescapeEntities(raw) });
}

/** Ids of the mentions in `content`, in order (markup only, not plain `@name` text). */
export function mentionedIds(content: string): string[] {
  const ids: string[] = [];
  for (const match of content.matchAll(MARKUP)) {
    const id = match[1] ?? match[2];
    if (id !== undefined) ids.push(id);
  }
  return ids;
}

/** Id of the mention that opens `content` (after whitespace), the usual place of the @bot markup. */
export function leadingMentionId(content: string): string | null {
  return /^\s*<@!?([^>\s]+)>/.exec(content)?.[1] ?? null;
}

/**
 * Attachments → placeholder segments (in order) and attachment records. Voice carries the
 * platform's speech-to-text (`asr_refer_text`) as transcript and prefers the WAV rendition,
 * which needs no SILK decoder. URLs without a scheme get `https://`.
 */
export function parseQqAttachments(attachments: readonly QqAttachment[] | null | undefined): {
  segments: MessageSegment[];
  attachments: InboundAttachment[];
} {
  const segments: MessageSegment[] = [];
  const records: InboundAttachment[] = [];
  for (const attachment of attachments ?? []) {
    const kind = attachmentKind(attachment);
    const filename = attachment.filename ?? null;
    const transcript = kind === "voice" ? attachment.asr_refer_text?.trim() || null : null;
    const url = (kind === "voice" ? attachment.voice_wav_url || attachment.url : attachment.url) || null;
    records.push({
      kind,
      url: url === null ? null : normalizeQqUrl(url),
      filename,
      contentType: attachment.content_type ?? null,
      transcript,
    });
    segments.push(attachmentSegment(kind, filename, transcript));
  }
  return { segments, attachments: records };
}

function attachmentSegment(
  kind: InboundAttachment["kind"],
  filename: string | null,
  transcript: string | null,
): MessageSegment {
  switch (kind) {
    case "image":
      return { type: "image" };
    case "voice":
      return { type: "voice", transcript };
    case "video":
      return { type: "video" };
    case "file":
      return { type: "file", name: filename };
    case "other":
      return { type: "other", label: "附件" };
  }
}

const EXTENSION_KINDS: Record<string, InboundAttachment["kind"]> = {
  jpg: "image",
  jpeg: "image",
  png: "image",
  gif: "image",
  webp: "image",
  bmp: "image",
  mp4: "video",
  mov: "video",
  amr: "voice",
  silk: "voice",
  slk: "voice",
  wav: "voice",
  mp3: "voice",
};

/** By `content_type` (`image/*`, `voice`, `audio/*`, `video/*`, `file`), else by file extension. */
function attachmentKind(attachment: QqAttachment): InboundAttachment["kind"] {
  const type = attachment.content_type?.toLowerCase() ?? "";
  if (type.startsWith("image")) return "image";
  if (type === "voice" || type.startsWith("audio")) return "voice";
  if (type.startsWith("video")) return "video";
  if (type === "file" || type.startsWith("application")) return "file";
  const extension = (attachment.filename ?? "").toLowerCase().match(/\.([a-z0-9]+)$/)?.[1] ?? "";
  return EXTENSION_KINDS[extension] ?? "other";
}

/** Adds `https://` to a URL that has no scheme (`multimedia.nt.qq.com.cn/…`, `//host/…`). */
export function normalizeQqUrl(url: string): string {
  const trimmed = url.trim();
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed)) return trimmed;
  return trimmed.startsWith("//") ? `https:${trimmed}` : `https://${trimmed}`;
}
