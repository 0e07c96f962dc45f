import path from "node:path";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

// Every test runs inside workerd with real local D1 and Durable Objects. Workers AI and
// Vectorize have no local simulator; tests never reach them (the production env is not used).
// The Worker is production unless asked otherwise, so the tests ask for local mode here; tests
// of production behaviour override AKASHA_ENV per request.
export default defineConfig(async () => {
  const migrations = await readD1Migrations(path.join(import.meta.dirname, "migrations"));
  return {
    plugins: [
      cloudflareTest({
        wrangler: { configPath: "./wrangler.toml" },
        remoteBindings: false,
        miniflare: {
          bindings: {
            TEST_MIGRATIONS: migrations,
            AKASHA_ENV: "local",
            QQ_BOT_APPID: "102000000",
            QQ_BOT_SECRET: "kV8sZ2pQ7xR4mN1b",
            ADMIN_TOKEN: "test-admin-token",
            ONEBOT_SECRET: "onebot-test-secret",
          },
        },
      }),
    ],
    resolve: { alias: { "@src": path.join(import.meta.dirname, "src") } },
    test: {
      include: ["tests/**/*.test.ts"],
      setupFiles: ["./tests/setup/apply-migrations.ts"],
      restoreMocks: true,
      testTimeout: 30_000,
    },
  };
});
