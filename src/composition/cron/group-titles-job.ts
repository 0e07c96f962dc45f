/** The cron's naming of untitled OneBot groups through `get_group_info`, when ONEBOT_API_BASE is set. */
import { D1UntitledGroups } from "../../adapters/d1/d1-untitled-groups";
import { OneBotGroupInfoClient } from "../../adapters/onebot/onebot-group-info-client";
import {
  fillGroupTitles,
  type GroupInfoSource,
  type GroupTitleReport,
} from "../../domain/sessions/group-titles";
import type { RuntimeConfig } from "../common/runtime-config";

export function oneBotGroupInfo(config: RuntimeConfig): GroupInfoSource | null {
  if (!config.onebot.apiBase) return null;
  return new OneBotGroupInfoClient({
    apiBase: config.onebot.apiBase,
    ...(config.onebot.accessToken ? { accessToken: config.onebot.accessToken } : {}),
    fetch: (input, init) => fetch(input, init),
  });
}

export function groupTitlesJob(env: Env, source: GroupInfoSource | null): Promise<GroupTitleReport> {
  return fillGroupTitles(source, new D1UntitledGroups(env.DB));
}
