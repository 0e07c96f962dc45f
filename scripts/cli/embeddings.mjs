// `npm run akasha -- embeddings <status|rebuild>`: the embeddings cache through the admin API.
// `rebuild` embeds every node missing a vector for the models in use (knowledge.embeddings
// write + read) and pushes vectors to Vectorize, in bounded passes until done; `--resync`
// first forgets what Vectorize holds, so a recreated or emptied index is filled again.
import { client, parseArgs } from "./admin-api.mjs";

export async function run(args) {
  const { flags, positional } = parseArgs(args);
  const api = client(flags);
  if (positional[0] === "status") {
    const r = await api.request("GET", "/embeddings/status");
    console.log(JSON.stringify(r.json, null, 2));
    return r.ok ? 0 : 1;
  }
  if (positional[0] === "rebuild") {
    const limit = Number(flags.limit ?? 2000);
    let resync = flags.resync === true;
    for (let pass = 1; pass <= 10_000; pass++) {
      const r = await api.request("POST", "/embeddings/rebuild", {
        limit,
        ...(resync ? { resync: true } : {}),
      });
      resync = false;
      if (!r.ok) {
        console.error(JSON.stringify(r.json));
        return 1;
      }
      for (const rep of r.json.reports)
        console.log(
          rep.error
            ? `${rep.model}: ${rep.error}`
            : `${rep.model}: +${rep.embedded} embedded, +${rep.upserted} upserted, -${rep.removed} removed`,
        );
      if (r.json.reports.some((x) => x.error)) return 1;
      if (r.json.done) {
        console.log("done");
        return 0;
      }
    }
    return 1;
  }
  console.error(
    "usage: npm run akasha -- embeddings <status|rebuild [--resync] [--limit N]> [--url …] [--token …]",
  );
  return 2;
}
