/**
 * The platform adapters behind each webhook (docs/qq-protocol.md; OneBot in docs/architecture.md): how
 * a request is authenticated and how its payload becomes an inbound event. The webhook routes
 * take them from here, so that which adapter serves a transport is chosen in the composition
 * root like every other (the `adapters-only-through-composition` rule).
 */
import { toInboundEvent as oneBotInboundEvent } from "../../adapters/onebot/onebot-event";
import { verifyOneBotSignature } from "../../adapters/onebot/onebot-signature";
import { toInboundEvent as qqInboundEvent } from "../../adapters/qq/qq-event";
import { parseQqEnvelope } from "../../adapters/qq/qq-event.schema";
import { answerValidation, checkQqRequest } from "../../adapters/qq/qq-webhook-request";

export const qqTransport = {
  /** App id, Ed25519 signature over timestamp + body, replay window. */
  checkRequest: checkQqRequest,
  parseEnvelope: parseQqEnvelope,
  /** The answer to op 13, the platform's callback-address validation. */
  answerValidation,
  toInboundEvent: qqInboundEvent,
} as const;

export const oneBotTransport = {
  /** `X-Signature`, HMAC-SHA1 of the raw body with ONEBOT_SECRET. */
  verifySignature: verifyOneBotSignature,
  toInboundEvent: oneBotInboundEvent,
} as const;
