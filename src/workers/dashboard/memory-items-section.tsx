/** The memory page's item list: the filter form and the items with their actions. */

import type { MemoryItem } from "../../domain/memory/memory";
import { SENSITIVITIES } from "../../domain/memory/memory";
import { MEMORY_KINDS } from "../../domain/memory/scope";
import { formatTime } from "./format";
import { useT } from "./i18n/i18n";
import { MemoryItemActions } from "./memory-item-actions";
import { SensitivityTag } from "./sensitivity-tag";

export type MemoryFilters = Record<
  "scope" | "kind" | "sensitivity" | "status" | "chat" | "person" | "text",
  string
>;

function Select(props: { label: string; name: string; value: string; options: readonly string[] }) {
  const t = useT();
  return (
    <label>
      {props.label}
      <select name={props.name}>
        <option value="">{t("memory.any")}</option>
        {props.options.map((o) => (
          <option value={o} selected={o === props.value}>
            {o}
          </option>
        ))}
      </select>
    </label>
  );
}

function MemoryFilterForm(props: { filters: MemoryFilters }) {
  const t = useT();
  const f = props.filters;
  return (
    <form class="filters" method="get">
      <label>
        {t("memory.text")}
        <input type="search" name="text" value={f.text} />
      </label>
      <label>
        {t("memory.chat")}
        <input name="chat" value={f.chat} placeholder="qq:group:…" />
      </label>
      <label>
        {t("memory.scope")}
        <input name="scope" value={f.scope} placeholder="person:…" />
      </label>
      <Select label={t("memory.kind")} name="kind" value={f.kind} options={MEMORY_KINDS} />
      <Select
        label={t("memory.sensitivity")}
        name="sensitivity"
        value={f.sensitivity}
        options={SENSITIVITIES}
      />
      <Select
        label={t("memory.status")}
        name="status"
        value={f.status}
        options={["active", "archived", "superseded"]}
      />
      <button type="submit">{t("filter.submit")}</button>
    </form>
  );
}

export function MemoryItemsSection(props: {
  filters: MemoryFilters;
  items: readonly MemoryItem[];
  total: number;
  csrf: string | null;
}) {
  const t = useT();
  return (
    <>
      <MemoryFilterForm filters={props.filters} />
      <p class="muted">{t("memory.total", { total: props.total })}</p>
      <div class="scroll">
        <table id="memory-items">
          <thead>
            <tr>
              <th>{t("memory.text")}</th>
              <th>{t("memory.scope")}</th>
              <th>{t("memory.kind")}</th>
              <th>{t("memory.sensitivity")}</th>
              <th>{t("memory.status")}</th>
              <th>{t("memory.updated")}</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {props.items.map((item) => (
              <tr>
                <td>{item.text}</td>
                <td>{`${item.scope.type}:${item.scope.id}`}</td>
                <td>{item.kind}</td>
                <td>
                  <SensitivityTag value={item.sensitivity} />
                </td>
                <td>
                  {item.status}
                  {item.decay?.expiredAt != null && (
                    <span class="muted"> · {t("memory.decay.expiredTag")}</span>
                  )}
                  {item.decay?.keepForever && <span class="muted"> · {t("memory.decay.keptTag")}</span>}
                </td>
                <td>{formatTime(item.updatedAt)}</td>
                <td>
                  <MemoryItemActions item={item} csrf={props.csrf} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
