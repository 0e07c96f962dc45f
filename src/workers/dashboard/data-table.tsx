/** The dashboard's list tables and date filters, one shape for every page. */

import type { Child } from "hono/jsx";
import { useT } from "./i18n/i18n";

/** A scrollable table with one header row, or a muted line when there are no rows. */
export function DataTable(props: { headers: readonly string[]; empty: string; rows: readonly Child[] }) {
  if (props.rows.length === 0) return <p class="muted">{props.empty}</p>;
  return (
    <div class="scroll">
      <table>
        <thead>
          <tr>
            {props.headers.map((h) => (
              <th>{h}</th>
            ))}
          </tr>
        </thead>
        <tbody>{props.rows}</tbody>
      </table>
    </div>
  );
}

/** The From / Until date inputs of a filter form (YYYY-MM-DD, UTC days). */
export function DateRangeFields(props: { from?: string | undefined; until?: string | undefined }) {
  const t = useT();
  return (
    <>
      <label>
        {t("filter.from")}
        <input type="date" name="from" value={props.from ?? ""} />
      </label>
      <label>
        {t("filter.until")}
        <input type="date" name="until" value={props.until ?? ""} />
      </label>
    </>
  );
}
