// `npm run akasha -- kb <list|create|show|import|delete|search> …`: the knowledge base through the
// Worker's admin API (local by default; --url https://<host> --token <ADMIN_TOKEN> for remote).
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { client, parseArgs } from "./admin-api.mjs";

const MAX_FILES = 20;
const MAX_FILE_BYTES = 25 * 1024 * 1024;
/** Requests stay under the platform's 100 MB body limit. */
const MAX_REQUEST_BYTES = 90 * 1024 * 1024;

const USAGE = `usage: npm run akasha -- kb <command> [options]

  list                                   collections with document and passage counts
  create <name> [--chunk-size N] [--overlap N] [--title T]
  show <name>                            a collection and its documents
  import <name> <file|dir>… [--recursive]  import files (batches of ≤ 20 files, ≤ 25 MiB each)
  delete <name> [--source <file>]        delete a collection, or one document of it
  search <query> [--collection <name>]… [--limit N]

common: --url <worker url> (AKASHA_URL), --token <admin token> (AKASHA_ADMIN_TOKEN)`;

function files(inputs, recursive) {
  const out = [];
  for (const input of inputs) {
    const st = statSync(input);
    if (st.isDirectory()) {
      for (const name of readdirSync(input).sort()) {
        const full = path.join(input, name);
        if (statSync(full).isDirectory()) {
          if (recursive)
            out.push(...files([full], true).map((f) => ({ ...f, name: path.join(name, f.name) })));
        } else out.push({ path: full, name });
      }
    } else out.push({ path: input, name: path.basename(input) });
  }
  return out;
}

export async function run(args) {
  const { flags, positional } = parseArgs(args);
  const [sub, ...rest] = positional;
  const api = client(flags);
  const print = (x) => console.log(JSON.stringify(x, null, 2));
  switch (sub) {
    case "list": {
      const r = await api.request("GET", "/kb/collections");
      for (const c of r.json.collections ?? [])
        console.log(
          `${c.name.padEnd(24)} ${String(c.documents).padStart(6)} docs ${String(c.passages).padStart(8)} passages  chunk ${c.chunkSize}`,
        );
      return 0;
    }
    case "create": {
      const [name] = rest;
      if (!name) break;
      const r = await api.request("POST", "/kb/collections", {
        name,
        ...(flags["chunk-size"] ? { chunkSize: Number(flags["chunk-size"]) } : {}),
        ...(flags.overlap ? { chunkOverlap: Number(flags.overlap) } : {}),
        ...(typeof flags.title === "string" ? { title: flags.title } : {}),
      });
      print(r.json);
      return r.ok ? 0 : 1;
    }
    case "show": {
      const r = await api.request("GET", `/kb/collections/${encodeURIComponent(rest[0] ?? "")}`);
      print(r.json);
      return r.ok ? 0 : 1;
    }
    case "import": {
      const [name, ...inputs] = rest;
      if (!name || inputs.length === 0) break;
      const all = files(inputs, flags.recursive === true);
      let failed = 0;
      let batch = [];
      let bytes = 0;
      const send = async () => {
        if (batch.length === 0) return;
        const form = new FormData();
        for (const f of batch)
          form.append("files", new Blob([f.size > MAX_FILE_BYTES ? "" : readFileSync(f.path)]), f.name);
        const r = await api.request("POST", `/kb/collections/${encodeURIComponent(name)}/documents`, form);
        if (!r.json.results) {
          console.error(`import failed (${r.status}): ${JSON.stringify(r.json)}`);
          failed += batch.length;
        } else {
          for (const res of r.json.results) {
            if (res.status === "failed") failed++;
            console.log(
              res.status === "failed"
                ? `✗ ${res.file}: ${res.error.kind}: ${res.error.message}`
                : `${res.status === "unchanged" ? "=" : "✓"} ${res.file}: ${res.status}, ${res.passages} passages`,
            );
          }
        }
        batch = [];
        bytes = 0;
      };
      for (const f of all) {
        const size = statSync(f.path).size;
        if (size > MAX_FILE_BYTES) {
          console.log(`✗ ${f.name}: too-large: ${size} bytes; the limit is ${MAX_FILE_BYTES}`);
          failed++;
          continue;
        }
        if (batch.length >= MAX_FILES || bytes + size > MAX_REQUEST_BYTES) await send();
        batch.push({ ...f, size });
        bytes += size;
      }
      await send();
      console.log(`${all.length - failed} of ${all.length} files imported or unchanged`);
      return failed > 0 ? 1 : 0;
    }
    case "delete": {
      const [name] = rest;
      if (!name) break;
      const route = flags.source
        ? `/kb/collections/${encodeURIComponent(name)}/documents?source=${encodeURIComponent(flags.source)}`
        : `/kb/collections/${encodeURIComponent(name)}`;
      const r = await api.request("DELETE", route);
      print(r.json);
      return r.ok ? 0 : 1;
    }
    case "search": {
      const query = rest.join(" ");
      if (!query) break;
      const collections = [flags.collection].flat().filter((c) => typeof c === "string");
      const r = await api.request("POST", "/kb/search", {
        query,
        ...(collections.length > 0 ? { collections } : {}),
        ...(flags.limit ? { limit: Number(flags.limit) } : {}),
      });
      if (!r.ok) {
        print(r.json);
        return 1;
      }
      for (const [i, it] of (r.json.items ?? []).entries()) {
        const c = it.citation;
        console.log(
          `[${i + 1}] ${c.collection}/${c.source} › ${c.path.join(" > ")} #${c.node_id} (${it.via})\n${it.text}\n`,
        );
      }
      return 0;
    }
  }
  console.error(USAGE);
  return 2;
}
