/**
 * What a cluster exposes (docs/sessions.md#clusters): a group linked with a private chat reads
 * that chat's memory — public items only, since a person's private and secret_like items never
 * reach a group turn (scope.ts `turnScopes`) — and this is the owner's decision to make
 * knowingly. These functions name, for a group, whose private chats it now reads, and for a
 * link, which new group ↔ private pairs it would create.
 */
import { isOneToOne, parseChatKey } from "../chat/chat-address";
import type { SessionInfo, SessionRegistry } from "./session-registry";

/** A private chat a group reads through its cluster, and whose it is. */
export type PrivateExposure = {
  readonly group: string;
  readonly privateChat: string;
  readonly privateSession: string;
  /** The account of the private chat (`qq:user:<openid>`); null for a guild DM. */
  readonly account: string | null;
  /** How the dashboard and the reply call the person: alias, else title, else account. */
  readonly label: string;
};

const isPrivate = (s: SessionInfo) => isOneToOne(s.targetType);

function accountOf(chatKey: string): string | null {
  const parsed = parseChatKey(chatKey);
  if (!parsed.ok || parsed.value.targetType !== "private") return null;
  return `${parsed.value.channel}:user:${parsed.value.targetId}`;
}

function exposure(group: SessionInfo, priv: SessionInfo): PrivateExposure {
  const account = accountOf(priv.chatKey);
  return {
    group: group.chatKey,
    privateChat: priv.chatKey,
    privateSession: priv.sessionId,
    account,
    label: priv.alias ?? priv.title ?? account ?? priv.chatKey,
  };
}

/** The private chats of `members` a group among them reads (none when `group` is private). */
export function privateChatsReadBy(group: SessionInfo, members: readonly SessionInfo[]): PrivateExposure[] {
  if (isPrivate(group)) return [];
  return members
    .filter((m) => m.chatKey !== group.chatKey && m.clusterId === group.clusterId && isPrivate(m))
    .map((m) => exposure(group, m));
}

/**
 * Whose private memory a group can read through its cluster links, for the dashboard's
 * Identity and Sessions pages. Null when the group is unknown to the registry.
 */
export async function whosePrivateMemoryGroupReads(
  registry: Pick<SessionRegistry, "resolve" | "members">,
  groupRef: string,
): Promise<PrivateExposure[] | null> {
  const group = await registry.resolve(groupRef);
  if (!group) return null;
  return privateChatsReadBy(group, await registry.members(group.clusterId));
}

/**
 * The group ↔ private pairs a link would newly create: `moving` joins `cluster`. Only pairs
 * across the two sides are new; pairs already inside the cluster were confirmed before.
 */
export function exposuresOfLink(cluster: readonly SessionInfo[], moving: SessionInfo): PrivateExposure[] {
  const others = cluster.filter((m) => m.chatKey !== moving.chatKey);
  if (isPrivate(moving)) return others.filter((m) => !isPrivate(m)).map((g) => exposure(g, moving));
  return others.filter(isPrivate).map((p) => exposure(moving, p));
}
