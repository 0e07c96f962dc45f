/**
 * The port where person profiles are kept (docs/memory.md#person-profiles); what goes into one is
 * person-profile.ts. Apart from it so the memory services can name the port without a cycle.
 */
export type ProfileAudience = "public" | "own";

/** The profile of these scopes for this audience: `subject` names the scopes, sorted. */
export type ProfileKey = {
  readonly subject: string;
  readonly scopes: readonly string[];
  readonly audience: ProfileAudience;
};

export interface ProfileStore {
  /**
   * The scopes' current version and, when one was saved at that version, the profile text
   * ("" = built, nothing to say); `text: null` when missing or built from older items.
   */
  read(key: ProfileKey): Promise<SavedProfile>;
  /** Saves a profile built at `version`; a newer write to the scopes makes it unreadable. */
  save(key: ProfileKey, version: number, built: BuiltProfile, at: number): Promise<void>;
}

export type BuiltProfile = { readonly text: string; readonly items: number };

/** A read: the current version, and the profile saved at it (text null: none is). */
export type SavedProfile = {
  readonly version: number;
  readonly text: string | null;
  /** The items it was built from, and when; 0 and null when none is current. */
  readonly items: number;
  readonly builtAt: number | null;
};
