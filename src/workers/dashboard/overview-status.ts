/** Gathers the overview's operational sections; each reads on its own so one failure shows as text. */
import type { Context } from "hono";
import type { AppEnv } from "../app-env";
import type { OverviewStatusProps } from "./overview-sections";

export async function overviewStatus(c: Context<AppEnv>): Promise<OverviewStatusProps> {
  const { insights, knowledge } = c.get("services");
  const [errors, retention, embeddings] = await Promise.all([
    insights.recentErrors(10),
    insights.retention(),
    knowledge.embeddingsStatus().catch((e: unknown) => ({ error: String(e) })),
  ]);
  return { errors, retention, embeddings };
}
