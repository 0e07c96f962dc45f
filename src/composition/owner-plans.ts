/** The owner's data-migration plans over D1, for the admin API and the Migrations page. */
import { D1OwnerPlans } from "../adapters/d1/owner-migrations/d1-owner-plans";
import type { Database } from "../domain/memory/owner-plan";

/** `database` is what the plans are checked against: the local database in local mode, else remote. */
export const ownerPlans = (env: Env, database: Database) => new D1OwnerPlans(env.DB, database);
