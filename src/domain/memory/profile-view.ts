/**
 * What an admin sees of a person's profiles (docs/memory.md#person-profiles): for each account
 * the person speaks from, the profile a group reads (public items alone) next to the one their
 * own private chat reads, each exactly as the next turn there would read it — the saved one
 * while current, else built now from the current items. A view saves nothing.
 */
import type { ReadableScope } from "../retrieval/read-gate";
import { composeProfile, type ProfileDeps, profileItems, profileKey } from "./person-profile";
import type { ProfileAudience } from "./profile-store";

export type ProfileView = {
  readonly text: string;
  readonly items: number;
  /** When the shown profile was built; null when it is built for this view (none is current). */
  readonly builtAt: number | null;
  /** The chat model wrote it, or the items' own words are shown. */
  readonly byModel: boolean;
};
export type AccountProfiles = {
  readonly account: string;
  readonly public: ProfileView;
  readonly own: ProfileView;
};

/**
 * The person's own scopes as a turn of this account reads them: public items alone where the
 * audience is a group, every level in their own private chat (the profile narrows that further).
 */
export function profileReader(person: string, account: string, audience: ProfileAudience): ReadableScope[] {
  const levels = audience === "public" ? { sensitivities: ["public"] as const } : {};
  return [
    { type: "person", id: person, ...levels },
    { type: "account", id: account, ...levels },
  ];
}

async function viewOf(deps: ProfileDeps, reader: ReadableScope[], audience: ProfileAudience) {
  const saved = await deps.profiles.read(profileKey(reader, audience));
  if (saved.text !== null)
    return { text: saved.text, items: saved.items, builtAt: saved.builtAt, byModel: saved.by === "model" };
  const built = composeProfile(await profileItems(deps.store, reader, audience));
  return { text: built.text, items: built.items, builtAt: null, byModel: false };
}

/** Both profiles of the person for each of their accounts, in the accounts' order. */
export async function personProfiles(
  deps: ProfileDeps,
  person: string,
  accounts: readonly string[],
): Promise<AccountProfiles[]> {
  return Promise.all(
    accounts.map(async (account) => {
      const [pub, own] = await Promise.all(
        (["public", "own"] as const).map((a) => viewOf(deps, profileReader(person, account, a), a)),
      );
      return { account, public: pub as ProfileView, own: own as ProfileView };
    }),
  );
}
