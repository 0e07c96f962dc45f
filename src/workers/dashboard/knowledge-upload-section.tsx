/**
 * The knowledge page's upload: several files into one collection, each with its progress and
 * result, driven by the page's upload script (upload-script.ts).
 */
import type { CollectionInfo } from "../../domain/knowledge/collection";

export function UploadSection(props: {
  collections: readonly CollectionInfo[];
  selected: string;
  csrf: string | null;
}) {
  return (
    <>
      <h2>Upload</h2>
      <form id="upload" data-csrf={props.csrf ?? ""}>
        <div class="filters">
          <label>
            Into collection
            <select name="collection">
              {props.collections.map((c) => (
                <option value={c.name} selected={c.name === props.selected}>
                  {c.name}
                </option>
              ))}
            </select>
          </label>
          <label>
            Files (up to 20, 25 MiB each)
            <input type="file" id="files" name="files" multiple />
          </label>
          <button type="submit">Upload</button>
        </div>
        <div id="drop" class="drop">
          Drop files here: .md, .txt, .html, .pdf, .docx, .csv, .tsv, .json, .jsonl
        </div>
        <ul id="uploads" class="uploads" aria-live="polite" />
      </form>
      <script src="/admin/upload.js" defer />
    </>
  );
}
