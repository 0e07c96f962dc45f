/**
 * Recent errors for the overview: unhandled request errors from the ops log and failed model
 * calls from model_usage (which records every call), newest first.
 */
import { opsLog } from "./admin-services";

export type RecentError = { at: number; source: string; message: string };

export async function recentErrors(env: Env, limit: number): Promise<RecentError[]> {
  const [requests, models] = await Promise.all([
    opsLog(env).recent("error", limit),
    env.DB.prepare(
      `SELECT at, provider || ' ' || model || ' (' || purpose || ')' AS source, coalesce(error_kind, 'failed') AS message
       FROM model_usage WHERE ok = 0 ORDER BY at DESC LIMIT ?1`,
    )
      .bind(limit)
      .all<RecentError>(),
  ]);
  return [...requests.map(({ at, source, message }) => ({ at, source, message })), ...models.results]
    .sort((a, b) => b.at - a.at)
    .slice(0, limit);
}
