/** Messages per local day (`calendar.timeZone`) as an inline SVG bar chart: no script, no library, readable on a phone. */
import { useT } from "./i18n/i18n";

export function DayChart(props: { days: readonly { day: string; messages: number }[] }) {
  const t = useT();
  const width = 600;
  const height = 140;
  const bottom = 20;
  const max = Math.max(1, ...props.days.map((d) => d.messages));
  const slot = width / Math.max(1, props.days.length);
  return (
    <svg class="chart" viewBox={`0 0 ${width} ${height}`} role="img" aria-label={t("chart.label")}>
      {props.days.map((d, i) => {
        const h = Math.round(((height - bottom - 10) * d.messages) / max);
        return (
          <g>
            <rect x={i * slot + 2} y={height - bottom - h} width={Math.max(1, slot - 4)} height={h}>
              <title>{`${d.day}: ${d.messages}`}</title>
            </rect>
            {(props.days.length <= 10 || i % Math.ceil(props.days.length / 8) === 0) && (
              <text x={i * slot + 2} y={height - 6}>
                {d.day.slice(5)}
              </text>
            )}
          </g>
        );
      })}
    </svg>
  );
}

/** Every local day of the window (oldest first), with zero for days without messages. */
export function fillDays(
  window: readonly { day: string }[],
  rows: readonly { day: string; messages: number }[],
) {
  const byDay = new Map(rows.map((r) => [r.day, r.messages]));
  return window.map(({ day }) => ({ day, messages: byDay.get(day) ?? 0 }));
}
