// `npm run privacy:train [-- --data <dir>] [--check] [--if-data]`: trains the three readers of
// privacy, of requests (train-request-reader.mjs), of credential values
// (train-credential-reader.mjs) and of values in Chinese words (train-han-reader.mjs), from the
// labelled corpora and half of the shared ordinary chat (--data, or AKASHA_EVAL_DATA). Training is seeded, so the same data gives the same weights.
// `--check` writes nothing and fails when the weights in the repository are not what the data
// gives (a corpus changed without training again); with `--if-data` a clone without the shared
// datasets says so and passes.
import { existsSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { evalDataDir } from "../eval/data-dir.mjs";
import { trainCredentialReader } from "./train-credential-reader.mjs";
import { trainHanReader } from "./train-han-reader.mjs";
import { trainRequestReader } from "./train-request-reader.mjs";

const { values: flags } = parseArgs({
  options: { data: { type: "string" }, check: { type: "boolean" }, "if-data": { type: "boolean" } },
});
const dataDir = flags.data ?? evalDataDir();
if (flags["if-data"] && !existsSync(path.join(dataDir, "locomo"))) {
  console.log(`privacy:train: NOT RUN — no shared datasets under ${dataDir} (set AKASHA_EVAL_DATA)`);
  process.exit(0);
}
const requests = await trainRequestReader({ dataDir, check: flags.check });
const credentials = await trainCredentialReader({ dataDir, check: flags.check });
const hanValues = await trainHanReader({ dataDir, check: flags.check });
if (!requests || !credentials || !hanValues) process.exit(1);
