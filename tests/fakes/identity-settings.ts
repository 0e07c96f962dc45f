/** Settings with an identity section, for tests. */
import type { IdentitySettings } from "../../src/domain/config/identity-settings";
import { DEFAULT_SETTINGS, type Settings } from "../../src/domain/config/settings";

export const ADMIN = "qq:user:ADMIN_OPENID";
export const MEMBER = "qq:user:MEMBER_OPENID";

/** Identity enabled, ADMIN as the only admin, no people or domains unless given. */
export function withIdentity(identity: Partial<IdentitySettings> = {}): Settings {
  return {
    ...DEFAULT_SETTINGS,
    identity: { enabled: true, people: [], admins: [ADMIN], chatDomains: {}, ...identity },
  };
}
