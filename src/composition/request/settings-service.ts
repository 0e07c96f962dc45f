/**
 * The stored settings as the admin API and the dashboard read and replace them. A replace goes
 * through the one settings write path (domain/config/settings-admin.ts) that `config_change`
 * takes too: validated whole, compare-and-set against the revision the caller read, and its
 * audit row in the same batch.
 */
import type { Settings, SettingsError } from "../../domain/config/settings";
import { saveSettingsEdit } from "../../domain/config/settings-admin";
import {
  effectiveSettings,
  replaceStoredLayer,
  type SettingsDocument,
  type SettingsEdit,
} from "../../domain/config/settings-edit";
import type { SettingsSource } from "../../domain/config/settings-source";
import { err, ok, type Result } from "../../domain/kernel/result";
import { ConfigError } from "../common/runtime-config";
import { d1SettingsAdmin } from "../settings/d1-settings-admin";
import { readSettingsLayers } from "../settings/settings-loader";
import type { AdminRequest } from "./admin-request";

/** The revision of no stored layer at all. */
export const NO_STORED_REVISION = "none";

export type SettingsView = {
  readonly effective: Settings;
  readonly stored: SettingsDocument | null;
  readonly var: SettingsDocument;
  /** Why the stored layer is ignored (it does not validate), if it is. */
  readonly storedError?: { readonly field: string; readonly reason: string };
  /** Names the stored layer as read: a replace given it saves only while it is still current. */
  readonly revision: string;
};

export type SettingsConflict = { readonly kind: "conflict"; readonly reason: string };

const STALE: SettingsConflict = {
  kind: "conflict",
  reason: "the stored settings changed since they were read; read them again and edit again",
};

/** A short name of the stored text (SHA-256, hex): the dashboard form and the API's ETag carry it. */
async function revisionOf(storedText: string | null): Promise<string> {
  if (storedText === null) return NO_STORED_REVISION;
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(storedText));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export function settingsService(env: Env, who: AdminRequest, source: SettingsSource) {
  const admin = d1SettingsAdmin(env, source);
  return {
    async read(): Promise<SettingsView> {
      const read = await readSettingsLayers(env);
      const stored = read.stored.ok ? read.stored.value : null;
      const current = effectiveSettings({ var: read.var, stored });
      if (!current.ok) throw new ConfigError(`${current.error.field} ${current.error.reason}`);
      // A stored layer that does not validate is ignored whole by the loader; say so.
      const storedError = read.stored.ok ? current.value.storedError : read.stored.error;
      return {
        effective: current.value.settings,
        stored,
        var: read.var,
        ...(storedError ? { storedError: { field: storedError.field, reason: storedError.reason } } : {}),
        revision: await revisionOf(read.storedText),
      };
    },

    /**
     * Replaces the stored layer with `document`, validated whole over AKASHA_CONFIG. With
     * `revision` (from `read`), only while the stored layer is still that one; without, only
     * while it is still what this call read.
     */
    async replace(
      document: unknown,
      revision?: string,
    ): Promise<Result<SettingsEdit, SettingsError | SettingsConflict>> {
      const read = await readSettingsLayers(env);
      // A stored text that is not a JSON object is replaced like an empty one.
      const layers = {
        var: read.var,
        stored: read.stored.ok ? read.stored.value : null,
        revision: read.storedText,
      };
      const edit = replaceStoredLayer(layers, document);
      if (!edit.ok) return edit;
      if (revision !== undefined && revision !== (await revisionOf(read.storedText))) return err(STALE);
      const by = { actor: who.actor, via: who.via, at: Date.now() };
      const saved = await saveSettingsEdit(admin, layers, edit.value, { action: "replace" }, by);
      return saved ? ok(edit.value) : err(STALE);
    },
  };
}

export type SettingsService = ReturnType<typeof settingsService>;
