/**
 * Chat addresses, lane keys and account keys (docs/identity.md#addresses-and-keys).
 *
 *   chat key     channel:targetType:targetId          qq:group:<group_openid>, onebot:private:10001
 *   lane key  chat key [":" lane ":" laneId]        qq:private:U1:cron:abc
 *   legacy key   channel:targetId                      milky:10001 (targetType unknown, not typed)
 *   account key  channel:user:<id>                     qq:user:<openid>
 *
 * Keys arrive from webhooks, the admin API and the CLI, so parsing returns a Result with a
 * message that names what is wrong instead of throwing.
 */
import { err, ok, type Result } from "../kernel/result";

export const TARGET_TYPES = ["private", "group", "channel", "dm", "unknown"] as const;
export type TargetType = (typeof TARGET_TYPES)[number];
const TYPED_TARGETS: ReadonlySet<string> = new Set(["private", "group", "channel", "dm"]);

export type ChatKey = string & { readonly __brand: "ChatKey" };
export type LaneKeyString = string & { readonly __brand: "LaneKey" };
export type AccountKey = string & { readonly __brand: "AccountKey" };

export type ChatAddress = {
  readonly channel: string;
  readonly targetType: TargetType;
  readonly targetId: string;
};

export type LaneKey = {
  readonly address: ChatAddress;
  /** `cron`, `dream`, … — a lane is a separate conversation inside the same chat. */
  readonly lane: { readonly name: string; readonly id: string } | null;
};

export type KeyError = { kind: "invalid"; field: string; reason: string };

const CHANNEL = /^[a-z][a-z0-9_-]{0,31}$/;
const LANE = /^[a-z][a-z0-9_-]{0,31}$/;
/** Platform ids: openids, numeric QQ ids, guild ids. No separators, no whitespace. */
const ID = /^[^\s:]{1,128}$/u;
const MAX_KEY_LENGTH = 512;

export const isTyped = (address: ChatAddress): boolean => address.targetType !== "unknown";

export function chatKeyOf(address: ChatAddress): ChatKey {
  const key = isTyped(address)
    ? `${address.channel}:${address.targetType}:${address.targetId}`
    : `${address.channel}:${address.targetId}`;
  return key as ChatKey;
}

export function formatLaneKey(key: LaneKey): LaneKeyString {
  const base = chatKeyOf(key.address);
  return (key.lane ? `${base}:${key.lane.name}:${key.lane.id}` : base) as LaneKeyString;
}

/** Builds an address from parts, validating each. */
export function chatAddress(
  channel: string,
  targetType: TargetType,
  targetId: string,
): Result<ChatAddress, KeyError> {
  if (!CHANNEL.test(channel))
    return invalid("channel", `'${clip(channel)}' is not a channel name (a-z, 0-9, _ or -)`);
  if (!(TARGET_TYPES as readonly string[]).includes(targetType))
    return invalid("targetType", `'${clip(targetType)}' is not one of ${TARGET_TYPES.join(", ")}`);
  if (!ID.test(targetId))
    return invalid("targetId", `'${clip(targetId)}' is not a valid id (1–128 characters, no ':' or spaces)`);
  return ok({ channel, targetType, targetId });
}

/**
 * Parses a lane key: a typed chat key with an optional lane, or a legacy two-part key.
 * `qq:private:U1:cron:abc` → chat `qq:private:U1`, lane cron/abc.
 */
export function parseLaneKey(raw: string): Result<LaneKey, KeyError> {
  if (typeof raw !== "string" || raw.length === 0) return invalid("key", "is empty");
  if (raw.length > MAX_KEY_LENGTH) return invalid("key", `is longer than ${MAX_KEY_LENGTH} characters`);
  const parts = raw.split(":");
  const [channel = "", second = ""] = parts;
  if (parts.length === 2) {
    const address = chatAddress(channel, "unknown", second);
    return address.ok ? ok({ address: address.value, lane: null }) : address;
  }
  if (parts.length !== 3 && parts.length !== 5) {
    return invalid(
      "key",
      `'${clip(raw)}' has ${parts.length} parts; expected channel:type:id, channel:type:id:lane:laneId or legacy channel:id`,
    );
  }
  if (!TYPED_TARGETS.has(second)) {
    return invalid("targetType", `'${clip(second)}' is not one of private, group, channel, dm`);
  }
  const address = chatAddress(channel, second as TargetType, parts[2] ?? "");
  if (!address.ok) return address;
  if (parts.length === 3) return ok({ address: address.value, lane: null });
  const [laneName = "", laneId = ""] = parts.slice(3);
  if (!LANE.test(laneName)) return invalid("lane", `'${clip(laneName)}' is not a lane name`);
  if (!ID.test(laneId)) return invalid("laneId", `'${clip(laneId)}' is not a valid lane id`);
  return ok({ address: address.value, lane: { name: laneName, id: laneId } });
}

/** Parses a chat key: a lane key without a lane. Typed unless `allowLegacy`. */
export function parseChatKey(
  raw: string,
  options: { allowLegacy?: boolean } = {},
): Result<ChatAddress, KeyError> {
  const parsed = parseLaneKey(raw);
  if (!parsed.ok) return parsed;
  if (parsed.value.lane) return invalid("key", `'${clip(raw)}' is a session lane, not a chat key`);
  if (!options.allowLegacy && !isTyped(parsed.value.address)) {
    return invalid("key", `'${clip(raw)}' is a legacy two-part key; a chat key is channel:type:id`);
  }
  return ok(parsed.value.address);
}

export function accountKey(channel: string, userId: string): Result<AccountKey, KeyError> {
  if (!CHANNEL.test(channel)) return invalid("channel", `'${clip(channel)}' is not a channel name`);
  if (!ID.test(userId)) return invalid("userId", `'${clip(userId)}' is not a valid id`);
  return ok(`${channel}:user:${userId}` as AccountKey);
}

export function parseAccountKey(
  raw: string,
): Result<{ channel: string; userId: string; key: AccountKey }, KeyError> {
  if (typeof raw !== "string" || raw.length === 0) return invalid("account", "is empty");
  const parts = raw.split(":");
  if (parts.length !== 3 || parts[1] !== "user") {
    return invalid("account", `'${clip(raw)}' is not an account key (channel:user:id)`);
  }
  const key = accountKey(parts[0] ?? "", parts[2] ?? "");
  return key.ok ? ok({ channel: parts[0] ?? "", userId: parts[2] ?? "", key: key.value }) : key;
}

function invalid(field: string, reason: string) {
  return err<KeyError>({ kind: "invalid", field, reason });
}

/** Error messages echo input; keep them short and printable. */
function clip(text: string): string {
  const s = String(text).replace(/\p{Cc}/gu, "?");
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
}

/** A one-to-one chat with the bot (a private chat or a guild DM), where its person is alone with it. */
export function isOneToOne(targetType: string): boolean {
  return targetType === "private" || targetType === "dm";
}

/** Whether a chat or lane key (lanes included) names a one-to-one chat. */
export function isOneToOneKey(key: string): boolean {
  const parsed = parseLaneKey(key);
  return parsed.ok && isOneToOne(parsed.value.address.targetType);
}

/**
 * Whether a chat or lane key names a chat several people share: a group or a guild channel. A
 * legacy untyped key or one that does not parse is not known to be shared — it may be someone's
 * private chat — so what may only be read or shown in a shared chat treats it as private.
 */
export function isSharedKey(key: string): boolean {
  const parsed = parseLaneKey(key);
  if (!parsed.ok) return false;
  const type = parsed.value.address.targetType;
  return type === "group" || type === "channel";
}
