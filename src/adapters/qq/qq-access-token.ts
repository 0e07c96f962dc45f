/**
 * The QQ OpenAPI access token (docs/qq-protocol.md#qq-access-token): fetched from the token endpoint with the AppID and
 * secret, cached in the isolate, refreshed shortly before it expires.
 */
import { z } from "zod";
import type { SendError } from "../../domain/agent/outbound";
import type { Logger } from "../../domain/kernel/logger";
import { err, ok, type Result } from "../../domain/kernel/result";
import { isFailureCode, readQqApiError, toSendError } from "./qq-api-error";

/**
 * Refresh when less than this remains. The platform hands out a new token only in the last
 * 60 s of the old one (earlier fetches return the same token with a smaller `expires_in`),
 * and the old token stays valid for those 60 s; 90 s keeps a margin for slow calls.
 */
const REFRESH_MARGIN_MS = 90_000;

const TokenResponseSchema = z.object({
  access_token: z.string().min(1),
  // A string in practice ("7200"); parse a number too.
  expires_in: z.union([z.string().regex(/^[0-9]+$/), z.number().nonnegative()]),
});

export type QqAccessTokenOptions = {
  readonly appId: string;
  readonly secret: string;
  readonly tokenUrl: string;
  readonly fetch: typeof fetch;
  readonly clock: () => number;
  readonly logger: Logger;
  readonly timeoutMs: number;
};

export class QqAccessToken {
  readonly #options: QqAccessTokenOptions;
  #cached: { readonly token: string; readonly expiresAt: number } | null = null;
  #inflight: Promise<Result<string, SendError>> | null = null;

  constructor(options: QqAccessTokenOptions) {
    this.#options = options;
  }

  /**
   * A token valid for at least the refresh margin, from the cache when possible. Concurrent
   * callers share one token request. Failures are not cached: the next call tries again.
   */
  get(): Promise<Result<string, SendError>> {
    const cached = this.#cached;
    if (cached && cached.expiresAt - this.#options.clock() >= REFRESH_MARGIN_MS) {
      return Promise.resolve(ok(cached.token));
    }
    if (!this.#inflight) {
      this.#inflight = this.#fetchToken().finally(() => {
        this.#inflight = null;
      });
    }
    return this.#inflight;
  }

  /**
   * Forgets `token` after the API rejected it, so the next `get` fetches again. A token that
   * was already replaced is left alone: a late 401 must not discard a newer token.
   */
  invalidate(token: string): void {
    if (this.#cached?.token === token) this.#cached = null;
  }

  async #fetchToken(): Promise<Result<string, SendError>> {
    const { appId, secret, tokenUrl, clock, logger, timeoutMs } = this.#options;
    const fetchFn = this.#options.fetch;
    const requestedAt = clock();
    let response: Response;
    try {
      response = await fetchFn(tokenUrl, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ appId, clientSecret: secret }),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      logger.warn("qq.token.network", { error: errorName(error) });
      return err({
        kind: "unavailable",
        retryable: true,
        message: `QQ token request failed: ${errorName(error)}`,
      });
    }
    const body: unknown = await response.json().catch(() => null);
    const parsed = TokenResponseSchema.safeParse(body);
    const apiError = readQqApiError(response.status, body);
    if (!response.ok || !parsed.success || isFailureCode(apiError.code)) {
      logger.warn("qq.token.refused", { status: response.status, code: apiError.code });
      return err(tokenError(response.status, apiError));
    }
    const expiresInMs = Number(parsed.data.expires_in) * 1000;
    // Measured from the request, not the response: the clock started on the platform's side first.
    this.#cached = { token: parsed.data.access_token, expiresAt: requestedAt + expiresInMs };
    logger.info("qq.token.fetched", { expiresInSeconds: expiresInMs / 1000 });
    return ok(parsed.data.access_token);
  }
}

/** Token endpoint refusals are credentials problems unless the platform is busy or down. */
function tokenError(status: number, apiError: ReturnType<typeof readQqApiError>): SendError {
  const mapped = toSendError(apiError);
  if (mapped.kind === "rate-limited" || mapped.kind === "unavailable") return mapped;
  if (status >= 200 && status < 300 && apiError.code === null) {
    return { kind: "unavailable", retryable: true, status, message: "QQ token response has no access_token" };
  }
  return {
    ...mapped,
    kind: "config",
    retryable: false,
    message: `QQ token request refused (${mapped.message})`,
  };
}

/** `TimeoutError`, `TypeError`, …: the kind of failure, never a message that might echo a URL or body. */
export function errorName(error: unknown): string {
  if (typeof error === "object" && error !== null && "name" in error && typeof error.name === "string") {
    return error.name;
  }
  return "unknown error";
}
