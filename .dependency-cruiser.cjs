/**
 * Dependency rules checked by `npm run deps` (part of `npm run check`).
 * Dependencies point one way: domain ← adapters ← composition ← workers / durable-objects.
 * The two entrypoints are siblings: neither imports the other, except that workers/index.ts
 * re-exports the Durable Object class (the platform finds it on the Worker's module).
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "domain-is-pure",
      comment: "Domain code depends only on ports declared in src/domain, never on runtimes or adapters.",
      severity: "error",
      from: { path: "^src/domain/" },
      to: {
        path: "^src/(adapters|composition|workers|durable-objects)/|^(cloudflare:|hono|drizzle-orm)|node_modules/(hono|drizzle-orm)/",
      },
    },
    {
      name: "adapters-below-entrypoints",
      comment:
        "Adapters implement domain ports; they never reach up into the wiring, the Worker or the Durable Object.",
      severity: "error",
      from: { path: "^src/adapters/" },
      to: { path: "^src/(composition|workers|durable-objects)/" },
    },
    {
      name: "composition-below-entrypoints",
      comment: "The composition root builds adapters for both entrypoints and depends on neither.",
      severity: "error",
      from: { path: "^src/composition/" },
      to: { path: "^src/(workers|durable-objects)/" },
    },
    {
      name: "adapters-only-through-composition",
      comment:
        "Adapters are chosen and built in the composition root (src/composition): the Worker, the chat object " +
        "and the domain take them from its services. Outside it an adapter module is imported for its types " +
        "only (`import type`), never for a value — a class, a function or a constant.",
      severity: "error",
      from: { path: "^src/", pathNot: "^src/(adapters|composition)/" },
      to: { path: "^src/adapters/", dependencyTypesNot: ["type-only"] },
    },
    {
      name: "durable-objects-never-import-workers",
      comment: "The chat object is built from src/composition, never from the Worker's modules.",
      severity: "error",
      from: { path: "^src/durable-objects/" },
      to: { path: "^src/workers/" },
    },
    {
      name: "workers-never-import-durable-objects",
      comment:
        "The Worker reaches chat objects through their binding (composition/chat-stub.ts); only index.ts " +
        "re-exports the class, as the platform requires.",
      severity: "error",
      from: { path: "^src/workers/", pathNot: "^src/workers/index[.]ts$" },
      to: { path: "^src/durable-objects/" },
    },
    {
      name: "memory-never-reaches-authorization",
      comment:
        "Admin status never changes which memory is read or written (docs/identity.md#decoupling): memory, scope, retrieval and " +
        "identity-resolution code, the memory store adapter and memory-named files of the agent layer never reach " +
        "the authorization module, directly or through other modules.",
      severity: "error",
      from: {
        path: "^src/domain/(memory|scope|retrieval|identity)/|^src/adapters/d1/d1-memory|^src/domain/agent/(tools/)?memory[^/]*[.]ts$",
      },
      to: { path: "^src/domain/authorization/", reachable: true },
    },
    {
      name: "memory-turn-glue-never-imports-authorization",
      comment:
        "The memory tools, commands and context providers never import the authorization module themselves.",
      severity: "error",
      from: {
        path: "^src/domain/agent/(memory-|turn-preview|tools/memory-|tools/session-|commands/memory-)",
      },
      to: { path: "^src/domain/authorization/" },
    },
    {
      name: "core-below-agent",
      comment:
        "The agent layer (turns, tools, commands) builds on memory, knowledge, history, identity and the " +
        "model port, never the other way round. (Retrieval is held to it by review: the fixture of the " +
        "authorization rule needs a retrieval module that reaches through the agent layer.)",
      severity: "error",
      from: {
        path: "^src/domain/(memory|knowledge|history|identity|chat|config|inbound|model|text|kernel)/",
      },
      to: { path: "^src/domain/agent/" },
    },
    {
      name: "dev-wing-apart",
      comment:
        "The local-only routes (src/workers/dev) are reached from production code only through the dev app, " +
        "mounted in src/workers/app.ts, which serves it in local mode only.",
      severity: "error",
      from: { path: "^src/", pathNot: "^src/workers/dev/|^src/workers/app[.]ts$" },
      to: { path: "^src/workers/dev/" },
    },
    {
      name: "dev-wing-one-mount-point",
      comment: "The mount point imports the dev app itself, never the wing's routes or helpers.",
      severity: "error",
      from: { path: "^src/workers/app[.]ts$" },
      to: { path: "^src/workers/dev/", pathNot: "^src/workers/dev/dev-app[.]ts$" },
    },
    {
      name: "dashboard-through-services",
      comment:
        "The dashboard pages are one face of the admin service layer (src/composition/request/), the JSON " +
        "routes the other: a page never calls into the routes and never reaches an adapter, not even for a " +
        "type. Everything it reads or changes comes from the request's `services`.",
      severity: "error",
      from: { path: "^src/workers/dashboard/" },
      to: { path: "^src/(adapters|workers/routes)/" },
    },
    {
      name: "no-circular",
      severity: "error",
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "worker-configuration\\.d\\.ts$" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default"],
    },
    builtInModules: { add: ["cloudflare:workers", "cloudflare:test", "cloudflare:sockets"] },
  },
};
