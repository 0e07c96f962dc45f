/**
 * Who says what in a simulated message: the local dev console sends one, the admin faces'
 * context preview shows what a turn would see for one, and both accept a sender the same way.
 */
import { z } from "zod";

export const simulatedMessageFields = {
  /** The sender's user id in that chat; for private chats defaults to the chat's user. */
  sender: z
    .string()
    .regex(/^[^\s:]{1,128}$/, "must be a user id without spaces or ':'")
    .optional(),
  name: z.string().min(1).max(64).optional(),
  text: z.string().min(1).max(4000),
};
