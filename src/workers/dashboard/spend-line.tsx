/** One line of the Overview: today's model tokens against the daily caps. */
import type { SpendReport } from "../../domain/spend/spend-report";

const cap = (n: number | null) => (n === null ? "no cap" : `cap ${n}`);

export function SpendLine(props: { spend: SpendReport }) {
  const s = props.spend;
  const capped = s.chats.filter((c) => c.capped).length;
  return (
    <p class={s.global.capped ? "error" : "muted"}>
      Spend {s.day} ({s.timeZone}): {s.global.tokens} tokens, {cap(s.globalDailyTokens)}
      {s.global.capped ? " — reached, model calls refused" : ""}; per chat {cap(s.chatDailyTokens)}
      {capped > 0 ? `, ${capped} chat(s) capped` : ""}
    </p>
  );
}
