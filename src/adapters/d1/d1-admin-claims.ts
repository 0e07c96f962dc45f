/** The admin claim codes over D1 `admin_claims` (migrations/0280_admin_claims.sql): digests only. */
import type { AdminClaims, ClaimRedemption } from "../../domain/identity/admin-claim";

type ClaimRow = { expires_at: number; used_at: number | null; revoked_at: number | null };

export class D1AdminClaims implements AdminClaims {
  readonly #d1: D1Database;
  constructor(d1: D1Database) {
    this.#d1 = d1;
  }

  async issue({ digest, at, expiresAt }: { digest: string; at: number; expiresAt: number }): Promise<void> {
    await this.#d1.batch([
      this.#d1
        .prepare("UPDATE admin_claims SET revoked_at = ?1 WHERE used_at IS NULL AND revoked_at IS NULL")
        .bind(at),
      this.#d1
        .prepare("INSERT INTO admin_claims (digest, created_at, expires_at) VALUES (?1, ?2, ?3)")
        .bind(digest, at, expiresAt),
    ]);
  }

  async redeem({
    digest,
    at,
    account,
  }: {
    digest: string;
    at: number;
    account: string;
  }): Promise<ClaimRedemption> {
    // One statement: of two redemptions of the same code, exactly one changes the row.
    const used = await this.#d1
      .prepare(
        `UPDATE admin_claims SET used_at = ?2, used_by = ?3
         WHERE digest = ?1 AND used_at IS NULL AND revoked_at IS NULL AND expires_at > ?2`,
      )
      .bind(digest, at, account)
      .run();
    if ((used.meta.changes ?? 0) > 0) return "redeemed";
    const row = await this.#d1
      .prepare("SELECT expires_at, used_at, revoked_at FROM admin_claims WHERE digest = ?1")
      .bind(digest)
      .first<ClaimRow>();
    if (!row) return "unknown";
    if (row.used_at !== null) return "used";
    if (row.revoked_at !== null) return "revoked";
    return "expired";
  }

  async revoke({ digest, at }: { digest: string; at: number }): Promise<boolean> {
    const done = await this.#d1
      .prepare(
        "UPDATE admin_claims SET revoked_at = ?2 WHERE digest = ?1 AND used_at IS NULL AND revoked_at IS NULL",
      )
      .bind(digest, at)
      .run();
    return (done.meta.changes ?? 0) > 0;
  }
}
