// `npm start`: applies local D1 migrations, runs the Worker in local mode (wrangler dev; the
// mode is asked for by startWranglerDev) with .dev.vars or the embedded dev defaults, and
// prints the URLs and the admin token.
import { effectiveDevVars } from "./lib/dev-vars.mjs";
import { applyLocalMigrations, startWranglerDev } from "./lib/wrangler.mjs";

const port = Number(process.env.PORT ?? 8787);
const { values, defaulted } = effectiveDevVars();

console.log("Applying local D1 migrations…");
applyLocalMigrations();

const overrides = Object.fromEntries(defaulted.map((key) => [key, values[key]]));
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

Try:
  curl -s ${base}/dev/message -H 'content-type: application/json' \\
       -d '{"chat":"qq:group:G1","sender":"U1","text":"你好 /help"}'
`);

const shutdown = () => {
  server.stop();
  process.exit(0);
};
process.on("SIGINT", shutdown);
process.on("SIGTERM", shutdown);
await new Promise((resolve) => server.child.on("exit", resolve));
