/**
 * Dependency rules checked by `npm run deps` (part of `npm run check`).
 * Dependencies point one way: domain ← adapters ← workers / durable-objects.
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
        path: "^src/(adapters|workers|durable-objects)/|^(cloudflare:|hono|drizzle-orm)|node_modules/(hono|drizzle-orm)/",
      },
    },
    {
      name: "adapters-below-entrypoints",
      comment: "Adapters implement domain ports; they never reach up into the Worker or the Durable Object.",
      severity: "error",
      from: { path: "^src/adapters/" },
      to: { path: "^src/(workers|durable-objects)/" },
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
