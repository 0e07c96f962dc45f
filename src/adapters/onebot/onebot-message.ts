/**
 * OneBot message content (segment array or CQ string) → the normalized text, attachments,
 * addressing and quote of an InboundMessage.
 */
import { composeMessageText, type MessageSegment } from "../../domain/chat/message-text";
import type { InboundAttachment } from "../../domain/inbound/inbound-event";
import { parseCqString } from "./cq-code";
import type { OneBotSegment } from "./onebot-event.schema";

export type OneBotMessageContext = {
  /** The bot's own QQ number: an @ of it addresses the bot and is dropped from the text. */
  readonly selfId: string;
  /** The sender's id and card/nickname, so an @ of the sender reads as a name, not a number. */
  readonly sender: { readonly userId: string; readonly name: string | null };
};

export type OneBotMessageContent = {
  readonly text: string;
  readonly attachments: readonly InboundAttachment[];
  /** True when the message @-mentions the bot. Callers add their own rules (private chats). */
  readonly mentionsBot: boolean;
  /** Id from the first `reply` segment. */
  readonly quotedMessageId: string | null;
};

/**
 * Reads message content. Mentions become `@name` when the segment carries a name or the
 * mentioned user is the sender, else `@<qq>`; `@all` becomes `@全体成员`; media become
 * placeholders plus attachments; a `reply` segment sets the quote and adds no text.
 */
export function readOneBotMessage(
  message: string | readonly OneBotSegment[],
  context: OneBotMessageContext,
): OneBotMessageContent {
  const wire = typeof message === "string" ? parseCqString(message) : message;
  const segments: MessageSegment[] = [];
  const attachments: InboundAttachment[] = [];
  let mentionsBot = false;
  let quotedMessageId: string | null = null;
  for (const { type, data } of wire) {
    switch (type) {
      case "text":
        segments.push({ type: "text", text: stringOf(data.text) ?? "" });
        break;
      case "at": {
        const qq = stringOf(data.qq);
        if (qq === null) break;
        if (qq === context.selfId) mentionsBot = true;
        else if (qq === "all") segments.push({ type: "mention_all" });
        else segments.push({ type: "mention", name: mentionName(qq, data, context) });
        break;
      }
      case "reply":
        quotedMessageId ??= stringOf(data.id);
        break;
      case "image":
        segments.push({ type: "image" });
        attachments.push(attachment("image", data));
        break;
      case "face":
      case "mface":
        segments.push({ type: "face" });
        break;
      case "record":
        segments.push({ type: "voice" });
        attachments.push(attachment("voice", data));
        break;
      case "video":
        segments.push({ type: "video" });
        attachments.push(attachment("video", data));
        break;
      case "file":
        segments.push({ type: "file", name: fileName(data) });
        attachments.push(attachment("file", data));
        break;
      case "forward":
        segments.push({ type: "other", label: "聊天记录" });
        break;
      default:
        segments.push({ type: "other" });
    }
  }
  return { text: composeMessageText(segments), attachments, mentionsBot, quotedMessageId };
}

function mentionName(qq: string, data: OneBotSegment["data"], context: OneBotMessageContext): string {
  // Some implementations send the name with its `@` already on.
  const given = stringOf(data.name)?.replace(/^@/, "");
  if (given) return given;
  if (qq === context.sender.userId && context.sender.name) return context.sender.name;
  return qq;
}

function attachment(kind: InboundAttachment["kind"], data: OneBotSegment["data"]): InboundAttachment {
  const file = stringOf(data.file);
  const url = stringOf(data.url) ?? (file && /^https?:\/\//i.test(file) ? file : null);
  return {
    kind,
    url,
    filename: kind === "file" ? fileName(data) : file,
    contentType: null,
    transcript: null,
  };
}

function fileName(data: OneBotSegment["data"]): string | null {
  return stringOf(data.name) ?? stringOf(data.file);
}

/** Segment values are strings by the spec; numbers (NapCat ids) are accepted too. Empty → null. */
function stringOf(value: unknown): string | null {
  if (typeof value === "string") return value === "" ? null : value;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return null;
}
