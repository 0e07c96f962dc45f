// The identity section of the settings a test runs under: its cast of accounts, the people it
// declares, and the stored row with identity switched on.
import { env } from "cloudflare:workers";
import { uid } from "./identity";
import { storeSettings } from "./stored-settings";

/** One fresh id for each prefix, in order (for a test's cast of accounts and chats). */
export const uids = <const P extends readonly string[]>(...prefixes: P) =>
  prefixes.map(uid) as { [K in keyof P]: string };

/** The QQ user account keys of these ids. */
export const qqUsers = (...ids: string[]) => ids.map((id) => `qq:user:${id}`);

/** A declared person of identity.people. */
export const declared = (id: string, displayName: string, accounts: string[]) => ({
  id,
  displayName,
  accounts,
});

/** Stores settings with identity switched on: `identity` is laid over { enabled: true }, `other` beside it. */
export function storeIdentity(identity: Record<string, unknown>, other: Record<string, unknown> = {}) {
  return storeSettings(env, { identity: { enabled: true, ...identity }, ...other });
}
