/**
 * The `calendar` section of the behaviour settings: the one time zone whose midnight starts a
 * day for everything that counts in days — history dates ("昨天", "上周三", since/until), the
 * daily summaries' day and the spend caps' day. One setting, so that "yesterday" in a history
 * question, yesterday's summary and yesterday's spend are the same day.
 */
import { z } from "zod";
import { isTimeZone } from "../kernel/local-day";

export const CalendarSettingsSchema = z
  .object({
    /** IANA time zone the platform's ICU knows, e.g. `Asia/Shanghai`, `Europe/Berlin` or `UTC`. */
    timeZone: z
      .string()
      .max(64)
      .refine(isTimeZone, "must be an IANA time zone the platform knows, such as Asia/Shanghai or UTC"),
  })
  .strict();

export type CalendarSettings = z.infer<typeof CalendarSettingsSchema>;

/**
 * The Worker has no zone of its own (workerd runs in UTC) and the bot's users are on QQ, so
 * days are China's unless configured otherwise: "昨天" at 00:30 is the day before in Shanghai.
 */
export const DEFAULT_CALENDAR_SETTINGS: CalendarSettings = { timeZone: "Asia/Shanghai" };
