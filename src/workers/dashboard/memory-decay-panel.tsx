/**
 * One item's standing in time on its edit page (docs/memory.md#decay-and-reinforcement): its age
 * weight now, its kind's half-life, how often and when it was last reinforced, a task's due time
 * or expiry, and the "永久保留" toggle (audited as an edit, CSRF-protected like every form); a
 * task's due-time field and "标记完成" follow (memory-task-forms.tsx).
 */
import type { MemoryDecaySettings } from "../../domain/config/memory-decay-settings";
import { decayWeight, halfLifeOf, NO_DECAY } from "../../domain/memory/decay";
import type { MemoryItem } from "../../domain/memory/memory";
import { CSRF_FIELD } from "../auth/csrf";
import { formatTime } from "./format";
import { useT } from "./i18n/i18n";
import { MemoryTaskForms } from "./memory-task-forms";

export function MemoryDecayPanel(props: {
  item: MemoryItem;
  decay: MemoryDecaySettings;
  now: number;
  csrf: string | null;
}) {
  const t = useT();
  const { item } = props;
  const d = item.decay ?? NO_DECAY;
  const halfLife = halfLifeOf(item, props.decay);
  const weight = decayWeight(item, props.now, props.decay);
  return (
    <section>
      <h2>{t("memory.decay.title")}</h2>
      <dl>
        <dt>{t("memory.decay.weight")}</dt>
        <dd>
          {weight.toFixed(2)}{" "}
          <span class="muted">
            {d.keepForever
              ? t("memory.decay.keptForever")
              : halfLife > 0
                ? t("memory.decay.halfLife", { days: halfLife })
                : t("memory.decay.noDecay")}
          </span>
        </dd>
        <dt>{t("memory.decay.reinforced")}</dt>
        <dd>
          {d.reinforceCount > 0 && d.reinforcedAt !== null
            ? t("memory.decay.reinforcedTimes", { count: d.reinforceCount, at: formatTime(d.reinforcedAt) })
            : t("memory.decay.never")}
        </dd>
        {d.dueAt !== null && <dt>{t("memory.decay.due")}</dt>}
        {d.dueAt !== null && <dd>{formatTime(d.dueAt)}</dd>}
        {d.expiredAt !== null && <dt>{t("memory.decay.expired")}</dt>}
        {d.expiredAt !== null && <dd>{formatTime(d.expiredAt)}</dd>}
      </dl>
      <form method="post" action={`/admin/memory/${encodeURIComponent(item.nodeId)}/keep`} class="inline">
        {props.csrf && <input type="hidden" name={CSRF_FIELD} value={props.csrf} />}
        <input type="hidden" name="keepForever" value={d.keepForever ? "false" : "true"} />
        <button type="submit" class="quiet">
          {t(d.keepForever ? "memory.decay.stopKeeping" : "memory.decay.keep")}
        </button>
      </form>
      <MemoryTaskForms item={item} csrf={props.csrf} />
    </section>
  );
}
