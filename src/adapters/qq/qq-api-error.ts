/**
 * QQ OpenAPI error bodies (`{code, message, err_code?, trace_id?}`, docs/qq-protocol.md#qq-errors) and what each
 * means for a sender: retry, drop, fix configuration, or count the message as delivered.
 */
import type { SendError } from "../../domain/agent/outbound";

export type QqApiError = {
  readonly status: number;
  readonly code: number | null;
  readonly errCode: number | null;
  /** The platform's own description (not user text); clipped. */
  readonly message: string | null;
};

/** "消息被去重": this (msg_id, msg_seq) was already sent — an earlier attempt landed. */
export const QQ_DUPLICATE = 40054005;
const DUPLICATE = new Set([QQ_DUPLICATE]);
/** "接口访问源IP不在白名单": the caller's IP is not on the bot's whitelist (HTTP 401). */
const IP_NOT_WHITELISTED = new Set([11298, 40023002]);
/** Token missing/invalid/expired: worth one refetch of the token and one retry. */
const TOKEN_REJECTED = new Set([11241, 11243, 11244]);
/** Guild message accepted but held for manual audit: it will appear once approved. */
const PENDING_AUDIT = new Set([304023, 304024]);
/** The passive-reply handle is used up or too old; resending with it cannot succeed. */
const EXPIRED = new Set([304027, 40034024, 40034005, 40034128, 304103]);
/** Wrong AppID, or the disabled fixed-token scheme: the deployment is misconfigured. */
const CONFIG = new Set([11245, 11251, 11261, 11275]);
const RATE_LIMITED = new Set([22009, 100001]);
/** Platform-side trouble that the docs say to retry. */
const TRANSIENT = new Set([11242, 304082, 304083]);

const MESSAGE_LIMIT = 200;

/** Reads an error body; tolerant of anything, since error pages are not always JSON. */
export function readQqApiError(status: number, body: unknown): QqApiError {
  const record = typeof body === "object" && body !== null ? (body as Record<string, unknown>) : {};
  const code = toCode(record.code);
  const errCode = toCode(record.err_code);
  const text = typeof record.message === "string" ? record.message.slice(0, MESSAGE_LIMIT) : null;
  return { status, code, errCode, message: text };
}

/** The request failed because of the access token (not the IP whitelist, which also answers 401). */
export function isTokenRejection(error: QqApiError): boolean {
  if (hasCode(error, IP_NOT_WHITELISTED)) return false;
  return error.status === 401 || hasCode(error, TOKEN_REJECTED);
}

/** A body carrying a code means failure even on 2xx, except codes that say "accepted". */
export function isFailureCode(code: number | null): boolean {
  return code !== null && code !== 0 && code !== QQ_DUPLICATE && !PENDING_AUDIT.has(code);
}

export const isPendingAudit = (error: QqApiError): boolean => hasCode(error, PENDING_AUDIT);
export const isDuplicate = (error: QqApiError): boolean => hasCode(error, DUPLICATE);

/** Maps a failed call to the Outbound port's error kinds. */
export function toSendError(error: QqApiError): SendError {
  const base = { status: error.status, ...(error.code === null ? {} : { code: error.code }) };
  const described = describe(error);
  if (hasCode(error, IP_NOT_WHITELISTED)) {
    return {
      ...base,
      kind: "config",
      retryable: false,
      message:
        "QQ OpenAPI refused this caller's IP (not on the bot's IP whitelist). Cloudflare Workers have no " +
        "fixed egress IP: route OpenAPI calls through a fixed-IP egress proxy by setting QQ_API_BASE, " +
        `and whitelist that IP. (${described})`,
    };
  }
  if (hasCode(error, EXPIRED)) return { ...base, kind: "expired", retryable: false, message: described };
  if (error.status === 429 || hasCode(error, RATE_LIMITED))
    return { ...base, kind: "rate-limited", retryable: true, message: described };
  if (error.status >= 500 || hasCode(error, TRANSIENT))
    return { ...base, kind: "unavailable", retryable: true, message: described };
  if (hasCode(error, CONFIG) || isTokenRejection(error))
    return { ...base, kind: "config", retryable: false, message: described };
  return { ...base, kind: "rejected", retryable: false, message: described };
}

function describe(error: QqApiError): string {
  const code = error.code === null ? "" : ` code ${error.code}`;
  const errCode = error.errCode === null || error.errCode === error.code ? "" : ` err_code ${error.errCode}`;
  return `QQ API HTTP ${error.status}${code}${errCode}${error.message ? `: ${error.message}` : ""}`;
}

function hasCode(error: QqApiError, codes: ReadonlySet<number>): boolean {
  return (
    (error.code !== null && codes.has(error.code)) || (error.errCode !== null && codes.has(error.errCode))
  );
}

function toCode(value: unknown): number | null {
  if (typeof value === "number" && Number.isInteger(value)) return value;
  if (typeof value === "string" && /^-?[0-9]+$/.test(value)) return Number(value);
  return null;
}
