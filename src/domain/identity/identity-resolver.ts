/**
 * Resolves a message's sender to an account and, when known, a person (docs/identity.md#people-and-accounts), from
 * config (`identity.people`) and the identity tables. In order:
 *
 *   1. config declares the account            → that person, declared
 *   2. an admin linked (or detached) it       → that person (or none)
 *   3. the platform gave a union id           → the person of an account sharing it (declared
 *                                               first, then admin-linked), else the union itself;
 *                                               the link is recorded (source `union`)
 *   4. otherwise                              → no person
 *
 * Knows nothing about admins: the result is the same whoever is an admin.
 */
import type { AccountKey } from "../chat/chat-address";
import { parseAccountKey } from "../chat/chat-address";
import { declaredPersonOf, type IdentitySettings } from "../config/identity-settings";
import type { Clock } from "../kernel/clock";
import type { Logger } from "../kernel/logger";
import type { AccountLink, IdentityDirectory } from "./identity-directory";
import { unionKeyOf } from "./person";
import { disabledIdentity, type IdentityResolver, type SenderIdentity } from "./sender-identity";

export type PersonResolution = {
  readonly personId: string | null;
  readonly declared: boolean;
  /** How the person was found; `detached` = an admin unlinked the account. */
  readonly via: "config" | "admin" | "detached" | "union" | "none";
  /** The account's link row before resolution. */
  readonly link: AccountLink | null;
  /** The union key used, if any. */
  readonly unionKey: string | null;
};

/** Steps 1–4 above, reading but never writing. */
export async function resolvePerson(
  identity: IdentitySettings,
  directory: IdentityDirectory,
  account: AccountKey,
  unionKey: string | null,
): Promise<PersonResolution> {
  const isDeclared = (personId: string | null) =>
    personId !== null && identity.people.some((p) => p.id === personId);
  const declared = declaredPersonOf(identity, account);
  if (declared) return { personId: declared.id, declared: true, via: "config", link: null, unionKey };
  const link = await directory.linkOf(account);
  if (link?.source === "admin") {
    return link.personId === null
      ? { personId: null, declared: false, via: "detached", link, unionKey: link.unionKey }
      : { personId: link.personId, declared: isDeclared(link.personId), via: "admin", link, unionKey };
  }
  const union = unionKey ?? link?.unionKey ?? null;
  if (union === null) return { personId: null, declared: false, via: "none", link, unionKey: null };
  const siblings = await directory.accountsOfUnion(union);
  const fromConfig = siblings.map((s) => declaredPersonOf(identity, s.account)).find((p) => p !== null);
  const fromAdmin = siblings
    .map((s) => s.link)
    .filter((l): l is AccountLink => l?.source === "admin" && l.personId !== null)
    .sort((a, b) => b.linkedAt - a.linkedAt)[0];
  const personId = fromConfig?.id ?? fromAdmin?.personId ?? union;
  return { personId, declared: isDeclared(personId), via: "union", link, unionKey: union };
}

export type DirectoryIdentityResolverDeps = {
  /** The current identity settings (re-read per call, so config changes apply at once). */
  readonly settings: () => Promise<IdentitySettings>;
  readonly directory: IdentityDirectory;
  readonly clock: Clock;
  readonly logger: Logger;
};

/** The IdentityResolver over config and the identity tables; `disabledIdentity` while identity is off. */
export class DirectoryIdentityResolver implements IdentityResolver {
  readonly #deps: DirectoryIdentityResolverDeps;
  constructor(deps: DirectoryIdentityResolverDeps) {
    this.#deps = deps;
  }

  async resolve(input: {
    account: AccountKey;
    chatKey: string;
    unionId: string | null;
  }): Promise<SenderIdentity> {
    const identity = await this.#deps.settings();
    if (!identity.enabled) return disabledIdentity.resolve(input);
    const parsed = parseAccountKey(input.account);
    const unionKey = parsed.ok && input.unionId ? unionKeyOf(parsed.value.channel, input.unionId) : null;
    const found = await resolvePerson(identity, this.#deps.directory, input.account, unionKey);
    if (found.via === "union") await this.#recordUnionLink(input.account, found);
    return { enabled: true, account: input.account, personId: found.personId, declared: found.declared };
  }

  /** Records the automatic link when it is new or changed; a failed write costs nothing but the record. */
  async #recordUnionLink(account: AccountKey, found: PersonResolution): Promise<void> {
    const prior = found.link;
    if (prior && prior.personId === found.personId && prior.unionKey === found.unionKey) return;
    const now = this.#deps.clock.now();
    const isUnionPerson = found.personId === found.unionKey;
    try {
      await this.#deps.directory.link(
        {
          account,
          personId: found.personId,
          source: "union",
          unionKey: found.unionKey,
          linkedBy: null,
          linkedAt: now,
        },
        isUnionPerson ? { displayName: null, origin: "union", createdAt: now } : undefined,
      );
    } catch (e) {
      this.#deps.logger.warn("union link not recorded", { account, error: String(e) });
    }
  }
}
