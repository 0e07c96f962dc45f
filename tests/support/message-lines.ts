// Seeds D1's message log with bot lines through the production writer, for the history tests.
import { env } from "cloudflare:workers";
import { D1MessageLog } from "@src/adapters/d1/d1-message-log";
import { openDatabase } from "@src/adapters/d1/database";
import { outboundRecord } from "@src/domain/history/message-record";

export const T0 = 1_700_000_000_000;
export const MINUTE = 60_000;

export type Line = {
  readonly chat: string;
  readonly id: string;
  readonly minute: number;
  readonly text: string;
  /** The bot's name on the line: 小明 unless given. */
  readonly nick?: string;
};

/**
 * Writes the lines in the given order (so seq numbers interleave chats), `minute` minutes after
 * `start`, then the recalls.
 */
export async function seedLines(
  lines: readonly Line[],
  recalled: readonly Pick<Line, "chat" | "id">[] = [],
  start = T0,
): Promise<void> {
  await new D1MessageLog(openDatabase(env.DB)).flush({
    messages: lines.map((l) =>
      outboundRecord({
        transport: "qq",
        chatKey: l.chat,
        messageId: l.id,
        ts: start + l.minute * MINUTE,
        text: l.text,
        botName: l.nick ?? "小明",
      }),
    ),
    recalls: recalled.map((l) => ({ transport: "qq", chatKey: l.chat, messageId: l.id })),
    chats: [],
    usage: [],
    audit: [],
  });
}
