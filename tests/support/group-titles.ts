// The cron's group-titles job run against a stand-in OneBot API: what each asked group is
// answered, and what was asked.
import { env } from "cloudflare:workers";
import { OneBotGroupInfoClient } from "@src/adapters/onebot/onebot-group-info-client";
import { groupTitlesJob } from "@src/composition/cron/group-titles-job";

export type AskedGroup = { readonly path: string; readonly group: number; readonly auth: string | null };

/** OneBot's answer to get_group_info with a name. */
export const groupInfo = (groupId: number, name: string) =>
  Response.json({ status: "ok", retcode: 0, data: { group_id: groupId, group_name: name } });

/** Runs the job with `answer` as OneBot's reply to each group asked, bearer `tok`. */
export async function runGroupTitles(answer: (groupId: number) => Response) {
  const asked: AskedGroup[] = [];
  const fake: typeof fetch = async (input, init) => {
    const url = new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url);
    const body = JSON.parse(String(init?.body)) as { group_id: number };
    asked.push({
      path: url.pathname,
      group: body.group_id,
      auth: new Headers(init?.headers).get("authorization"),
    });
    return answer(body.group_id);
  };
  const source = new OneBotGroupInfoClient({
    apiBase: "http://onebot.test/",
    accessToken: "tok",
    fetch: fake,
  });
  return { report: await groupTitlesJob(env, source), asked };
}
