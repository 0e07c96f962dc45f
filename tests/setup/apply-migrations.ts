// Applies the D1 migrations to this test file's fresh database, the way wrangler does: each
// migration in one batch, recorded by name in d1_migrations, skipped once recorded. Written
// here rather than imported from "cloudflare:test", because importing that module loads the
// Worker's whole module graph into every test file, domain tests included, which cost about
// ten seconds per file.
import { env } from "cloudflare:workers";

await env.DB.prepare(
  `CREATE TABLE IF NOT EXISTS d1_migrations (
     id         INTEGER PRIMARY KEY AUTOINCREMENT,
     name       TEXT UNIQUE,
     applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL
   )`,
).run();
const applied = new Set(
  (await env.DB.prepare("SELECT name FROM d1_migrations").all<{ name: string }>()).results.map(
    (row) => row.name,
  ),
);
const record = env.DB.prepare("INSERT INTO d1_migrations (name) VALUES (?)");
for (const migration of env.TEST_MIGRATIONS) {
  if (applied.has(migration.name)) continue;
  await env.DB.batch([
    ...migration.queries.map((query) => env.DB.prepare(query)),
    record.bind(migration.name),
  ]);
}
