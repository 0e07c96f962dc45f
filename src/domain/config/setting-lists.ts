/**
 * The lists an owner edits one entry at a time: the groups whose log is kept (`follow.groups`),
 * the admins (`identity.admins`) and the people never recorded (`privacy.doNotRecord`). Shared by the chat commands (`/follow`,
 * `/claim`) and the admin API behind `npm run akasha -- follow|admins`, so they compute the
 * same change; each save still goes through `saveSettingsEdit` (settings-admin.ts).
 */
import { err, ok, type Result } from "../kernel/result";
import type { SettingsError } from "./settings";
import { effectiveSettings, type SettingsEdit, type SettingsLayers, setStoredValue } from "./settings-edit";

export const LIST_PATHS = ["follow.groups", "identity.admins", "privacy.doNotRecord"] as const;
export type ListPath = (typeof LIST_PATHS)[number];

export type ListChange = {
  readonly path: ListPath;
  readonly op: "add" | "remove";
  readonly entry: string;
};

/** What a list change does: `edit` is null when the list already was as asked (nothing to save). */
export type ListOutcome = {
  readonly before: readonly string[];
  readonly after: readonly string[];
  readonly edit: SettingsEdit | null;
  /** Adding an admin turned `identity.enabled` on (admins act only with identity on). */
  readonly enabledIdentity: boolean;
};

type Lists = {
  follow: { groups: string[] };
  identity: { admins: string[] };
  privacy: { doNotRecord: string[] };
};

function listAt(settings: Lists, path: ListPath) {
  if (path === "follow.groups") return settings.follow.groups;
  return path === "identity.admins" ? settings.identity.admins : settings.privacy.doNotRecord;
}

/**
 * The stored-layer edit for one list change, computed from the effective list (so an entry
 * that comes from AKASHA_CONFIG stays) and validated as a whole like any settings edit.
 * Adding an admin also turns identity on when it is off: an admin is refused everything while
 * identity is off (docs/identity.md#authorization).
 */
export function changeList(layers: SettingsLayers, change: ListChange): Result<ListOutcome, SettingsError> {
  const current = effectiveSettings(layers);
  if (!current.ok) return current;
  if (current.value.storedError)
    return err({
      kind: "invalid",
      field: current.value.storedError.field,
      reason: `the stored settings do not validate (${current.value.storedError.reason}); fix them first`,
    });
  const settings = current.value.settings;
  const before = [...listAt(settings, change.path)];
  // "*" follows every group already: adding one more would change nothing.
  const present = before.includes(change.entry) || (change.path === "follow.groups" && before.includes("*"));
  const after =
    change.op === "add"
      ? present
        ? before
        : [...before, change.entry]
      : before.filter((entry) => entry !== change.entry);
  const enable = change.path === "identity.admins" && change.op === "add" && !settings.identity.enabled;
  if (after.length === before.length && !enable)
    return ok({ before, after, edit: null, enabledIdentity: false });
  const listed = setStoredValue(layers, change.path.split("."), after);
  if (!listed.ok) return listed;
  if (!enable) return ok({ before, after, edit: listed.value, enabledIdentity: false });
  const enabled = setStoredValue({ ...layers, stored: listed.value.stored }, ["identity", "enabled"], true);
  return enabled.ok ? ok({ before, after, edit: enabled.value, enabledIdentity: true }) : enabled;
}
