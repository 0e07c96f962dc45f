/**
 * Cloudflare Access in front of the dashboard: the edge forwards the application token in
 * `Cf-Access-Jwt-Assertion`. It is verified with `jose` against the team's published certs
 * (`<team>/cdn-cgi/access/certs`, matched by `kid`, RS256), and its `iss` must be the team
 * domain and its `aud` the application's AUD tag. Keys rotate, so none is ever hard-coded.
 */
import { createRemoteJWKSet, jwtVerify } from "jose";
import { ConfigError } from "../../composition/common/runtime-config";

export const ACCESS_HEADER = "cf-access-jwt-assertion";

export type AccessConfig = { readonly teamDomain: string; readonly audience: string };

const text = (value: unknown) => (typeof value === "string" && value.trim() !== "" ? value.trim() : null);

/**
 * Access is on when both ACCESS_TEAM_DOMAIN and ACCESS_AUD are set; one without the other is a
 * misconfiguration, refused rather than silently running without Access.
 */
export function readAccessConfig(env: Env): AccessConfig | null {
  const team = text(env.ACCESS_TEAM_DOMAIN);
  const audience = text(env.ACCESS_AUD);
  if (!team && !audience) return null;
  if (!team || !audience)
    throw new ConfigError("ACCESS_TEAM_DOMAIN and ACCESS_AUD must be set together (or neither)");
  const teamDomain = (/^https?:\/\//.test(team) ? team : `https://${team}`).replace(/\/+$/, "");
  if (!URL.canParse(teamDomain)) throw new ConfigError("ACCESS_TEAM_DOMAIN is not a host name or URL");
  return { teamDomain, audience };
}

/** jose caches the key set and refetches it on an unknown `kid` (rotation), per team. */
const keySets = new Map<string, ReturnType<typeof createRemoteJWKSet>>();

function keySet(teamDomain: string) {
  let set = keySets.get(teamDomain);
  if (!set) {
    set = createRemoteJWKSet(new URL(`${teamDomain}/cdn-cgi/access/certs`));
    keySets.set(teamDomain, set);
  }
  return set;
}

export type AccessIdentity = { readonly subject: string; readonly email: string | null };

/** The identity an Access token proves, or null for a forged, expired or foreign token. */
export async function verifyAccessJwt(config: AccessConfig, token: string): Promise<AccessIdentity | null> {
  try {
    const { payload } = await jwtVerify(token, keySet(config.teamDomain), {
      issuer: config.teamDomain,
      audience: config.audience,
      algorithms: ["RS256"],
    });
    if (typeof payload.sub !== "string" || payload.sub === "") return null;
    return { subject: payload.sub, email: typeof payload.email === "string" ? payload.email : null };
  } catch {
    return null;
  }
}
