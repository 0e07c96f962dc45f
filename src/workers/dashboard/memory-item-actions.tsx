/**
 * One memory item's actions: edit, move to another scope (a private or secret item into a
 * shared scope only with "share anyway"), archive or restore, and forget (confirmed by a checkbox).
 */

import type { MemoryItem } from "../../domain/memory/memory";
import { CSRF_FIELD } from "../auth/csrf";
import { useT } from "./i18n/i18n";
import { ShareAnyway } from "./memory-add-section";

export function MemoryItemActions(props: { item: MemoryItem; csrf: string | null }) {
  const t = useT();
  const id = props.item.nodeId;
  const base = `/admin/memory/${encodeURIComponent(id)}`;
  const csrf = props.csrf && <input type="hidden" name={CSRF_FIELD} value={props.csrf} />;
  return (
    <>
      <a href={`${base}/edit`}>{t("memory.action.edit")}</a>{" "}
      {props.item.status === "active" && (
        <form method="post" action={`${base}/move`} class="inline">
          {csrf}
          <input name="scope" required placeholder={t("memory.moveTo")} aria-label={t("memory.moveTo")} />
          <ShareAnyway />
          <button type="submit" class="quiet">
            {t("memory.action.move")}
          </button>
        </form>
      )}{" "}
      {props.item.status !== "superseded" && (
        <form
          method="post"
          action={`${base}/${props.item.status === "active" ? "archive" : "restore"}`}
          class="inline"
        >
          {csrf}
          <button type="submit" class="quiet">
            {t(props.item.status === "active" ? "memory.action.archive" : "memory.action.restore")}
          </button>
        </form>
      )}{" "}
      <form method="post" action={`${base}/forget`} class="inline">
        {csrf}
        <label class="inline">
          <input type="checkbox" name="confirm" value={id} required /> {t("memory.action.sure")}
        </label>
        <button type="submit" class="danger">
          {t("memory.action.forget")}
        </button>
      </form>
    </>
  );
}
