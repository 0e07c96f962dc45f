// `npm run akasha -- embeddings <status|rebuild>`: the embeddings cache through the admin API.
// `rebuild` embeds every node missing a vector for the models in use (knowledge.embeddings
// write + read) and pushes vectors to Vectorize, in bounded passes until done (a progress bar
// counts the vectors embedded against what the status said was missing); `--resync` first
// forgets what Vectorize holds, so a recreated or emptied index is filled again.
import { CliError, command as define, integer, withApiOptions } from "../lib/args.mjs";
import { client } from "./admin-api.mjs";
import { progressBar } from "./progress.mjs";

const print = (x) => console.log(JSON.stringify(x, null, 2));

/** Nodes still missing a vector, summed over the models the status lists (when it says). */
export function missingOf(status) {
  return (status?.models ?? []).reduce((n, m) => n + (typeof m.missing === "number" ? m.missing : 0), 0);
}

async function rebuild(o) {
  const api = client(o);
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
      if (o.json) print({ done: true, embedded: done, reports });
      else console.log(`done: ${done} vectors embedded`);
      return;
    }
  }
  bar.stop();
  throw new CliError("rebuild did not finish within 10,000 passes", 1);
}

export function command(name = "embeddings") {
  const e = define(name).description("embeddings cache: status, rebuild [--resync]");
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
  return e;
}
