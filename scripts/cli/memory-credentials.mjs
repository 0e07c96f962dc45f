// `npm run akasha -- memory credentials [--erase --yes]`: memory items that hold a credential as
// today's detectors read it, kept before a detector read their wording, shown with the value
// masked; with --erase --yes, each is erased as `memory forget` does (audited)
// (docs/decisions/0980-memory-kept-before-a-detector-read-it.md).
import { CliError, command as define, withApiOptions } from "../lib/args.mjs";
import { client } from "./admin-api.mjs";
import { clip, output, table } from "./format.mjs";
import { t } from "./i18n/lang.mjs";
import { progressBar } from "./progress.mjs";

const PAGE = 200;
/** The most ids one erase request takes (EraseBody in memory-admin.routes.ts). */
const ERASE_BATCH = 100;

/** Every item that holds a credential, page by page, with a bar over the items read. */
async function allHeld(api, o) {
  const bar = progressBar(o, "items");
  const held = [];
  try {
    for (let offset = 0; offset !== null; ) {
      const page = await api.call("GET", `/memory/credentials?limit=${PAGE}&offset=${offset}`);
      held.push(...page.held);
      bar.update(offset + page.scanned, page.total);
      offset = page.nextOffset;
    }
  } finally {
    bar.stop();
  }
  return held;
}

export const renderHeld = ({ held, erased }) => {
  const columns = [
    { title: t("memory.col.id"), value: (h) => h.nodeId },
    { title: t("memory.col.scope"), value: (h) => clip(h.scope, 32) },
    { title: t("memory.col.kind"), value: (h) => h.kind },
    { title: t("memory.col.status"), value: (h) => h.status },
    {
      title: t("memory.col.text"),
      value: (h) => (h.masked === null ? t("memory.credentials.unshown") : clip(h.masked, 60)),
    },
  ];
  const listed = table(held, columns, { empty: t("memory.credentials.clean") });
  if (erased !== null) return `${listed}\n${t("memory.credentials.erased", { count: erased.length })}`;
  return held.length ? `${listed}\n${t("memory.credentials.found", { count: held.length })}` : listed;
};

export function credentialsCommand() {
  return withApiOptions(
    define("credentials")
      .description(t("memory.desc.credentials"))
      .option("--erase", t("memory.opt.erase"))
      .option("--yes", t("memory.opt.yes")),
  ).action(async (o) => {
    if (o.erase && !o.yes) throw new CliError(t("memory.credentials.eraseNeedsYes"));
    const api = client(o);
    const held = await allHeld(api, o);
    const erased = o.erase ? [] : null;
    for (let i = 0; erased && i < held.length; i += ERASE_BATCH) {
      const ids = held.slice(i, i + ERASE_BATCH).map((h) => h.nodeId);
      erased.push(...(await api.call("POST", "/memory/credentials/erase", { ids })).erased);
    }
    output(o, { held, erased }, renderHeld);
  });
}
