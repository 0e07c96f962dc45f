/**
 * The knowledge page's upload: several files into one collection, each with its progress and
 * result, driven by the page's upload script (upload-script.ts).
 */

import type { CollectionInfo } from "../../domain/knowledge/collection";
import { useT } from "./i18n/i18n";

export function UploadSection(props: {
  collections: readonly CollectionInfo[];
  selected: string;
  csrf: string | null;
}) {
  const t = useT();
  return (
    <>
      <h2>{t("kb.upload")}</h2>
      <form id="upload" data-csrf={props.csrf ?? ""}>
        <div class="filters">
          <label>
            {t("kb.into")}
            <select name="collection">
              {props.collections.map((c) => (
                <option value={c.name} selected={c.name === props.selected}>
                  {c.name}
                </option>
              ))}
            </select>
          </label>
          <label>
            {t("kb.files")}
            <input type="file" id="files" name="files" multiple />
          </label>
          <button type="submit">{t("kb.upload")}</button>
        </div>
        <div id="drop" class="drop">
          {t("kb.drop", { formats: ".md, .txt, .html, .pdf, .docx, .csv, .tsv, .json, .jsonl" })}
        </div>
        <ul id="uploads" class="uploads" aria-live="polite" />
      </form>
      <script src="/admin/upload.js" defer />
    </>
  );
}
