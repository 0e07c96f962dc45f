/**
 * The Knowledge page's one client script (served at /admin/upload.js): drag-and-drop or pick
 * up to 20 files of up to 25 MiB, send them with XMLHttpRequest so each file gets a progress
 * bar, and show the import's one result per file. Files go in batches that stay under the
 * platform's request size; each file's bar follows the bytes of its own part of the body.
 * The server checks the same limits; the checks here only save a pointless upload.
 */
import { IMPORT_LIMITS } from "../../domain/knowledge/import-documents";

/** Below the 100 MB request cap, leaving room for the multipart framing. */
const BATCH_BYTES = 90 * 1024 * 1024;

export const UPLOAD_SCRIPT = `(() => {
  const MAX_FILES = ${IMPORT_LIMITS.maxFiles}, MAX_BYTES = ${IMPORT_LIMITS.maxFileBytes}, BATCH_BYTES = ${BATCH_BYTES};
  const form = document.getElementById("upload");
  if (!form) return;
  const drop = document.getElementById("drop");
  const input = document.getElementById("files");
  const list = document.getElementById("uploads");
  const csrf = form.dataset.csrf || "";
  const collection = () => form.querySelector("[name=collection]").value;
  const mib = (n) => (n / 1048576).toFixed(1) + " MiB";

  function row(file) {
    const li = document.createElement("li");
    li.dataset.file = file.name;
    const name = document.createElement("b");
    name.textContent = file.name + " ";
    const size = document.createElement("span");
    size.className = "muted";
    size.textContent = mib(file.size);
    const bar = document.createElement("progress");
    bar.max = 100;
    bar.value = 0;
    const result = document.createElement("div");
    result.className = "result";
    li.append(name, size, bar, result);
    list.append(li);
    return { li, bar, result };
  }
  function done(r, ok, text) {
    r.bar.value = 100;
    r.result.className = "result " + (ok ? "ok" : "bad");
    r.result.setAttribute("role", ok ? "status" : "alert");
    r.result.textContent = text;
  }
  function describe(res) {
    if (res.status === "failed") return [false, res.error.kind + ": " + res.error.message];
    return [true, res.status + ": " + res.sections + " sections, " + res.passages + " passages"];
  }

  function send(batch) {
    return new Promise((resolve) => {
      const body = new FormData();
      for (const { file } of batch) body.append("files", file, file.name);
      const xhr = new XMLHttpRequest();
      xhr.open("POST", "/api/kb/collections/" + encodeURIComponent(collection()) + "/documents");
      xhr.setRequestHeader("X-CSRF-Token", csrf);
      xhr.responseType = "json";
      xhr.upload.onprogress = (e) => {
        if (!e.lengthComputable) return;
        // Parts are sent in order: a file's bar fills while the body passes its bytes.
        const scale = e.total / batch.reduce((n, b) => n + b.file.size, 0);
        let start = 0;
        for (const b of batch) {
          const size = b.file.size * scale;
          b.ui.bar.value = Math.max(0, Math.min(99, ((e.loaded - start) / Math.max(size, 1)) * 100));
          start += size;
        }
      };
      xhr.onload = () => {
        const json = xhr.response || {};
        const results = Array.isArray(json.results) ? json.results : [];
        for (const b of batch) {
          const res = results.find((x) => x.file === b.file.name);
          if (res) done(b.ui, ...describe(res));
          else done(b.ui, false, json.reason ? (json.field ? json.field + " " : "") + json.reason : "upload failed (" + xhr.status + ")");
        }
        resolve();
      };
      xhr.onerror = () => {
        for (const b of batch) done(b.ui, false, "network error: the upload did not reach the server");
        resolve();
      };
      xhr.send(body);
    });
  }

  async function upload(files) {
    list.textContent = "";
    if (!collection()) { const r = row({ name: "(no collection)", size: 0 }); done(r, false, "choose a collection first"); return; }
    const picked = [...files];
    if (picked.length > MAX_FILES) {
      const r = row({ name: picked.length + " files", size: 0 });
      done(r, false, "at most " + MAX_FILES + " files at a time");
      return;
    }
    const batches = [];
    let current = [], bytes = 0;
    for (const file of picked) {
      const ui = row(file);
      if (file.size > MAX_BYTES) { done(ui, false, "too-large: " + mib(file.size) + "; the limit is " + mib(MAX_BYTES)); continue; }
      if (current.length > 0 && bytes + file.size > BATCH_BYTES) { batches.push(current); current = []; bytes = 0; }
      current.push({ file, ui });
      bytes += file.size;
    }
    if (current.length > 0) batches.push(current);
    for (const batch of batches) await send(batch);
    form.dataset.done = "1";
  }

  form.addEventListener("submit", (e) => { e.preventDefault(); upload(input.files); });
  drop.addEventListener("dragover", (e) => { e.preventDefault(); drop.classList.add("over"); });
  drop.addEventListener("dragleave", () => drop.classList.remove("over"));
  drop.addEventListener("drop", (e) => { e.preventDefault(); drop.classList.remove("over"); upload(e.dataTransfer.files); });
})();
`;
