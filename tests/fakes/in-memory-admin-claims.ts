/** The admin claim codes in memory, with the D1 store's rules (one pending code, single use, expiry). */
import type { AdminClaims, ClaimRedemption } from "../../src/domain/identity/admin-claim";

type Row = {
  digest: string;
  expiresAt: number;
  usedAt: number | null;
  usedBy: string | null;
  revokedAt: number | null;
};

export class InMemoryAdminClaims implements AdminClaims {
  readonly rows: Row[] = [];

  async issue({ digest, at, expiresAt }: { digest: string; at: number; expiresAt: number }) {
    for (const r of this.rows) if (r.usedAt === null && r.revokedAt === null) r.revokedAt = at;
    this.rows.push({ digest, expiresAt, usedAt: null, usedBy: null, revokedAt: null });
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
    const row = this.rows.find((r) => r.digest === digest);
    if (!row) return "unknown";
    if (row.usedAt !== null) return "used";
    if (row.revokedAt !== null) return "revoked";
    if (row.expiresAt <= at) return "expired";
    row.usedAt = at;
    row.usedBy = account;
    return "redeemed";
  }

  async revoke({ digest, at }: { digest: string; at: number }) {
    const row = this.rows.find((r) => r.digest === digest && r.usedAt === null && r.revokedAt === null);
    if (row) row.revokedAt = at;
    return row !== undefined;
  }
}
