/** One line of the Overview: today's model tokens against the daily caps. */
import type { SpendReport } from "../../domain/spend/spend-report";
import { type Translate, useT } from "./i18n/i18n";

const cap = (t: Translate, n: number | null) => (n === null ? t("spend.noCap") : t("spend.cap", { n }));

export function SpendLine(props: { spend: SpendReport }) {
  const t = useT();
  const s = props.spend;
  const capped = s.chats.filter((c) => c.capped).length;
  return (
    <p class={s.global.capped ? "error" : "muted"}>
      {t("spend.line", {
        day: s.day,
        zone: s.timeZone,
        tokens: s.global.tokens,
        cap: cap(t, s.globalDailyTokens),
      })}
      {s.global.capped ? t("spend.reached") : ""}
      {t("spend.perChat", { cap: cap(t, s.chatDailyTokens) })}
      {capped > 0 ? t("spend.capped", { count: capped }) : ""}
    </p>
  );
}
