/** What the admin faces accept for a context preview: the chat, the sender and the message. */
import { z } from "zod";
import { simulatedMessageFields } from "./simulated-message";

export const PreviewAsk = z
  .object({
    /** A chat key (`qq:group:<id>`), a lane of one (`…:cron:<id>`) or a legacy key. */
    chat: z.string().min(1).max(512),
    ...simulatedMessageFields,
  })
  .strict();
