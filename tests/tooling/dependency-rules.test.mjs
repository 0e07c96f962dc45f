// Runs in Node (not workerd): dependency-cruiser needs the file system. `npm run deps` runs it
// after checking src/. It proves that the decoupling rule (docs/identity.md#decoupling) catches violations,
// so a green `npm run deps` on src/ means something.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";

const root = path.resolve(import.meta.dirname, "../..");
const fixture = path.join(root, "tests/fixtures/dependency-rules");
const RULE = "memory-never-reaches-authorization";

/** Runs the depcruise CLI as `npm run deps` does; the default reporter sets the exit code. */
function cruise(cwd, outputType) {
  return spawnSync(
    process.execPath,
    [
      path.join(root, "node_modules/dependency-cruiser/bin/dependency-cruiser.mjs"),
      "src",
      "--config",
      path.join(root, ".dependency-cruiser.cjs"),
      ...(outputType ? ["--output-type", outputType] : []),
    ],
    { cwd, encoding: "utf8" },
  );
}

/** Exit status of the plain run, and the violations from a JSON run. */
function check(cwd) {
  const plain = cruise(cwd);
  const json = cruise(cwd, "json");
  return {
    status: plain.status,
    output: plain.stdout,
    violations: JSON.parse(json.stdout).summary.violations,
  };
}

/** The check of a fixture under tests/fixtures, which must fail. */
function failingFixture(name) {
  const result = check(path.join(root, "tests/fixtures", name));
  assert.notEqual(result.status, 0, "depcruise must fail on the fixture");
  return result;
}

/** Each violation as "rule from -> to", sorted. */
const edges = (violations) => violations.map((v) => `${v.rule.name} ${v.from} -> ${v.to}`).sort();

test("the decoupling rule catches direct and transitive imports of the authorization module", () => {
  const { status, output, violations } = check(fixture);
  assert.notEqual(status, 0, "depcruise must fail on the fixture");
  assert.match(output, new RegExp(`error ${RULE}: src/domain/memory/direct-leak.ts`));
  const leaks = violations
    .filter((v) => v.rule.name === RULE)
    .map((v) => v.from)
    .sort();
  assert.deepEqual(leaks, [
    "src/domain/agent/tools/memory-tools.ts",
    "src/domain/memory/direct-leak.ts",
    "src/domain/retrieval/indirect-leak.ts",
  ]);
  // The memory tools' direct import also breaks the narrower rule on the turn glue.
  const others = violations.filter((v) => v.rule.name !== RULE).map((v) => `${v.rule.name} ${v.from}`);
  assert.deepEqual(others, [
    "memory-turn-glue-never-imports-authorization src/domain/agent/tools/memory-tools.ts",
  ]);
});

/**
 * Imports are not the only way to branch on admin status: settings carry `identity.admins`.
 * Memory, scope, retrieval and identity-resolution code must not mention it either.
 */
const ADMIN_STATUS = /\.admins\b|\bisAdmin\b|\brequireAdmin\b|\bgateFor\b|\bAuthorizationGate\b/;
const DECOUPLED = ["memory", "scope", "retrieval", "identity"];
/** Memory-named files of the agent layer (memory tools, memory context) count as memory code too. */
const AGENT_MEMORY = /^(tools\/)?memory[^/]*\.ts$/;

function adminMentions(base) {
  const files = [];
  for (const dir of DECOUPLED) {
    const abs = path.join(base, "src/domain", dir);
    if (!existsSync(abs)) continue;
    for (const file of readdirSync(abs, { recursive: true })) files.push(`src/domain/${dir}/${file}`);
  }
  const agent = path.join(base, "src/domain/agent");
  if (existsSync(agent)) {
    for (const file of readdirSync(agent, { recursive: true })) {
      if (AGENT_MEMORY.test(String(file).replaceAll(path.sep, "/"))) files.push(`src/domain/agent/${file}`);
    }
  }
  return files
    .filter((file) => file.endsWith(".ts") && ADMIN_STATUS.test(readFileSync(path.join(base, file), "utf8")))
    .sort();
}

test("memory, scope, retrieval and identity code never read admin status", () => {
  assert.deepEqual(adminMentions(fixture), [
    "src/domain/agent/tools/memory-tools.ts",
    "src/domain/memory/direct-leak.ts",
  ]);
  assert.deepEqual(adminMentions(root), []);
});

test("the layering rules keep the entrypoints apart, the composition root below them, adapters behind it and memory below the agent layer", () => {
  const { output, violations } = failingFixture("dependency-layers");
  assert.match(output, /error durable-objects-never-import-workers: src\/durable-objects\/uses-worker.ts/);
  const found = violations.map((v) => `${v.rule.name} ${v.from} → ${v.to}`).sort();
  assert.deepEqual(found, [
    // A value import of an adapter outside the composition root; the route's `import type` of
    // the same adapter (chat.routes.ts) is not reported.
    "adapters-only-through-composition src/domain/memory/uses-adapter.ts → src/adapters/d1/d1-store.ts",
    "adapters-only-through-composition src/workers/routes/uses-object.ts → src/adapters/d1/d1-store.ts",
    "composition-below-entrypoints src/composition/reaches-up.ts → src/workers/routes/chat.routes.ts",
    "core-below-agent src/domain/memory/asks-agent.ts → src/domain/agent/turn.ts",
    "domain-is-pure src/domain/memory/uses-adapter.ts → src/adapters/d1/d1-store.ts",
    "durable-objects-never-import-workers src/durable-objects/uses-worker.ts → src/workers/routes/chat.routes.ts",
    "workers-never-import-durable-objects src/workers/routes/uses-object.ts → src/durable-objects/chat-session.ts",
  ]);
});

