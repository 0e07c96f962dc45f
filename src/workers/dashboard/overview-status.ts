/** Gathers the overview's operational sections; each reads on its own so one failure shows as text. */
import type { Context } from "hono";
import { recentErrors } from "../../composition/recent-errors";
import { retentionStatus } from "../../composition/retention-status";
import { loadSettings } from "../../composition/settings-source";
import type { AppEnv } from "../app-env";
import { callApi } from "./admin-api";
import type { EmbeddingsStatus, OverviewStatusProps } from "./overview-sections";

export async function overviewStatus(c: Context<AppEnv>): Promise<OverviewStatusProps> {
  const settings = await loadSettings(c.env);
  const [errors, retention, embeddings] = await Promise.all([
    recentErrors(c.env, 10),
    retentionStatus(c.env, settings),
    callApi<EmbeddingsStatus>(c, "GET", "/embeddings/status"),
  ]);
  return { errors, retention, embeddings: embeddings.ok ? embeddings.value : { error: embeddings.error } };
}
