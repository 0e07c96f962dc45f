/** What a webhook request could leave behind, counted: D1's message rows and the chat objects. */
import { listDurableObjectIds } from "cloudflare:test";
import { env } from "cloudflare:workers";

export async function webhookTraces() {
  const n = await env.DB.prepare("SELECT count(*) AS n FROM messages").first<{ n: number }>();
  return { messages: n?.n, objects: (await listDurableObjectIds(env.CHAT_SESSION)).length };
}
