// `npm run akasha -- kb <list|create|show|import|delete|search> …`: the knowledge base through the
// Worker's admin API (local by default; --url https://<host> --token <ADMIN_TOKEN> for remote).
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { CliError, collect, command as define, integer, withApiOptions } from "../lib/args.mjs";
import { client, problemMessage } from "./admin-api.mjs";
import { has, t } from "./i18n/lang.mjs";
import { progressBar } from "./progress.mjs";

const MAX_FILES = 20;
const MAX_FILE_BYTES = 25 * 1024 * 1024;
/** Requests stay under the platform's 100 MB body limit. */
const MAX_REQUEST_BYTES = 90 * 1024 * 1024;

/** Every file under the inputs, with its path on disk. */
function walk(inputs, recursive) {
  const out = [];
  for (const input of inputs) {
    if (statSync(input).isDirectory()) {
      for (const name of readdirSync(input).sort()) {
        const full = path.join(input, name);
        if (!statSync(full).isDirectory()) out.push(full);
        else if (recursive) out.push(...walk([full], true));
      }
    } else out.push(input);
  }
  return out;
}

/**
 * The files of an import, each named by its path inside the import — its document's identity
 * (docs/retrieval.md#import-and-chunking): relative to the one directory given, else to the
 * deepest folder all inputs share, `/`-separated. Two files under one name are refused.
 */
export function files(inputs, recursive) {
  const all = walk(inputs, recursive);
  const single = inputs.length === 1 && statSync(inputs[0]).isDirectory();
  const base = single ? path.resolve(inputs[0]) : commonFolder(all.map((f) => path.dirname(path.resolve(f))));
  const named = all.map((f) => ({
    path: f,
    name: path.relative(base, path.resolve(f)).split(path.sep).join("/"),
  }));
  const seen = new Map();
  for (const f of named) {
    if (seen.has(f.name))
      throw new CliError(t("kb.sameName", { first: seen.get(f.name), second: f.path, name: f.name }));
    seen.set(f.name, f.path);
  }
  return named;
}

function commonFolder(folders) {
  if (folders.length === 0) return process.cwd();
  let parts = folders[0].split(path.sep);
  for (const f of folders.slice(1)) {
    const other = f.split(path.sep);
    let i = 0;
    while (i < parts.length && parts[i] === other[i]) i++;
    parts = parts.slice(0, i);
  }
  return parts.join(path.sep) || path.sep;
}

/** The collection exists, or is created with --create, or the import stops naming the fix. */
async function ensureCollection(api, name, o) {
  const found = await api.request("GET", `/kb/collections/${encodeURIComponent(name)}`);
  if (found.ok) return;
  if (found.status !== 404) throw new CliError(problemMessage(found.status, found.json), 1);
  if (!o.create) throw new CliError(t("kb.noCollection", { name }), 1);
  await api.call("POST", "/kb/collections", { name });
  if (!o.json) console.log(t("kb.created", { name }));
}

const print = (x) => console.log(JSON.stringify(x, null, 2));

async function importFiles(api, name, inputs, o) {
  const all = files(inputs, o.recursive === true);
  await ensureCollection(api, name, o);
  const bar = progressBar(o, "files");
  bar.update(0, all.length);
  const lines = [];
  const results = [];
  let failed = 0;
  let batch = [];
  let bytes = 0;
  const send = async () => {
    if (batch.length === 0) return;
    const form = new FormData();
    for (const f of batch) form.append("files", new Blob([readFileSync(f.path)]), f.name);
    const r = await api.request("POST", `/kb/collections/${encodeURIComponent(name)}/documents`, form);
    if (!r.json.results) {
      lines.push(t("kb.importFailed", { status: r.status, body: JSON.stringify(r.json) }));
      for (const f of batch)
        results.push({ file: f.name, status: "failed", error: { kind: "http", message: String(r.status) } });
      failed += batch.length;
    } else {
      for (const res of r.json.results) {
        results.push(res);
        if (res.status === "failed") failed++;
        lines.push(
          res.status === "failed"
            ? t("kb.fileFailed", { file: res.file, kind: res.error.kind, message: res.error.message })
            : t("kb.fileDone", {
                mark: res.status === "unchanged" ? "=" : "✓",
                file: res.file,
                status: has(`kb.status.${res.status}`) ? t(`kb.status.${res.status}`) : res.status,
                passages: res.passages,
              }),
        );
      }
    }
    bar.increment(batch.length);
    batch = [];
    bytes = 0;
  };
  for (const f of all) {
    const size = statSync(f.path).size;
    if (size > MAX_FILE_BYTES) {
      lines.push(t("kb.tooLarge", { file: f.name, size, limit: MAX_FILE_BYTES }));
      results.push({
        file: f.name,
        status: "failed",
        error: { kind: "too-large", message: `${size} bytes` },
      });
      bar.increment();
      failed++;
      continue;
    }
    if (batch.length >= MAX_FILES || bytes + size > MAX_REQUEST_BYTES) await send();
    batch.push({ ...f, size });
    bytes += size;
  }
  await send();
  bar.stop();
  if (o.json) print({ collection: name, files: all.length, failed, results });
  else
    console.log(
      `${lines.join("\n")}${lines.length ? "\n" : ""}${t("kb.summaryLine", { ok: all.length - failed, total: all.length })}`,
    );
  return failed > 0 ? 1 : 0;
}

