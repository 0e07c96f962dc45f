/**
 * The dashboard's language: one catalogue (catalogue-zh.ts, catalogue-en.ts) read through `t`.
 * Simplified Chinese is the default; English on request. Components read the request's
 * translator from a hono/jsx context (`useT`), so no page passes it down by hand; route code
 * that builds a notice reads it from the request (`c.get("t")`).
 */
import { createContext, useContext } from "hono/jsx";
import { DEFAULT_CALENDAR_SETTINGS } from "../../../domain/config/calendar-settings";
import { en } from "./catalogue-en";
import { type MessageKey, zhCN } from "./catalogue-zh";

export type { MessageKey } from "./catalogue-zh";

export const LANGS = ["zh-CN", "en"] as const;
export type Lang = (typeof LANGS)[number];
export const DEFAULT_LANG: Lang = "zh-CN";
/** The per-browser choice: display only, never read by anything that changes state. */
export const LANG_COOKIE = "akasha_lang";

const CATALOGUES: Record<Lang, Record<MessageKey, string>> = { "zh-CN": zhCN, en };

export type Params = Readonly<Record<string, string | number>>;
export type Translate = (key: MessageKey, params?: Params) => string;

export function isLang(value: unknown): value is Lang {
  return typeof value === "string" && (LANGS as readonly string[]).includes(value);
}

/** `{name}` in a message is replaced by params.name; an unknown name stays as written. */
export function translator(lang: Lang): Translate {
  const catalogue = CATALOGUES[lang];
  return (key, params) => {
    const message = catalogue[key];
    if (!params) return message;
    return message.replace(/\{(\w+)\}/g, (whole, name: string) =>
      name in params ? String(params[name]) : whole,
    );
  };
}

/**
 * How a page speaks: its language, and `calendar.timeZone`, the zone every time it shows is
 * rendered in (format.ts `formatTime`), so the dashboard's days are the bot's days.
 */
export type I18n = { readonly lang: Lang; readonly t: Translate; readonly timeZone: string };

export function i18n(lang: Lang, timeZone: string = DEFAULT_CALENDAR_SETTINGS.timeZone): I18n {
  return { lang, t: translator(lang), timeZone };
}

export const I18nContext = createContext<I18n>(i18n(DEFAULT_LANG));

/** The translator of the page being rendered. */
export function useT(): Translate {
  return useContext(I18nContext).t;
}

export function useLang(): Lang {
  return useContext(I18nContext).lang;
}
