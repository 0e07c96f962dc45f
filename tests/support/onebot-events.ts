// OneBot v11 message events as the webhook receives them, for the tests that post them.

/** The bot's own QQ number in the tests' OneBot events. */
export const SELF = 10000;

export type Segment = { type: string; data: Record<string, unknown> };

export function oneBotMessage(input: {
  kind: "group" | "private";
  user: number;
  group?: number;
  messageId: number;
  segments: Segment[];
  rawMessage: string;
  card?: string;
  nickname?: string;
  groupName?: string;
}): string {
  return JSON.stringify({
    time: Math.floor(Date.now() / 1000),
    self_id: SELF,
    post_type: "message",
    message_type: input.kind,
    sub_type: input.kind === "group" ? "normal" : "friend",
    message_id: input.messageId,
    ...(input.group === undefined ? {} : { group_id: input.group }),
    ...(input.groupName === undefined ? {} : { group_name: input.groupName }),
    user_id: input.user,
    message: input.segments,
    raw_message: input.rawMessage,
    font: 0,
    sender: {
      user_id: input.user,
      nickname: input.nickname ?? "小红",
      card: input.card ?? "",
      role: "member",
    },
  });
}

export const text = (t: string): Segment => ({ type: "text", data: { text: t } });
export const atBot: Segment = { type: "at", data: { qq: String(SELF) } };
