/** Failed dashboard logins per client in fixed windows (admin_login_failures). */

export type ThrottlePolicy = { readonly maxFailures: number; readonly windowMs: number };

/** Five wrong tokens per quarter hour: enough for typos, far too few for guessing. */
export const LOGIN_POLICY: ThrottlePolicy = { maxFailures: 5, windowMs: 15 * 60 * 1000 };

export class D1LoginThrottle {
  constructor(
    private readonly db: D1Database,
    private readonly policy: ThrottlePolicy = LOGIN_POLICY,
  ) {}

  /** Seconds until this client may try again, or null when it may try now. */
  async retryAfter(client: string, now: number): Promise<number | null> {
    const row = await this.db
      .prepare("SELECT window_start AS start, failures FROM admin_login_failures WHERE client = ?1")
      .bind(client)
      .first<{ start: number; failures: number }>();
    if (!row || row.failures < this.policy.maxFailures) return null;
    const reopens = row.start + this.policy.windowMs;
    return reopens > now ? Math.ceil((reopens - now) / 1000) : null;
  }

  /** Counts a failure; a window that has passed starts over. Old rows are swept on the way. */
  async recordFailure(client: string, now: number): Promise<void> {
    const expired = now - this.policy.windowMs;
    await this.db.batch([
      this.db
        .prepare(
          `INSERT INTO admin_login_failures (client, window_start, failures) VALUES (?1, ?2, 1)
           ON CONFLICT (client) DO UPDATE SET
             failures = CASE WHEN window_start <= ?3 THEN 1 ELSE failures + 1 END,
             window_start = CASE WHEN window_start <= ?3 THEN ?2 ELSE window_start END`,
        )
        .bind(client, now, expired),
      this.db.prepare("DELETE FROM admin_login_failures WHERE window_start <= ?1").bind(expired),
    ]);
  }
}
