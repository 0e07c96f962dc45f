// Runs in Node: reads wrangler.toml the way `wrangler deploy` does. The Worker treats every
// AKASHA_ENV but exactly "local" as production (tests/workers/fail-closed-mode.test.ts);
// this proves that no deployable configuration — the top level (a plain `wrangler deploy`)
// nor any [env.*] — asks for local mode, which only the local start path does.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { unstable_readConfig } from "wrangler";

const root = path.resolve(import.meta.dirname, "../..");
const configPath = path.join(root, "wrangler.toml");
const envNames = [...readFileSync(configPath, "utf8").matchAll(/^\[env\.([A-Za-z0-9_-]+)\]/gm)].map(
  (m) => m[1],
);

test("no deployable configuration selects local mode", () => {
  assert.ok(envNames.includes("production"));
  for (const env of [undefined, ...envNames]) {
    const config = unstable_readConfig({ config: configPath, env }, {});
    assert.notEqual(config.vars.AKASHA_ENV, "local", `env ${env ?? "(top level)"}`);
  }
});