const FIXTURE_CASES = [
  {
    name: "the dev-wing rules catch production code that reaches into src/workers/dev",
    fixture: "dev-wing-rules",
    edges: [
      "dev-wing-apart src/durable-objects/session.ts -> src/workers/dev/dev-app.ts",
      "dev-wing-apart src/workers/routes/admin.routes.ts -> src/workers/dev/seed.routes.ts",
      "dev-wing-one-mount-point src/workers/app.ts -> src/workers/dev/seed.routes.ts",
      // The fixture's object importing the Worker breaks the entrypoint rule too.
      "durable-objects-never-import-workers src/durable-objects/session.ts -> src/workers/dev/dev-app.ts",
    ],
  },
  {
    name: "the dashboard rule catches a page that reaches the JSON routes or an adapter",
    fixture: "dashboard-rules",
    edges: [
      "dashboard-through-services src/workers/dashboard/audit-page.ts -> src/adapters/d1/d1-audit-log.ts",
      "dashboard-through-services src/workers/dashboard/memory-page.ts -> src/workers/routes/memory-admin.routes.ts",
    ],
  },
];

for (const c of FIXTURE_CASES)
  test(c.name, () => {
    assert.deepEqual(edges(failingFixture(c.fixture).violations), c.edges);
  });

/**
 * Calls back into the Worker over HTTP: a Request built or dispatched (`new Request(`, `.fetch(`,
 * `.request(`) by production code of the Worker or the composition root. The admin faces read
 * through the admin services instead; only the local-only dev wing enters the webhook routes in
 * process, as the platform's request would, and reaches a chat object's local probe through the
 * object's own HTTP entry (src/composition/dev/chat-probe-client.ts).
 */
const SELF_CALL = /\bnew Request\(|\.fetch\(|\.request\(|\bselfFetch\b|\bcallApi\b/;

function selfCalls(base) {
  const found = [];
  for (const dir of ["src/workers", "src/composition"]) {
    const abs = path.join(base, dir);
    if (!existsSync(abs)) continue;
    for (const f of readdirSync(abs, { recursive: true })) {
      const file = `${dir}/${String(f).replaceAll(path.sep, "/")}`;
      if (!/\.tsx?$/.test(file) || /^src\/(workers|composition)\/dev\//.test(file)) continue;
      const lines = readFileSync(path.join(base, file), "utf8").split("\n");
      lines.forEach((line, i) => {
        if (SELF_CALL.test(line) && !line.trim().startsWith("*") && !line.trim().startsWith("//"))
          found.push(`${file}:${i + 1}`);
      });
    }
  }
  return found;
}

test("nothing in the Worker or the composition root calls back into the Worker over HTTP", () => {
  assert.deepEqual(selfCalls(root), []);
  assert.deepEqual(selfCalls(path.join(root, "tests/fixtures/dashboard-rules")), [
    "src/workers/dashboard/calls-api.ts:5",
  ]);
});

/** Every `new X(` of a class exported from src/adapters, in files outside adapters/ and composition/. */
function adapterConstructionsOutsideComposition(base) {
  const list = (dir) =>
    readdirSync(path.join(base, dir), { recursive: true })
      .map((f) => `${dir}/${String(f).replaceAll(path.sep, "/")}`)
      .filter((f) => f.endsWith(".ts"));
  const classes = new Set();
  for (const file of list("src/adapters")) {
    for (const m of readFileSync(path.join(base, file), "utf8").matchAll(/export class (\w+)/g))
      classes.add(m[1]);
  }
  const found = [];
  for (const file of list("src")) {
    if (/^src\/(adapters|composition)\//.test(file)) continue;
    for (const m of readFileSync(path.join(base, file), "utf8").matchAll(/\bnew (\w+)\s*\(/g)) {
      if (classes.has(m[1])) found.push(`${file}: ${m[1]}`);
    }
  }
  return found;
}

test("adapters are constructed only in src/composition", () => {
  assert.ok(
    adapterConstructionsOutsideComposition(root).length === 0,
    "no adapter built outside composition",
  );
  assert.deepEqual(
    adapterConstructionsOutsideComposition(path.join(root, "tests/fixtures/dependency-layers")),
    ["src/domain/memory/uses-adapter.ts: D1Store", "src/workers/routes/uses-object.ts: D1Store"],
  );
});

/** SQL statements prepared in the composition root: SQL lives in src/adapters/d1/. */
function sqlInComposition(base) {
  const dir = path.join(base, "src/composition");
  if (!existsSync(dir)) return [];
  const found = [];
  for (const f of readdirSync(dir, { recursive: true })) {
    const file = `src/composition/${String(f).replaceAll(path.sep, "/")}`;
    if (!/\.tsx?$/.test(file)) continue;
    readFileSync(path.join(base, file), "utf8")
      .split("\n")
      .forEach((line, i) => {
        if (/\.prepare\(/.test(line)) found.push(`${file}:${i + 1}`);
      });
  }
  return found;
}

test("the composition root prepares no SQL: statements live in the D1 adapters", () => {
  assert.deepEqual(sqlInComposition(root), []);
  assert.deepEqual(sqlInComposition(path.join(root, "tests/fixtures/dependency-layers")), [
    "src/composition/prepares-sql.ts:2",
  ]);
});
