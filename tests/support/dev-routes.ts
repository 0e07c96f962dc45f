/** A JSON POST to one of the local dev routes (/dev/…), through the app with these bindings. */
import { env } from "cloudflare:workers";
import { createApp } from "@src/workers/app";

const app = createApp();

export const devPost = (path: string, body: unknown, bindings: Env = env) =>
  app.request(
    path,
    { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) },
    bindings,
  );
