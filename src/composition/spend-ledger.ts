/** The D1 reader of the day's model spend, for the cap checks and the usage admin API. */
import { D1SpendLedger } from "../adapters/d1/d1-spend-ledger";
import { spendDay } from "../domain/spend/spend-day";
import { type SpendReport, spendReport } from "../domain/spend/spend-report";
import { loadSettings } from "./settings-source";

export const spendLedger = (env: Env) => new D1SpendLedger(env.DB);

/** Today's spend (in `calendar.timeZone`) against the caps: the whole bot and its top chats. */
export async function spendToday(env: Env, now: number, chat?: string): Promise<SpendReport> {
  const settings = await loadSettings(env);
  const { timeZone } = settings.calendar;
  const day = spendDay(now, timeZone);
  return spendReport(settings.spend, timeZone, day, await spendLedger(env).today(day, 20, chat));
}
