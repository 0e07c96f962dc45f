import { Hono } from "hono";
import type { AppEnv } from "../app-env";
import { oneBotWebhookRoutes } from "./onebot-webhook.routes";
import { qqWebhookRoutes } from "./qq-webhook.routes";

export const webhookRoutes = new Hono<AppEnv>()
  .route("/qq", qqWebhookRoutes)
  .route("/onebot", oneBotWebhookRoutes);
