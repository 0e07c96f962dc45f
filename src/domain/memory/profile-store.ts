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
  /**
   * Saves an extractive profile built at `version`, only while it is the scopes' current one; a
   * newer write to the scopes deletes it (docs/decisions/1010-a-profile-leaves-with-its-items.md).
   */
  save(key: ProfileKey, version: number, built: BuiltProfile, at: number): Promise<void>;
  /**
   * Replaces the extractive text saved at `version` with the model's (`model`), or marks it as
   * kept after the model's answer was refused (`kept`, text unchanged) — only while `version`
   * is still the scopes' current one and the saved text is still the extractive one. False when
   * a newer write (or another rewrite) came first: nothing is changed.
   */
  rewrite(key: ProfileKey, version: number, outcome: ProfileRewrite, at: number): Promise<boolean>;
}

/**
 * Profiles a turn read in the items' own words, waiting for the chat model's rewrite
 * (profile-rewrite.ts): the turn only asks (`want`), the chat object's alarm takes them.
 */
export interface ProfileRewrites {
  want(key: ProfileKey): void;
  take(n: number): ProfileKey[];
  readonly size: number;
}

export type BuiltProfile = { readonly text: string; readonly items: number };

/** Who wrote a saved profile's text: the items' own words, the model, or the words kept after a refused answer. */
export type ProfileWriter = "extract" | "model" | "kept";

export type ProfileRewrite =
  | { readonly by: "model"; readonly text: string; readonly items: number }
  | { readonly by: "kept" };

/** A read: the current version, and the profile saved at it (text null: none is). */
export type SavedProfile = {
  readonly version: number;
  readonly text: string | null;
  /** The items it was built from, and when; 0 and null when none is current. */
  readonly items: number;
  readonly builtAt: number | null;
  /** Who wrote it; null when none is current. */
  readonly by: ProfileWriter | null;
};
