/**
 * The session registry and what its operations need, over D1: the vectors and embeddings of
 * forgotten nodes go through the knowledge base's one removal path, for the embedding models
 * the settings of the moment maintain.
 */
import { D1IdentityDirectory } from "../adapters/d1/d1-identity-directory";
import { D1SessionRegistry } from "../adapters/d1/d1-session-registry";
import { openDatabase } from "../adapters/d1/database";
import type { Settings } from "../domain/config/settings";
import { accountsOfPerson } from "../domain/sessions/person-accounts";
import { createKnowledgeServices } from "./knowledge-services";

export function sessionRegistry(env: Env, settings: () => Promise<Settings>): D1SessionRegistry {
  return new D1SessionRegistry(env.DB, {
    afterRemoval: async (removed) => createKnowledgeServices(env, await settings()).afterRemoval(removed),
  });
}

/** A person's accounts, declared and linked; null for an unknown person. */
export function personAccounts(env: Env, settings: () => Promise<Settings>) {
  const directory = new D1IdentityDirectory(openDatabase(env.DB));
  return async (personId: string) => accountsOfPerson(personId, (await settings()).identity, directory);
}
