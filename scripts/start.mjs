// `npm start`: applies local D1 migrations, starts the local embedding service when the model is
// in the machine's cache (`npm run model:fetch`; EMBEDDINGS_PORT, default 8788), runs the Worker
// in local mode (wrangler dev; the mode is asked for by startWranglerDev) with .dev.vars or the
// embedded dev defaults, and prints the URLs and the admin token. With the service, the Worker
// searches and embeds with bge-small-zh-v1.5 unless AKASHA_CONFIG chooses its own models; without
// the model it says so and keeps the hashed embedder.
import { effectiveDevVars } from "./lib/dev-vars.mjs";
import { applyLocalMigrations, startWranglerDev } from "./lib/wrangler.mjs";
import { startLocalEmbeddings, withLocalModel } from "./model/local-service.mjs";

const port = Number(process.env.PORT ?? 8787);
const embeddingsPort = Number(process.env.EMBEDDINGS_PORT ?? 8788);
const { values, defaulted } = effectiveDevVars();

console.log("Applying local D1 migrations…");
applyLocalMigrations();

const embeddings = await startLocalEmbeddings({
  port: embeddingsPort,
  threads: Number(process.env.EMBEDDINGS_THREADS ?? 1),
});
const overrides = Object.fromEntries(defaulted.map((key) => [key, values[key]]));
if (embeddings.url) overrides.AKASHA_CONFIG = withLocalModel(values.AKASHA_CONFIG, embeddings.url);
const server = await startWranglerDev({ port, vars: overrides });
const base = `http://localhost:${port}`;
const source = (key) => (defaulted.includes(key) ? "dev default" : ".dev.vars");

console.log(`
Akasha is running locally (offline model, recorded replies, local D1 and Durable Objects).

  Health          ${base}/healthz
  QQ webhook      ${base}/webhook/qq
  OneBot webhook  ${base}/webhook/onebot
  Admin API       ${base}/api/chats        (Authorization: Bearer <admin token>)
  Dev console     POST ${base}/dev/message
  Dashboard       ${base}/admin            (log in with the admin token below)

  Admin token     ${values.ADMIN_TOKEN}   (${source("ADMIN_TOKEN")})
  QQ app id       ${values.QQ_BOT_APPID}   (${source("QQ_BOT_APPID")})
  QQ bot secret   ${values.QQ_BOT_SECRET}   (${source("QQ_BOT_SECRET")})

  Embeddings      ${
    embeddings.url
      ? `bge-small-zh-v1.5 on ${embeddings.url} (vectors missing from earlier runs: npm run akasha -- embeddings rebuild)`
      : `hashed n-grams only: ${embeddings.unavailable.split("\n")[0]}`
  }

Try:
  curl -s ${base}/dev/message -H 'content-type: application/json' \\
       -d '{"chat":"qq:group:G1","sender":"U1","text":"你好 /help"}'
`);

let stopping = false;
const shutdown = () => {
  stopping = true;
  server.stop();
  embeddings.stop?.();
  process.exit(0);
};
process.on("SIGINT", shutdown);
process.on("SIGTERM", shutdown);
// The Worker and the service live and die together: either one ending ends the other.
embeddings.child?.once("exit", (code) => {
  if (stopping) return;
  console.error(`the embedding service exited (${code}); stopping the Worker`);
  shutdown();
});
await new Promise((resolve) => server.child.on("exit", resolve));
embeddings.stop?.();
