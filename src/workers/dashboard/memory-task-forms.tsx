/**
 * A task's lifecycle on its edit page (docs/memory.md#decay-and-reinforcement): its due time, set
 * or cleared in `calendar.timeZone`, and "标记完成", which archives an active task now as expired
 * with cause "done". Both are posted with the CSRF token and audited; other kinds show neither.
 */
import type { MemoryItem } from "../../domain/memory/memory";
import { CSRF_FIELD } from "../auth/csrf";
import { inputTime, useTimeZone } from "./format";
import { useT } from "./i18n/i18n";

export function MemoryTaskForms(props: { item: MemoryItem; csrf: string | null }) {
  const t = useT();
  const { item } = props;
  if (item.kind !== "task") return null;
  const dueAt = item.decay?.dueAt ?? null;
  const path = `/admin/memory/${encodeURIComponent(item.nodeId)}`;
  const csrf = props.csrf && <input type="hidden" name={CSRF_FIELD} value={props.csrf} />;
  return (
    <>
      <form method="post" action={`${path}/due`} class="filters">
        {csrf}
        <label>
          {t("memory.task.dueLabel", { zone: useTimeZone() })}
          <input name="dueAt" type="datetime-local" value={dueAt === null ? "" : inputTime(dueAt)} />
        </label>
        <button type="submit" class="quiet">
          {t("memory.task.saveDue")}
        </button>
        <span class="muted">{t("memory.task.dueHint")}</span>
      </form>
      {item.status === "active" && (
        <form method="post" action={`${path}/done`} class="inline">
          {csrf}
          <button type="submit">{t("memory.task.markDone")}</button>
          <span class="muted"> {t("memory.task.markDoneHint")}</span>
        </form>
      )}
    </>
  );
}
