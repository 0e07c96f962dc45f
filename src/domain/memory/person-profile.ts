/**
 * Person profiles (docs/memory.md#person-profiles): one short text about the person speaking,
 * across their linked accounts (their person scope and account scope), read in the turn's
 * mandatory block. A profile is built only from items the audience may read: the profile a
 * group turn reads holds the person's public items alone; their own private chat reads one
 * that also holds their private items. secret_like items are in neither: a profile is repeated
 * in every turn, and such items are recalled only when the conversation asks for them.
 *
 * Freshness is by construction, not by remembering to refresh: the store serves a profile only
 * while it was built from the current items (a version every write to the scopes bumps), so an
 * item made private, moved or forgotten is gone from the public profile at the next read.
 */
import { levelsOf, type ReadableScope } from "../retrieval/read-gate";
import type { MemoryItem, Sensitivity } from "./memory";
import type { MemoryStore } from "./memory-store";
import type { BuiltProfile, ProfileAudience, ProfileKey, ProfileStore } from "./profile-store";

export type { BuiltProfile, ProfileAudience, ProfileKey, ProfileStore, SavedProfile } from "./profile-store";

import { type Scope, scopeKey } from "./scope";

/** The levels each audience's profile is built from; secret_like is never in a profile. */
export const AUDIENCE_LEVELS: Record<ProfileAudience, readonly Sensitivity[]> = {
  public: ["public"],
  own: ["public", "private"],
};

/** What a profile says: who the person is and what they like, not what they have to do. */
export const PROFILE_KINDS = ["fact", "preference"] as const;
/** A profile is a few lines in every prompt; longer lists belong to recall. */
export const PROFILE_MAX_ITEMS = 8;
export const PROFILE_MAX_CHARS = 300;
/** Items read to choose from (importance first): a few more than are kept, for the char cap. */
const CANDIDATES = 24;

/** The sender's own scopes a turn reads (person, account) — the only ones a profile is about. */
export function ownScopes(readable: readonly ReadableScope[]): ReadableScope[] {
  return readable.filter((s) => s.type === "person" || s.type === "account");
}

/**
 * Which profile a reader holding `readable` may read about the sender: `own` only where the gate
 * gives the sender's private items (their own private chat), `public` where it gives public
 * items alone, none where it gives neither.
 */
export function profileAudience(readable: readonly ReadableScope[]): ProfileAudience | null {
  const own = ownScopes(readable);
  if (own.length === 0) return null;
  // Every own scope must allow the level: the profile mixes them.
  const allow = (level: Sensitivity) => own.every((s) => levelsOf(readable, s).includes(level));
  if (allow("private")) return "own";
  if (allow("public")) return "public";
  return null;
}

export function profileKey(scopes: readonly Scope[], audience: ProfileAudience): ProfileKey {
  const keys = [...new Set(scopes.map(scopeKey))].sort();
  return { subject: keys.join("|"), scopes: keys, audience };
}

/** Composes the profile from items, most important first, within the item and char caps. */
export function composeProfile(items: readonly MemoryItem[]): BuiltProfile {
  const lines: string[] = [];
  const seen = new Set<string>();
  let chars = 0;
  const ranked = [...items].sort((a, b) => b.importance - a.importance || b.updatedAt - a.updatedAt);
  for (const item of ranked) {
    const line = item.text.replace(/\s+/gu, " ").trim();
    if (!line || seen.has(line)) continue;
    if (lines.length >= PROFILE_MAX_ITEMS || chars + line.length > PROFILE_MAX_CHARS) break;
    seen.add(line);
    lines.push(line);
    chars += line.length;
  }
  return { text: lines.map((l) => `- ${l}`).join("\n"), items: lines.length };
}

export type ProfileDeps = {
  readonly profiles: ProfileStore;
  readonly store: Pick<MemoryStore, "listActive">;
  /**
   * Where a turn that read a profile in the items' own words asks for the chat model's rewrite
   * (profile-rewrite.ts): no I/O here; the chat object's alarm does it after the turn. Absent
   * when no chat model is configured.
   */
  readonly rewrites?: { want(key: ProfileKey): void };
};

/**
 * The items the audience's profile is built from: the sender's own scopes at the levels the
 * reader's gate gives, narrowed to the audience's (never wider than the reader's), fact and
 * preference, portable, most important first. Also what a turn without a profile would read.
 */
export async function profileItems(
  store: Pick<MemoryStore, "listActive">,
  readable: readonly ReadableScope[],
  audience: ProfileAudience,
): Promise<MemoryItem[]> {
  const levels = AUDIENCE_LEVELS[audience];
  const items = await store.listActive({
    scopes: ownScopes(readable).map((s) => ({
      ...s,
      sensitivities: levelsOf(readable, s).filter((l) => levels.includes(l)),
    })),
    limit: CANDIDATES,
    kinds: PROFILE_KINDS,
  });
  // An item meaningful only where it was said (a group nickname) is not about the person.
  return items.filter((i) => i.portable && levels.includes(i.sensitivity));
}

/**
 * The sender's profile for this reader: the saved one when current, else built now from the
 * items the audience may read (through the read gate's levels) and saved. null when the reader
 * may read none of the sender's items or there is nothing to say.
 */
export async function readProfile(
  deps: ProfileDeps,
  readable: readonly ReadableScope[],
  now: number,
): Promise<string | null> {
  const audience = profileAudience(readable);
  if (audience === null) return null;
  const key = profileKey(ownScopes(readable), audience);
  const saved = await deps.profiles.read(key);
  if (saved.text !== null) {
    if (saved.text && saved.by === "extract") deps.rewrites?.want(key);
    return saved.text || null;
  }
  const built = composeProfile(await profileItems(deps.store, readable, audience));
  await deps.profiles.save(key, saved.version, built, now);
  if (built.text) deps.rewrites?.want(key);
  return built.text || null;
}
