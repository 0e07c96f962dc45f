/** The D1 reader of the day's model spend, for the cap checks and the usage admin view. */
import { D1SpendLedger } from "../../adapters/d1/d1-spend-ledger";

export const spendLedger = (env: Env) => new D1SpendLedger(env.DB);
