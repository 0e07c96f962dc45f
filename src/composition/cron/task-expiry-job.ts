/**
 * The cron's task expiry (docs/memory.md#decay-and-reinforcement): active tasks whose due time
 * passed, or that nobody reinforced for `memory.decay.taskLifetimeDays`, are archived as
 * expired with a `memory.expire` audit row each — never deleted, restorable on the Memory page.
 * Bounded per run; the rest wait for the next hour.
 */
import { dueTasks, expireTask } from "../../adapters/d1/d1-memory-decay";
import type { Settings } from "../../domain/config/settings";

/** Most tasks one run expires. */
const PER_RUN = 100;

export async function taskExpiryJob(
  env: Env,
  settings: Settings,
  now: number,
): Promise<{ expired: number; due: number; lifetime: number }> {
  const tasks = await dueTasks(env.DB, now, settings.memory.decay, PER_RUN);
  const report = { expired: 0, due: 0, lifetime: 0 };
  for (const task of tasks) {
    if (!(await expireTask(env.DB, task, { actor: "cron", at: now, via: "cron" }))) continue;
    report.expired++;
    if (task.cause === "due") report.due++;
    else if (task.cause === "lifetime") report.lifetime++;
  }
  return report;
}
