/**
 * Names for OneBot groups whose events never carried one (an implementation without
 * `group_name` on messages): the cron asks the platform's `get_group_info` for a bounded number
 * of untitled groups per run, most recently active first. Never on the webhook path. A name a
 * live event brings meanwhile wins: the title is written only while it is still empty.
 */
import type { Result } from "../kernel/result";
import { maskSensitiveData } from "../privacy/credentials";

export interface GroupInfoSource {
  /** The group's name, or null when the platform gives none. */
  groupName(
    groupId: string,
  ): Promise<Result<string | null, { readonly kind: string; readonly message: string }>>;
}

export interface UntitledGroups {
  /** OneBot groups the registry has seen without a title, most recently active first. */
  untitled(limit: number): Promise<{ readonly chatKey: string; readonly groupId: string }[]>;
  /** Sets the title unless one was stored meanwhile. */
  setTitleIfUnset(chatKey: string, title: string): Promise<void>;
}

export type GroupTitleReport = { readonly asked: number; readonly named: number; readonly failed: number };

/** Groups asked per cron run at most. */
export const GROUP_TITLES_PER_RUN = 20;

export async function fillGroupTitles(
  source: GroupInfoSource | null,
  groups: UntitledGroups,
  limit = GROUP_TITLES_PER_RUN,
): Promise<GroupTitleReport> {
  if (!source) return { asked: 0, named: 0, failed: 0 };
  let named = 0;
  let failed = 0;
  const todo = await groups.untitled(limit);
  for (const g of todo) {
    const name = await source.groupName(g.groupId);
    if (!name.ok) {
      failed++;
      continue;
    }
    // A group's name is text its members chose, stored and shown like one an event brings:
    // masked the same way (mask-inbound-event.ts), before it is cut to length.
    const title = name.value ? maskSensitiveData(name.value).trim() : "";
    if (!title) continue;
    await groups.setTitleIfUnset(g.chatKey, [...title].slice(0, 100).join(""));
    named++;
  }
  return { asked: todo.length, named, failed };
}
