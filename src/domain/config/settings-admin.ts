/**
 * The port through which the stored settings layer is read and replaced, and the one write
 * path every face of it takes (docs/architecture.md#settings): the admin API, the dashboard
 * form and the `config_change` tool all save through `saveSettingsEdit`, so each save is a
 * compare-and-set against the revision it was read at, and its audit row is written in the
 * same transaction (both or neither). The composition root implements the port over D1.
 */
import type { Result } from "../kernel/result";
import type { SettingsError } from "./settings";
import { changedPaths, type SettingsDocument, type SettingsEdit, type SettingsLayers } from "./settings-edit";

/** The audit row a save writes with it; the store adds the dedupe key. */
export type SettingsAuditRow = {
  readonly at: number;
  readonly actor: string | null;
  readonly action: string;
  readonly chatKey: string | null;
  readonly target: string;
  readonly detail: Readonly<Record<string, string | number | boolean | null>>;
};

export type SettingsSave = {
  readonly stored: SettingsDocument;
  /** The stored layer's revision as `layers()` read it (null = no stored row yet). */
  readonly revision: string | null;
  readonly audit: SettingsAuditRow;
};

export interface SettingsAdmin {
  /**
   * The AKASHA_CONFIG layer and the stored layer as they are now, read past any cache.
   * Fails naming the layer when the stored text is not a JSON object.
   */
  layers(): Promise<Result<SettingsLayers, SettingsError>>;
  /**
   * Replaces the stored layer with a document the edit functions validated, together with
   * its audit row, and drops this isolate's settings cache. Other isolates keep theirs for up
   * to its lifetime (about 10 s). Saves only while the stored layer is still at `revision`;
   * false, and nothing written (no audit row either), when another edit came in between.
   */
  save(save: SettingsSave): Promise<boolean>;
}

/** Who saves and through which face; the rest of the audit row is the same for every face. */
export type SettingsSaver = {
  readonly actor: string | null;
  /** `api`, `dashboard` or `tool`. */
  readonly via: string;
  readonly at: number;
  /** The chat the change was asked from (the tool), else null. */
  readonly chatKey?: string | null;
};

/** What a face saves: `replace` a whole document, or `set` / `unset` one path (the tool). */
export type SettingsChange =
  | { readonly action: "replace" }
  | {
      readonly action: "set" | "unset";
      readonly path: string;
      readonly extra: Readonly<Record<string, string | number | boolean | null>>;
    };

/**
 * Saves a validated edit of `layers` at the revision they were read at, with its audit row:
 * `config.<action>`, the changed paths and their count, and the face it came through. False
 * when the stored layer changed since `layers` was read (nothing written).
 */
export function saveSettingsEdit(
  admin: SettingsAdmin,
  layers: SettingsLayers,
  edit: SettingsEdit,
  change: SettingsChange,
  by: SettingsSaver,
): Promise<boolean> {
  const changed = changedPaths(layers.stored ?? {}, edit.stored);
  return admin.save({
    stored: edit.stored,
    revision: layers.revision ?? null,
    audit: {
      at: by.at,
      actor: by.actor,
      action: `config.${change.action}`,
      chatKey: by.chatKey ?? null,
      target: change.action === "replace" ? "settings" : change.path.slice(0, 200),
      detail: {
        via: by.via,
        changed: changed.length,
        paths: changed.join(", ").slice(0, 500),
        ...(change.action === "replace" ? {} : change.extra),
      },
    },
  });
}
