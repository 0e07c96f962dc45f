/** One stored message of a chat-day, as the daily summary reads it from the log. */
export type DayMessage = {
  readonly messageId: string;
  readonly ts: number;
  readonly userId: string | null;
  readonly nick: string | null;
  readonly text: string;
  /** The platform id of the message this one quotes, when it is a reply. */
  readonly replyTo: string | null;
  readonly direction: "in" | "out";
};
