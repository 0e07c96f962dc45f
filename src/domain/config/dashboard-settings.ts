/**
 * The `dashboard` section of the behaviour settings: the language the admin pages speak when
 * the browser has not chosen one (the switch link in the page header sets a per-browser cookie).
 * Simplified Chinese by default: the owner and the admins read Chinese first.
 */
import { z } from "zod";

export const DASHBOARD_LANGUAGES = ["zh-CN", "en"] as const;

export const DashboardSettingsSchema = z
  .object({
    language: z.enum(DASHBOARD_LANGUAGES),
  })
  .strict();

export type DashboardSettings = z.infer<typeof DashboardSettingsSchema>;

export const DEFAULT_DASHBOARD_SETTINGS: DashboardSettings = { language: "zh-CN" };
