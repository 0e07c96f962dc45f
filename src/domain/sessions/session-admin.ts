/** What the session operations need from outside a turn: the registry and a person's accounts. */
import type { SessionRegistry } from "./session-registry";

export type SessionAdmin = {
  readonly registry: SessionRegistry;
  /** A person's accounts (declared and linked); null when no such person is known. */
  readonly personAccounts: (personId: string) => Promise<readonly string[] | null>;
};
