/**
 * The gate both webhooks share, as middleware: read the raw body under the size cap, verify
 * the sender on those exact bytes with secrets from env, check freshness, parse JSON — in
 * that order, and before anything reads stored settings or state. The handler after it sees
 * only authenticated, fresh, parsed payloads (`c.get("payload")`).
 *
 * A refusal answers with its status and an empty body; the reason goes to the log only, so
 * that a caller learns nothing (a `stale timestamp` would confirm a captured signature).
 */
import type { Context, MiddlewareHandler } from "hono";
import type { RuntimeConfig } from "../composition/common/runtime-config";
import type { Result } from "../domain/kernel/result";
import type { AppEnv } from "./app-env";
import { parseJsonBytes, readRawBody } from "./raw-body";
import { type WebhookLimits, webhookLimits } from "./webhook-limits";

export type WebhookRejection = { readonly status: 400 | 401 | 403 | 411 | 413; readonly reason: string };

export type WebhookEnv = {
  Bindings: Env;
  Variables: AppEnv["Variables"] & { payload: unknown; limits: WebhookLimits; enteredAt: number };
};

export type WebhookGate = {
  /** Names the webhook in the log. */
  readonly name: string;
  /** Authenticates the raw bytes (signature, app id, signed timestamp). */
  readonly verify: (input: {
    config: RuntimeConfig;
    limits: WebhookLimits;
    headers: Headers;
    body: Uint8Array;
    nowMs: number;
  }) => Promise<Result<unknown, WebhookRejection>>;
  /** Checks freshness carried inside the payload (OneBot's `time`), after verification. */
  readonly fresh?: (
    payload: unknown,
    limits: WebhookLimits,
    nowMs: number,
  ) => Result<unknown, WebhookRejection>;
};

export function verifiedWebhook(gate: WebhookGate): MiddlewareHandler<WebhookEnv> {
  return async (c, next) => {
    // Nothing before this point awaits: this is when the Worker began the request.
    c.set("enteredAt", Date.now());
    const limits = webhookLimits(c.env);
    const body = await readRawBody(c.req.raw, limits.maxBodyBytes);
    if (!body.ok) return rejectWebhook(c, gate.name, body);
    const nowMs = Date.now();
    const verified = await gate.verify({
      config: c.get("config"),
      limits,
      headers: c.req.raw.headers,
      body: body.bytes,
      nowMs,
    });
    if (!verified.ok) return rejectWebhook(c, gate.name, verified.error);
    const json = parseJsonBytes(body.bytes);
    if (!json.ok) return rejectWebhook(c, gate.name, { status: 400, reason: json.reason });
    const fresh = gate.fresh?.(json.value, limits, nowMs);
    if (fresh && !fresh.ok) return rejectWebhook(c, gate.name, fresh.error);
    c.set("limits", limits);
    c.set("payload", json.value);
    await next();
  };
}

/** The one way a webhook refuses: logged with its reason, answered with the status alone. */
export function rejectWebhook(c: Context, name: string, rejection: WebhookRejection): Response {
  console.log(
    JSON.stringify({
      msg: `${name} webhook rejected`,
      status: rejection.status,
      reason: rejection.reason,
      trace: c.req.header("x-tps-trace-id") ?? null,
    }),
  );
  return c.body(null, rejection.status);
}
