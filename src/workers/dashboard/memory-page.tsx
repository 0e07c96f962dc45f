/**
 * Memory: browse and filter items, add one to any scope, move, archive/restore/forget them, the dreaming candidates, and
 * the context preview — what the bot would see if a sender said a text in a chat. Each section
 * is a component of its own; this page puts them in order.
 */

import type { CandidateRow } from "../../composition/request/memory-service";
import type { MemoryDecaySettings } from "../../domain/config/memory-decay-settings";
import type { MemoryItem } from "../../domain/memory/memory";
import { SENSITIVITIES } from "../../domain/memory/memory";
import { MEMORY_KINDS } from "../../domain/memory/scope";
import { CSRF_FIELD } from "../auth/csrf";
import { ContextPreviewSection, type PreviewForm, type PreviewResult } from "./context-preview-section";
import { DreamingCandidatesSection } from "./dreaming-candidates-section";
import { useT } from "./i18n/i18n";
import { MemoryAddSection } from "./memory-add-section";
import { MemoryDecayPanel } from "./memory-decay-panel";
import { type MemoryFilters, MemoryItemsSection } from "./memory-items-section";
import { PageNotices } from "./page-notices";

export type { MemoryFilters, PreviewForm, PreviewResult };

export function MemoryPage(props: {
  filters: MemoryFilters;
  items: readonly MemoryItem[];
  total: number;
  candidates: readonly CandidateRow[];
  preview: { form: PreviewForm; result: PreviewResult | null };
  csrf: string | null;
  notice?: string;
  error?: string;
}) {
  const t = useT();
  return (
    <>
      <h1>{t("nav.memory")}</h1>
      <PageNotices notice={props.notice} error={props.error} />
      <MemoryItemsSection filters={props.filters} items={props.items} total={props.total} csrf={props.csrf} />

      <MemoryAddSection csrf={props.csrf} />

      <ContextPreviewSection form={props.preview.form} result={props.preview.result} />

      <DreamingCandidatesSection candidates={props.candidates} />
    </>
  );
}

export function MemoryEditPage(props: {
  item: MemoryItem;
  csrf: string | null;
  decay: MemoryDecaySettings;
  now: number;
  notice?: string;
  error?: string;
}) {
  const t = useT();
  const item = props.item;
  return (
    <>
      <h1>{t("memory.editItem")}</h1>
      <p class="muted">
        {item.nodeId} · {`${item.scope.type}:${item.scope.id}`} · {item.status}
      </p>
      <PageNotices notice={props.notice} error={props.error} />
      <form method="post" action={`/admin/memory/${encodeURIComponent(item.nodeId)}/edit`} class="filters">
        {props.csrf && <input type="hidden" name={CSRF_FIELD} value={props.csrf} />}
        <label class="wide">
          {t("memory.text")}
          <input name="text" value={item.text} required />
        </label>
        <label>
          {t("memory.kind")}
          <select name="kind">
            {MEMORY_KINDS.map((k) => (
              <option value={k} selected={k === item.kind}>
                {k}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t("memory.sensitivity")}
          <select name="sensitivity">
            {SENSITIVITIES.map((s) => (
              <option value={s} selected={s === item.sensitivity}>
                {s}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t("memory.importance")}
          <input
            name="importance"
            type="number"
            min="0"
            max="1"
            step="0.05"
            value={String(item.importance)}
          />
        </label>
        <label>
          {t("memory.portable")}
          <input type="checkbox" name="portable" value="true" checked={item.portable} />
        </label>
        <button type="submit">{t("common.save")}</button>
      </form>
      <MemoryDecayPanel item={item} decay={props.decay} now={props.now} csrf={props.csrf} />
    </>
  );
}
