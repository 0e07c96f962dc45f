/** What the admin faces accept for a context preview: the chat, the sender and the message. */
import { z } from "zod";

export const PreviewAsk = z
  .object({
    /** A chat key (`qq:group:<id>`), a lane of one (`…:cron:<id>`) or a legacy key. */
    chat: z.string().min(1).max(512),
    /** The sender's user id in that chat; for private chats defaults to the chat's user. */
    sender: z
      .string()
      .regex(/^[^\s:]{1,128}$/, "must be a user id without spaces or ':'")
      .optional(),
    name: z.string().min(1).max(64).optional(),
    text: z.string().min(1).max(4000),
  })
  .strict();
