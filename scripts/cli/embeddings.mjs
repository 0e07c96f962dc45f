// `npm run akasha -- embeddings <status|rebuild|switch|retire>`: the embeddings cache through the
// admin API. `rebuild` embeds every node missing a vector for the models in use
// (knowledge.embeddings write + read) and pushes vectors to Vectorize, in bounded passes until
// done (a progress bar counts the vectors embedded against what the status said was missing);
// `--resync` first forgets what Vectorize holds, so a recreated or emptied index is filled again.
// `switch <key>` moves searches to another model the safe way (docs/retrieval.md#switching-models),
// `retire <id@version>` deletes the vectors of a version nothing reads or writes any more.
import { CliError, command as define, integer, withApiOptions } from "../lib/args.mjs";
import { client } from "./admin-api.mjs";
import { progressBar } from "./progress.mjs";

const print = (x) => console.log(JSON.stringify(x, null, 2));

/** Nodes still missing a vector, summed over the models the status lists (when it says). */
export function missingOf(status) {
  return (status?.models ?? []).reduce((n, m) => n + (typeof m.missing === "number" ? m.missing : 0), 0);
}

async function rebuild(o) {
  const { embedded, reports } = await fill(o, client(o));
  if (o.json) print({ done: true, embedded, reports });
  else console.log(`done: ${embedded} vectors embedded`);
}

/** Rebuild passes until done, with a progress bar; throws on a model's failure. */
async function fill(o, api) {
  const before = await api.request("GET", "/embeddings/status");
  const bar = progressBar(o, "vectors");
  const total = before.ok ? missingOf(before.json) : 0;
  let done = 0;
  let resync = o.resync === true;
  const reports = [];
  for (let pass = 1; pass <= 10_000; pass++) {
    const r = await api.call("POST", "/embeddings/rebuild", {
      limit: o.limit,
      ...(resync ? { resync: true } : {}),
    });
    resync = false;
    for (const rep of r.reports) {
      reports.push({ pass, ...rep });
      done += rep.embedded ?? 0;
      if (!o.json) bar.update(done, Math.max(total, done));
      if (!o.json && !process.stderr.isTTY)
        console.log(
          rep.error
            ? `${rep.model}: ${rep.error}`
            : `${rep.model}: +${rep.embedded} embedded, +${rep.upserted} upserted, -${rep.removed} removed`,
        );
    }
    const failed = r.reports.filter((x) => x.error);
    if (failed.length > 0) {
      bar.stop();
      throw new CliError(failed.map((x) => `${x.model}: ${x.error}`).join("\n"), 1);
    }
    if (r.done) {
      bar.stop();
      return { embedded: done, reports };
    }
  }
  bar.stop();
  throw new CliError("rebuild did not finish within 10,000 passes", 1);
}

/** The stored settings layer with `edit` applied to its knowledge.embeddings, saved. */
async function editEmbeddings(api, edit) {
  const { stored, effective } = await api.call("GET", "/settings");
  const layer = stored ?? {};
  const knowledge = layer.knowledge ?? {};
  const next = edit(knowledge.embeddings ?? {}, effective.knowledge.embeddings);
  await api.call("PUT", "/settings", { ...layer, knowledge: { ...knowledge, embeddings: next } });
}

/**
 * Switches searches to model `key`, each step saved before the next, so an interrupted switch
 * is resumed by running it again: (1) `key` joins `write` (dual write) and its definition is
 * kept in the stored settings; (2) every missing vector is embedded; (3) `read` becomes `key`;
 * (4) unless --keep-writing, `write` is `key` alone. The old model's vectors stay until
 * `embeddings retire`, so switching back is another `switch` with nothing to embed.
 */
async function switchTo(key, o) {
  const api = client(o);
  const { effective } = await api.call("GET", "/settings");
  const definition = effective.knowledge.embeddings.models[key];
  if (!definition) {
    const known = Object.keys(effective.knowledge.embeddings.models).join(", ");
    throw new CliError(`no embeddings model '${key}' in the settings (known: ${known})`);
  }
  const log = (line) => {
    if (!o.json) console.log(line);
  };
  await editEmbeddings(api, (mine, all) => ({
    ...mine,
    models: { ...(mine.models ?? {}), [key]: definition },
    write: [...new Set([...all.write, key])],
  }));
  log(`1/4 writing ${key} beside the current models`);
  log(`2/4 embedding what ${key} is missing`);
  await fill(o, api);
  await editEmbeddings(api, (mine) => ({ ...mine, read: key }));
  log(`3/4 searches read ${key}`);
  if (!o.keepWriting) await editEmbeddings(api, (mine) => ({ ...mine, write: [key] }));
  log(o.keepWriting ? "4/4 still writing every model" : `4/4 only ${key} is written`);
  const status = await api.call("GET", "/embeddings/status");
  if (o.json) print(status);
  else {
    const unused = (status.stored ?? []).filter((v) => !v.inUse);
    for (const v of unused)
      log(`   ${v.model} keeps ${v.vectors} vectors: npm run akasha -- embeddings retire ${v.model}`);
  }
}

async function retire(model, o) {
  const r = await client(o).call("POST", "/embeddings/retire", { model });
  if (o.json) print(r);
  else console.log(`${r.model}: ${r.deleted} vectors deleted`);
}

export function command(name = "embeddings") {
  const e = define(name).description(
    "embeddings cache: status, rebuild [--resync], switch <model>, retire <id@version>",
  );
  e.addCommand(
    withApiOptions(define("status").description("vectors per model and index")).action(async (o) =>
      print(await client(o).call("GET", "/embeddings/status")),
    ),
  );
  e.addCommand(
    withApiOptions(
      define("rebuild")
        .description("embed what is missing and push it to Vectorize, pass by pass until done")
        .option("--resync", "forget what Vectorize holds first")
        .option("--limit <n>", "nodes per pass", integer(1, 100_000), 2000),
    ).action(rebuild),
  );
  e.addCommand(
    withApiOptions(
      define("switch")
        .description("dual write, fill, then read another model (resumable; the old vectors stay)")
        .argument("<model>", "key in knowledge.embeddings.models, e.g. bge-small-zh or local")
        .option("--keep-writing", "keep writing the old models too")
        .option("--limit <n>", "nodes per pass", integer(1, 100_000), 2000),
    ).action(switchTo),
  );
  e.addCommand(
    withApiOptions(
      define("retire")
        .description("delete the vectors of a model version nothing reads or writes")
        .argument("<model>", "model id and version as the status lists them, e.g. local-hash@1-512"),
    ).action(retire),
  );
  return e;
}