export function command(name = "kb") {
  const kb = define(name).description(t("summary.kb"));
  kb.addCommand(
    withApiOptions(define("list").description(t("kb.desc.list"))).action(async (o) => {
      const r = await client(o).call("GET", "/kb/collections");
      if (o.json) return print(r);
      if ((r.collections ?? []).length === 0) console.log(t("kb.noCollections"));
      for (const c of r.collections ?? [])
        console.log(
          t("kb.collection", {
            name: c.name.padEnd(24),
            documents: String(c.documents).padStart(6),
            passages: String(c.passages).padStart(8),
            chunk: c.chunkSize,
          }),
        );
    }),
  );
  kb.addCommand(
    withApiOptions(
      define("create")
        .description(t("kb.desc.create"))
        .argument("<name>", t("kb.arg.name"))
        .option("--chunk-size <n>", t("kb.opt.chunkSize"), integer(50, 8000))
        .option("--overlap <n>", t("kb.opt.overlap"), integer(0, 2000))
        .option("--title <title>", t("kb.opt.title")),
    ).action(async (collection, o) => {
      print(
        await client(o).call("POST", "/kb/collections", {
          name: collection,
          ...(o.chunkSize !== undefined ? { chunkSize: o.chunkSize } : {}),
          ...(o.overlap !== undefined ? { chunkOverlap: o.overlap } : {}),
          ...(o.title !== undefined ? { title: o.title } : {}),
        }),
      );
    }),
  );
  kb.addCommand(
    withApiOptions(define("show").description(t("kb.desc.show")).argument("<name>", t("kb.arg.name"))).action(
      async (collection, o) =>
        print(await client(o).call("GET", `/kb/collections/${encodeURIComponent(collection)}`)),
    ),
  );
  kb.addCommand(
    withApiOptions(
      define("import")
        .description(t("kb.desc.import"))
        .argument("<name>", t("kb.arg.name"))
        .argument("<inputs...>", t("kb.arg.inputs"))
        .option("--recursive", t("kb.opt.recursive"))
        .option("--create", t("kb.opt.create")),
    ).action(async (collection, inputs, o) => {
      process.exitCode = await importFiles(client(o), collection, inputs, o);
    }),
  );
  kb.addCommand(
    withApiOptions(
      define("delete")
        .description(t("kb.desc.delete"))
        .argument("<name>", t("kb.arg.name"))
        .option("--source <file>", t("kb.opt.source")),
    ).action(async (collection, o) => {
      const route = o.source
        ? `/kb/collections/${encodeURIComponent(collection)}/documents?source=${encodeURIComponent(o.source)}`
        : `/kb/collections/${encodeURIComponent(collection)}`;
      print(await client(o).call("DELETE", route));
    }),
  );
  kb.addCommand(
    withApiOptions(
      define("search")
        .description(t("kb.desc.search"))
        .argument("<query...>", t("kb.arg.query"))
        .option("--collection <name>", t("kb.opt.collection"), collect)
        .option("--limit <n>", t("kb.opt.limit"), integer(1, 50)),
    ).action(async (words, o) => {
      const r = await client(o).call("POST", "/kb/search", {
        query: words.join(" "),
        ...(o.collection ? { collections: o.collection } : {}),
        ...(o.limit !== undefined ? { limit: o.limit } : {}),
      });
      if (o.json) return print(r);
      if ((r.items ?? []).length === 0) console.log(t("kb.noResults"));
      for (const [i, it] of (r.items ?? []).entries()) {
        const c = it.citation;
        console.log(
          `[${i + 1}] ${c.collection}/${c.source} › ${c.path.join(" > ")} #${c.node_id} (${it.via})\n${it.text}\n`,
        );
      }
    }),
  );
  return kb;
}
