/** A profile store that keeps what it is given, at a version the test moves by hand. */
import type {
  BuiltProfile,
  ProfileKey,
  ProfileStore,
  SavedProfile,
} from "../../src/domain/memory/profile-store";

export class KeptProfiles implements ProfileStore {
  version = 1;
  readonly saved = new Map<string, { version: number; built: BuiltProfile; at?: number }>();
  async read(key: ProfileKey): Promise<SavedProfile> {
    const s = this.saved.get(`${key.subject}/${key.audience}`);
    const current = s && s.version === this.version ? s : null;
    return {
      version: this.version,
      text: current ? current.built.text : null,
      items: current?.built.items ?? 0,
      builtAt: current ? (current.at ?? 0) : null,
    };
  }
  async save(key: ProfileKey, version: number, built: BuiltProfile, at: number) {
    this.saved.set(`${key.subject}/${key.audience}`, { version, built, at });
  }
}
