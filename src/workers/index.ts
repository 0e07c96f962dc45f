/** Worker entry: HTTP (webhooks, admin API, dashboard) and the cron trigger. */
import { createApp } from "./app";
import { runScheduled } from "./scheduled";

export { ChatSession } from "../durable-objects/chat-session";

const app = createApp();

export default {
  fetch: app.fetch,
  async scheduled(controller, env, ctx) {
    ctx.waitUntil(runScheduled(env, controller.scheduledTime));
  },
} satisfies ExportedHandler<Env>;
