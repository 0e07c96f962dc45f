/** A profile store that keeps what it is given, at a version the test moves by hand. */
import type {
  BuiltProfile,
  ProfileKey,
  ProfileRewrite,
  ProfileStore,
  ProfileWriter,
  SavedProfile,
} from "../../src/domain/memory/profile-store";

type Kept = { version: number; built: BuiltProfile; at?: number; by?: ProfileWriter };

export class KeptProfiles implements ProfileStore {
  version = 1;
  readonly saved = new Map<string, Kept>();
  async read(key: ProfileKey): Promise<SavedProfile> {
    const s = this.saved.get(`${key.subject}/${key.audience}`);
    const current = s && s.version === this.version ? s : null;
    return {
      version: this.version,
      text: current ? current.built.text : null,
      items: current?.built.items ?? 0,
      builtAt: current ? (current.at ?? 0) : null,
      by: current ? (current.by ?? "extract") : null,
    };
  }
  async save(key: ProfileKey, version: number, built: BuiltProfile, at: number) {
    if (version !== this.version) return;
    this.saved.set(`${key.subject}/${key.audience}`, { version, built, at, by: "extract" });
  }
  async rewrite(key: ProfileKey, version: number, outcome: ProfileRewrite, at: number) {
    const id = `${key.subject}/${key.audience}`;
    const s = this.saved.get(id);
    if (!s || s.version !== version || version !== this.version || (s.by ?? "extract") !== "extract")
      return false;
    const built = outcome.by === "model" ? { text: outcome.text, items: outcome.items } : s.built;
    this.saved.set(id, { version, built, at, by: outcome.by });
    return true;
  }
}
