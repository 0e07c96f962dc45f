/** The cron trigger: message-log retention, then a bounded embeddings refresh. */
import { applyRetention } from "../adapters/d1/retention";
import { createKnowledgeServices } from "../composition/knowledge-services";
import { recordRetention } from "../composition/retention-status";
import { loadSettings } from "../composition/settings-source";

export async function runScheduled(env: Env, scheduledTime: number): Promise<void> {
  const settings = await loadSettings(env);
  const report = await applyRetention(env.DB, settings, scheduledTime);
  console.log(JSON.stringify({ msg: "retention", ...report }));
  await recordRetention(env, scheduledTime, report);
  // New nodes of every scope get their vectors here when an import or a write left some
  // missing (embedding is a cache: failures only delay vector search, FTS works meanwhile).
  try {
    const reports = await createKnowledgeServices(env, settings).refresh(
      settings.knowledge.embeddings.refreshPerRun,
    );
    console.log(JSON.stringify({ msg: "embeddings refresh", reports: JSON.stringify(reports) }));
  } catch (e) {
    console.error(JSON.stringify({ msg: "embeddings refresh failed", error: String(e) }));
  }
}
