/**
 * What `env.AI.run` throws → ModelError. The binding throws plain Errors whose message
 * carries the Workers AI internal code (e.g. `3040: Capacity temporarily exceeded`), so the
 * code and a few phrases are all there is to go on.
 */
import type { ModelError } from "../../domain/model/chat-model";

// Internal codes from the Workers AI error table (developers.cloudflare.com/workers-ai/platform/errors).
const RATE_LIMITED = new Set([3036, 3040]); // daily free neurons used up; out of capacity
const TIMEOUT = new Set([3007, 3008]); // request timeout; aborted
const CONFIG = new Set([3023, 3041, 3042, 5005, 5007, 5016, 5018, 5019]); // model id, access, terms
const REFUSED = new Set([3003, 3006, 5004]); // incomplete, too large, invalid input

/**
 * Classifies a failure of `run`. `timedOut` is true when our own deadline fired. Unknown
 * failures are `unavailable` (worth retrying later).
 */
export function toModelError(error: unknown, timedOut: boolean): ModelError {
  const text = error instanceof Error ? error.message : String(error);
  const message = `Workers AI: ${text.length > 200 ? `${text.slice(0, 197)}...` : text}`;
  const code = Number(/\b([35]\d{3})\b/.exec(text)?.[1] ?? Number.NaN);
  if (timedOut || TIMEOUT.has(code) || (error instanceof Error && error.name === "TimeoutError")) {
    return { kind: "timeout", message };
  }
  // JSON mode is best effort on Workers AI: the model produced output that misses the schema.
  if (/JSON Mode couldn't be met/i.test(text)) return { kind: "bad-response", message };
  if (RATE_LIMITED.has(code) || /capacity|rate.?limit|too many requests|daily free allocation/i.test(text)) {
    return { kind: "rate-limited", message, status: 429 };
  }
  if (CONFIG.has(code) || /no such model|invalid model/i.test(text)) return { kind: "config", message };
  if (REFUSED.has(code)) return { kind: "refused", message };
  return { kind: "unavailable", message };
}
