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

/** Who the admin gate refuses, under which settings, and the reason it gives (in Chinese). */
export const ADMIN_GATE_REFUSALS = [
  ["a member", MEMBER, withIdentity(), "账号 qq:user:MEMBER_OPENID 不在 identity.admins 中"],
  ["anyone while identity is off", ADMIN, DEFAULT_SETTINGS, "身份系统未启用"],
  ["anyone while no admin is declared", ADMIN, withIdentity({ admins: [] }), "identity.admins 为空"],
] as const;
