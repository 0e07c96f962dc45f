/**
 * The owner's data migrations as admins run them: generate a scope-migration or
 * sensitivity-backfill plan (read-only inspect, stored in D1), apply the approved rows, roll
 * back. Same plan logic and guarded SQL as the CLI; every step audited with the acting admin.
 * Plans are checked against the local database in local mode, else the remote one.
 */
import {
  type Approval,
  D1OwnerPlans,
  type PlanKind,
} from "../../adapters/d1/owner-migrations/d1-owner-plans";
import type { AdminRequest } from "./admin-request";

export type { Approval, PlanKind, StoredPlan } from "../../adapters/d1/owner-migrations/d1-owner-plans";
export { PLAN_KINDS } from "../../adapters/d1/owner-migrations/d1-owner-plans";

export function migrationsService(env: Env, who: AdminRequest) {
  const plans = new D1OwnerPlans(env.DB, who.config.mode === "local" ? "local" : "remote");
  return {
    list: (limit: number) => plans.list(limit),
    get: (id: string) => plans.get(id),
    create: (kind: PlanKind) => plans.create(kind, who.actor, Date.now()),
    apply: (id: string, approve: readonly Approval[]) => plans.apply(id, approve, who.actor, Date.now()),
    rollback: (id: string) => plans.rollback(id, who.actor, Date.now()),
  };
}

export type MigrationsService = ReturnType<typeof migrationsService>;
