/**
 * QQ webhook dispatch (op 0) → the transport-neutral InboundEvent. The webhook route calls this
 * after the request is authenticated and the envelope parsed; what comes back is either an
 * event to hand to the chat's session, or a reason to acknowledge and drop the body.
 */
import type { InboundEvent } from "../../domain/inbound/inbound-event";
import { err, type Result } from "../../domain/kernel/result";
import type { QqEnvelope } from "./qq-event.schema";
import type { QqConversion, QqEventContext, QqEventOptions, QqEventRejection } from "./qq-event-parts";
import { c2cMessage, groupMessage, guildMessage } from "./qq-message-events";
import {
  FRIEND_NOTICE_TYPES,
  friendNotice,
  GROUP_NOTICE_TYPES,
  groupNotice,
  messageDeleted,
} from "./qq-notice-events";

export type { QqEventOptions, QqEventRejection } from "./qq-event-parts";

type Converter = (context: QqEventContext) => QqConversion;

const CONVERTERS: ReadonlyMap<string, Converter> = new Map<string, Converter>([
  ["GROUP_AT_MESSAGE_CREATE", (c) => groupMessage(c, true)],
  ["GROUP_MESSAGE_CREATE", (c) => groupMessage(c, false)],
  ["C2C_MESSAGE_CREATE", c2cMessage],
  ["AT_MESSAGE_CREATE", (c) => guildMessage(c, "channel")],
  ["MESSAGE_CREATE", (c) => guildMessage(c, "channel")],
  ["DIRECT_MESSAGE_CREATE", (c) => guildMessage(c, "dm")],
  ...GROUP_NOTICE_TYPES.map((type): [string, Converter] => [type, groupNotice]),
  ...FRIEND_NOTICE_TYPES.map((type): [string, Converter] => [type, friendNotice]),
  ["MESSAGE_DELETE", messageDeleted],
  ["PUBLIC_MESSAGE_DELETE", messageDeleted],
  ["DIRECT_MESSAGE_DELETE", messageDeleted],
]);

/** Events we receive but deliberately do not turn into inbound events, with why. */
const IGNORED: Readonly<Record<string, string>> = {
  INTERACTION_CREATE: "button interactions are not supported",
  MESSAGE_AUDIT_PASS: "guild audit results carry no conversation",
  MESSAGE_AUDIT_REJECT: "guild audit results carry no conversation",
};

/**
 * Converts a dispatch envelope. Messages (group, group @, C2C, guild channel, guild DM) become
 * kind `message` with a `msg_id` reply handle; group and friend notices and guild recalls
 * become their own kinds. `eventId` is the envelope id, or `<t>:<d.id>` (a stable stand-in)
 * when the envelope has none. `raw` is the envelope as given.
 *
 * `ignored`: not a dispatch (op ≠ 0), no `t`, or an event type we do not handle (interactions,
 * audits, member events, unknown types) — acknowledge and drop. `invalid`: a handled type whose
 * payload does not match the spec; the reason names fields, never their values.
 */
export function toInboundEvent(
  envelope: QqEnvelope,
  receivedAtMs: number,
  options: QqEventOptions = {},
): Result<InboundEvent, QqEventRejection> {
  if (envelope.op !== 0) return err({ kind: "ignored", reason: `op ${envelope.op} is not a dispatch` });
  const type = envelope.t;
  if (!type) return err({ kind: "ignored", reason: "dispatch without an event type" });
  const converter = CONVERTERS.get(type);
  if (!converter) {
    return err({ kind: "ignored", reason: `${clip(type)}: ${IGNORED[type] ?? "event type not handled"}` });
  }
  return converter({ envelope, type, receivedAt: receivedAtMs, options });
}

/** Event types arrive from the network; keep them short in reasons that reach logs. */
function clip(text: string): string {
  const printable = text.replace(/[^\x20-\x7e]/g, "?");
  return printable.length > 64 ? `${printable.slice(0, 61)}...` : printable;
}
