// `npm run akasha -- embeddings <status|rebuild|switch|retire>`: the embeddings cache through the
// admin API. `rebuild` embeds every node missing a vector for the models in use
// (knowledge.embeddings write + read) and pushes vectors to Vectorize, in bounded passes until
// done (a progress bar counts the vectors embedded against what the status said was missing);
// `--resync` first forgets what Vectorize holds, so a recreated or emptied index is filled again.
// `switch <key>` moves searches to another model the safe way (docs/retrieval.md#switching-models),
// `retire <id@version>` deletes the vectors of a version nothing reads or writes any more.
import { CliError, command as define, integer, withApiOptions } from "../lib/args.mjs";
import { client } from "./admin-api.mjs";
import { t } from "./i18n/lang.mjs";
import { progressBar } from "./progress.mjs";

const print = (x) => console.log(JSON.stringify(x, null, 2));

/** Nodes still missing a vector, summed over the models the status lists (when it says). */
export function missingOf(status) {
  return (status?.models ?? []).reduce((n, m) => n + (typeof m.missing === "number" ? m.missing : 0), 0);
}

async function rebuild(o) {
  const { embedded, reports } = await fill(o, client(o));
  if (o.json) print({ done: true, embedded, reports });
  else console.log(t("embeddings.done", { n: embedded }));
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
            ? t("embeddings.failed", { model: rep.model, error: rep.error })
            : t("embeddings.pass", {
                model: rep.model,
                embedded: rep.embedded,
                upserted: rep.upserted,
                removed: rep.removed,
              }),
        );
    }
    const failed = r.reports.filter((x) => x.error);
    if (failed.length > 0) {
      bar.stop();
      throw new CliError(
        failed.map((x) => t("embeddings.failed", { model: x.model, error: x.error })).join("\n"),
        1,
      );
    }
    if (r.done) {
      bar.stop();
      return { embedded: done, reports };
    }
  }
  bar.stop();
  throw new CliError(t("embeddings.unfinished"), 1);
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
    throw new CliError(t("embeddings.noModel", { key, known }));
  }
  const log = (line) => {
    if (!o.json) console.log(line);
  };
  await editEmbeddings(api, (mine, all) => ({
    ...mine,
    models: { ...(mine.models ?? {}), [key]: definition },
    write: [...new Set([...all.write, key])],
  }));
  log(t("embeddings.step1", { key }));
  log(t("embeddings.step2", { key }));
  await fill(o, api);
  await editEmbeddings(api, (mine) => ({ ...mine, read: key }));
  log(t("embeddings.step3", { key }));
  if (!o.keepWriting) await editEmbeddings(api, (mine) => ({ ...mine, write: [key] }));
  log(o.keepWriting ? t("embeddings.step4keep") : t("embeddings.step4only", { key }));
  const status = await api.call("GET", "/embeddings/status");
  if (o.json) print(status);
  else {
    const unused = (status.stored ?? []).filter((v) => !v.inUse);
    for (const v of unused) log(t("embeddings.keeps", { model: v.model, n: v.vectors }));
  }
}

async function retire(model, o) {
  const r = await client(o).call("POST", "/embeddings/retire", { model });
  if (o.json) print(r);
  else console.log(t("embeddings.retired", { model: r.model, n: r.deleted }));
}

export function command(name = "embeddings") {
  const e = define(name).description(t("summary.embeddings"));
  e.addCommand(
    withApiOptions(define("status").description(t("embeddings.desc.status"))).action(async (o) =>
      print(await client(o).call("GET", "/embeddings/status")),
    ),
  );
  e.addCommand(
    withApiOptions(
      define("rebuild")
        .description(t("embeddings.desc.rebuild"))
        .option("--resync", t("embeddings.opt.resync"))
        .option("--limit <n>", t("embeddings.opt.limit"), integer(1, 100_000), 2000),
    ).action(rebuild),
  );
  e.addCommand(
    withApiOptions(
      define("switch")
        .description(t("embeddings.desc.switch"))
        .argument("<model>", t("embeddings.arg.model"))
        .option("--keep-writing", t("embeddings.opt.keepWriting"))
        .option("--limit <n>", t("embeddings.opt.limit"), integer(1, 100_000), 2000),
    ).action(switchTo),
  );
  e.addCommand(
    withApiOptions(
      define("retire")
        .description(t("embeddings.desc.retire"))
        .argument("<model>", t("embeddings.arg.version")),
    ).action(retire),
  );
  return e;
}
