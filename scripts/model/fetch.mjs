// `npm run model:fetch [-- --jar <file>] [--force]`: puts the local embedding model into the
// machine's cache (scripts/model/cache.mjs), once. Already there and verified: nothing to do.
// Otherwise the model hub first, then the Maven package that ships the same files; every file
// is checked against its pinned sha256 before it is written. When neither can be reached, it
// exits 1 naming the package to download by hand and the command that installs it (--jar).
//
// AKASHA_MODEL_CACHE moves the cache; AKASHA_MODEL_HUB and AKASHA_MAVEN_REPO point at mirrors.
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { cacheRoot, ModelUnavailable, modelDir, verifiedModel } from "./cache.mjs";
import { BGE_SMALL_ZH, mavenJarPath } from "./pinned.mjs";
import { fromHub, fromJarFile, fromMaven, HUB_BASE, install, MAVEN_BASE } from "./sources.mjs";

/**
 * Ensures the model is in `root`; returns how (`cached`, or the source it came from). Throws
 * an Error whose message says what to install when no source gave the pinned files.
 */
export async function fetchModel(spec, options = {}) {
  const { root = cacheRoot(), hubBase = HUB_BASE, mavenBase = MAVEN_BASE, jar, force = false } = options;
  const log = options.log ?? ((line) => console.log(line));
  const dir = modelDir(spec, root);
  if (!force) {
    try {
      await verifiedModel(spec, dir);
      return { dir, how: "cached" };
    } catch (e) {
      if (!(e instanceof ModelUnavailable)) throw e;
    }
  }
  const sources = jar
    ? [{ name: `jar ${jar}`, get: async () => fromJarFile(spec, jar) }]
    : [
        {
          name: `model hub (${hubBase})`,
          get: () => fromHub(spec, { base: hubBase, fetchImpl: options.fetchImpl }),
        },
        {
          name: `Maven (${mavenBase})`,
          get: () => fromMaven(spec, { base: mavenBase, fetchImpl: options.fetchImpl }),
        },
      ];
  const failures = [];
  for (const source of sources) {
    try {
      const got = await source.get();
      install(spec, dir, got);
      await verifiedModel(spec, dir);
      return { dir, how: got.source };
    } catch (e) {
      const reason = e?.cause?.message ?? e?.message ?? String(e);
      failures.push(`  ${source.name}: ${reason}`);
      log(`${source.name}: not used (${reason})`);
    }
  }
  const m = spec.maven;
  throw new Error(
    [
      `${spec.name} ${spec.version} could not be fetched:`,
      ...failures,
      "Install it by hand: download the Maven package",
      `  ${m.group}:${m.artifact}:${m.version}  (${MAVEN_BASE}/${mavenJarPath(m)}, sha256 ${m.sha256})`,
      "then run: npm run model:fetch -- --jar <the downloaded .jar>",
    ].join("\n"),
  );
}

async function main(args) {
  const { values } = parseArgs({
    args,
    options: { jar: { type: "string" }, force: { type: "boolean", default: false } },
    strict: true,
  });
  const spec = BGE_SMALL_ZH;
  const result = await fetchModel(spec, {
    jar: values.jar,
    force: values.force,
    hubBase: process.env.AKASHA_MODEL_HUB || HUB_BASE,
    mavenBase: process.env.AKASHA_MAVEN_REPO || MAVEN_BASE,
  });
  console.log(
    result.how === "cached"
      ? `${spec.name} ${spec.version}: already in ${result.dir} (verified)`
      : `${spec.name} ${spec.version}: installed in ${result.dir} from ${result.how} (verified)`,
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  main(process.argv.slice(2)).catch((e) => {
    console.error(e.message);
    process.exit(1);
  });
}
