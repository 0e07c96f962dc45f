/**
 * What an admin can do to identities: link an account to a person, detach it, and look an
 * account up. Authorization happens before these run (commands and tools check the gate);
 * these only validate input against config and the identity tables.
 */
import { type AccountKey, parseAccountKey } from "../chat/chat-address";
import { declaredPersonOf, type IdentitySettings } from "../config/identity-settings";
import { err, ok, type Result } from "../kernel/result";
import type { AccountObservation, IdentityDirectory } from "./identity-directory";
import { type PersonResolution, resolvePerson } from "./identity-resolver";
import { parsePersonId } from "./person";

export type IdentityAdminDeps = {
  readonly identity: IdentitySettings;
  readonly directory: IdentityDirectory;
  readonly now: number;
  /** The admin's account, recorded on the link. */
  readonly by: string | null;
};

export type IdentityAdminError =
  | { readonly kind: "invalid"; readonly field: string; readonly reason: string }
  | { readonly kind: "conflict"; readonly reason: string };

export type LinkOutcome = {
  readonly account: AccountKey;
  readonly personId: string;
  /** The person did not exist before and was created by this link. */
  readonly created: boolean;
  /** The person the account resolved to before, if any. */
  readonly previous: string | null;
};

/**
 * The account an admin's link or unlink names, or why it cannot be changed here: malformed, or
 * declared in identity.people, which only the config changes (`verb` says what was asked).
 */
function adminChangeable(
  deps: IdentityAdminDeps,
  rawAccount: string,
  verb: "改动" | "解除",
): Result<AccountKey, IdentityAdminError> {
  const account = parseAccountKey(rawAccount);
  if (!account.ok) return err({ kind: "invalid", field: "account", reason: account.error.reason });
  const key = account.value.key;
  const declared = declaredPersonOf(deps.identity, key);
  if (declared) {
    return err({
      kind: "conflict",
      reason: `账号 ${key} 在配置 identity.people 中声明为 ${declared.id}；要${verb}请修改配置。`,
    });
  }
  return ok(key);
}

export async function linkAccount(
  deps: IdentityAdminDeps,
  rawAccount: string,
  rawPerson: string,
): Promise<Result<LinkOutcome, IdentityAdminError>> {
  const account = adminChangeable(deps, rawAccount, "改动");
  if (!account.ok) return account;
  const key = account.value;
  const inConfig = deps.identity.people.some((p) => p.id === rawPerson);
  const stored = inConfig ? null : await deps.directory.person(rawPerson);
  const created = !inConfig && !stored;
  if (created) {
    const valid = parsePersonId(rawPerson);
    if (!valid.ok) return err({ kind: "invalid", field: "person", reason: valid.error.reason });
  }
  const before = await resolvePerson(deps.identity, deps.directory, key, null);
  await deps.directory.link(
    {
      account: key,
      personId: rawPerson,
      source: "admin",
      unionKey: before.link?.unionKey ?? null,
      linkedBy: deps.by,
      linkedAt: deps.now,
    },
    created ? { displayName: null, origin: "admin", createdAt: deps.now } : undefined,
  );
  return ok({ account: key, personId: rawPerson, created, previous: before.personId });
}

export async function unlinkAccount(
  deps: IdentityAdminDeps,
  rawAccount: string,
): Promise<Result<{ account: AccountKey; previous: string | null }, IdentityAdminError>> {
  const account = adminChangeable(deps, rawAccount, "解除");
  if (!account.ok) return account;
  const key = account.value;
  const before = await resolvePerson(deps.identity, deps.directory, key, null);
  // A detached row, not a deletion: otherwise a union id would link the account right back.
  await deps.directory.link({
    account: key,
    personId: null,
    source: "admin",
    unionKey: before.link?.unionKey ?? null,
    linkedBy: deps.by,
    linkedAt: deps.now,
  });
  return ok({ account: key, previous: before.personId });
}

export type WhoisReport = {
  readonly account: AccountKey;
  readonly resolution: PersonResolution;
  readonly personName: string | null;
  /** Other accounts of the same person: declared in config or linked. */
  readonly otherAccounts: readonly { account: string; via: "config" | "admin" | "union" }[];
  readonly seen: readonly AccountObservation[];
};

export async function whois(
  deps: IdentityAdminDeps,
  rawAccount: string,
): Promise<Result<WhoisReport, IdentityAdminError>> {
  const account = parseAccountKey(rawAccount);
  if (!account.ok) return err({ kind: "invalid", field: "account", reason: account.error.reason });
  const key = account.value.key;
  const seen = await deps.directory.observationsOf(key, 5);
  const unionKey = seen.find((o) => o.unionKey !== null)?.unionKey ?? null;
  const resolution = await resolvePerson(deps.identity, deps.directory, key, unionKey);
  const personId = resolution.personId;
  const others: { account: string; via: "config" | "admin" | "union" }[] = [];
  let personName: string | null = null;
  if (personId !== null) {
    const declared = deps.identity.people.find((p) => p.id === personId);
    personName = declared?.displayName ?? (await deps.directory.person(personId))?.displayName ?? null;
    for (const a of declared?.accounts ?? []) if (a !== key) others.push({ account: a, via: "config" });
    for (const l of await deps.directory.accountsOf(personId)) {
      if (l.account !== key && !others.some((o) => o.account === l.account)) {
        others.push({ account: l.account, via: l.source });
      }
    }
  }
  return ok({ account: key, resolution, personName, otherAccounts: others, seen });
}
