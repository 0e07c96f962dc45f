/** The stored settings layer in memory, for domain tests of `config_change`. */
import type { SettingsAdmin } from "../../src/domain/config/settings-admin";
import type { SettingsDocument, SettingsLayers } from "../../src/domain/config/settings-edit";
import { ok } from "../../src/domain/kernel/result";

export class InMemorySettingsAdmin implements SettingsAdmin {
  stored: SettingsDocument | null;
  readonly var: SettingsDocument;
  readonly saves: { stored: SettingsDocument; by: string | null }[] = [];

  constructor(layers: Partial<SettingsLayers> = {}) {
    this.var = layers.var ?? {};
    this.stored = layers.stored ?? null;
  }

  /** Bumped by every save; a save from an older revision is refused, like the D1 one. */
  revision = 0;

  async layers() {
    return ok({ var: this.var, stored: this.stored, revision: String(this.revision) });
  }

  async save(stored: SettingsDocument, by: string | null, revision: string | null) {
    if (revision !== String(this.revision)) return false;
    this.stored = stored;
    this.revision += 1;
    this.saves.push({ stored, by });
    return true;
  }
}
