/**
 * The identity tables as a port (docs/identity.md#people-and-accounts): links between accounts and people, the
 * people admins or union ids created, and where each account was seen. Config-declared
 * people are not stored here; config stays their source of truth.
 */
import type { AccountKey } from "../chat/chat-address";

/** How an account came to belong to a person. */
export type LinkSource = "admin" | "union";

export type AccountLink = {
  readonly account: AccountKey;
  /** Null when an admin detached the account: it stands alone and is never linked automatically. */
  readonly personId: string | null;
  readonly source: LinkSource;
  /** `channel:union:<id>` when the platform gave a union id for this account. */
  readonly unionKey: string | null;
  readonly linkedBy: string | null;
  readonly linkedAt: number;
};

export type PersonRecord = {
  readonly personId: string;
  readonly displayName: string | null;
  readonly origin: "admin" | "union";
  readonly createdAt: number;
};

/** An account seen in a chat (ParticipantObservation): name, role and first/last seen there. */
export type AccountObservation = {
  readonly account: AccountKey;
  readonly chatKey: string;
  readonly userId: string;
  readonly unionKey: string | null;
  readonly displayName: string | null;
  readonly role: string | null;
  readonly firstSeen: number;
  readonly lastSeen: number;
};

export interface IdentityDirectory {
  /** The account's link row, if it has one. */
  linkOf(account: AccountKey): Promise<AccountLink | null>;
  /**
   * Every account observed with or linked under `unionKey`, each with its link row (null
   * when unlinked). Order is unspecified; each account appears once.
   */
  accountsOfUnion(unionKey: string): Promise<{ account: AccountKey; link: AccountLink | null }[]>;
  /** Links of every account currently linked to `personId`. */
  accountsOf(personId: string): Promise<AccountLink[]>;
  person(personId: string): Promise<PersonRecord | null>;
  /**
   * Writes the account's link (replacing any earlier one) and, when `person` is given and the
   * person has no row yet, creates it — both in one atomic write. Idempotent.
   */
  link(link: AccountLink, person?: Omit<PersonRecord, "personId">): Promise<void>;
  /** Where the account was seen, most recently first, at most `limit` rows. */
  observationsOf(account: AccountKey, limit: number): Promise<AccountObservation[]>;
}
