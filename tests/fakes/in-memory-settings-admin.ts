/** The stored settings layer in memory, for domain tests of `config_change`. */
import type { SettingsAdmin } from "../../src/domain/config/settings-admin";
import type { SettingsDocument, SettingsLayers } from "../../src/domain/config/settings-edit";
import { ok } from "../../src/domain/shared/result";

export class InMemorySettingsAdmin implements SettingsAdmin {
  stored: SettingsDocument | null;
  readonly var: SettingsDocument;
  readonly saves: { stored: SettingsDocument; by: string | null }[] = [];

  constructor(layers: Partial<SettingsLayers> = {}) {
    this.var = layers.var ?? {};
    this.stored = layers.stored ?? null;
  }

  async layers() {
    return ok({ var: this.var, stored: this.stored });
  }

  async save(stored: SettingsDocument, by: string | null) {
    this.stored = stored;
    this.saves.push({ stored, by });
  }
}
