/** The stored settings layer in memory, for domain tests of `config_change`. */
import type { SettingsAdmin, SettingsAuditRow, SettingsSave } from "../../src/domain/config/settings-admin";
import type { SettingsDocument, SettingsLayers } from "../../src/domain/config/settings-edit";
import { ok } from "../../src/domain/kernel/result";

export class InMemorySettingsAdmin implements SettingsAdmin {
  stored: SettingsDocument | null;
  readonly var: SettingsDocument;
  readonly saves: { stored: SettingsDocument; audit: SettingsAuditRow }[] = [];

  constructor(layers: Partial<SettingsLayers> = {}) {
    this.var = layers.var ?? {};
    this.stored = layers.stored ?? null;
  }

  /** Bumped by every save; a save from an older revision is refused, like the D1 one. */
  revision = 0;

  async layers() {
    return ok({ var: this.var, stored: this.stored, revision: String(this.revision) });
  }

  async save({ stored, revision, audit }: SettingsSave) {
    if (revision !== String(this.revision)) return false;
    this.stored = stored;
    this.revision += 1;
    this.saves.push({ stored, audit });
    return true;
  }
}
