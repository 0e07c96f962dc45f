/** Who an admin request comes from: the actor the audit log records and what CSRF tokens bind to. */
export type AdminIdentity = {
  /** What the audit log records as the actor. */
  readonly actor: string;
  readonly via: "token" | "access" | "session";
  /** What CSRF tokens are bound to; null for bearer requests, which need none. */
  readonly csrfBinding: string | null;
};

/** The actor the admin API has always recorded for bearer-token requests. */
export const TOKEN_ACTOR = "admin-api";
/** The actor of a dashboard session opened with the admin token. */
export const SESSION_ACTOR = "admin";
