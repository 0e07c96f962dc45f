/** The cron trigger: message-log retention (and later maintenance sweeps). */
import { applyRetention } from "../adapters/d1/retention";
import { loadSettings } from "./settings-loader";

export async function runScheduled(env: Env, scheduledTime: number): Promise<void> {
  const settings = await loadSettings(env, scheduledTime);
  const report = await applyRetention(env.DB, settings, scheduledTime);
  console.log(JSON.stringify({ msg: "retention", ...report }));
}
