/**
 * The port through which admin tools read and replace the stored settings layer. The
 * composition root implements it over D1 and the settings loader's cache.
 */
import type { Result } from "../kernel/result";
import type { SettingsError } from "./settings";
import type { SettingsDocument, SettingsLayers } from "./settings-edit";

export interface SettingsAdmin {
  /**
   * The AKASHA_CONFIG layer and the stored layer as they are now, read past any cache.
   * Fails naming the layer when the stored text is not a JSON object.
   */
  layers(): Promise<Result<SettingsLayers, SettingsError>>;
  /**
   * Replaces the stored layer with a document the edit functions validated, and drops this
   * isolate's settings cache. Other isolates keep theirs for up to its lifetime (about 10 s).
   * Saves only while the stored layer is still at `revision` (from `layers()`); false, and
   * nothing written, when another edit came in between.
   */
  save(stored: SettingsDocument, by: string | null, revision: string | null): Promise<boolean>;
}
