/**
 * Identity as admins see and change it: people (declared in settings and stored), account
 * links, observations, admins, chat domains, and per shared chat who can read what. Linking
 * and unlinking go through the same domain operations as `/identity link|unlink` and are
 * audited with the acting admin.
 */
import { D1AuditLog } from "../../adapters/d1/d1-audit-log";
import { D1IdentityAdminView } from "../../adapters/d1/d1-identity-admin-view";
import { D1IdentityDirectory } from "../../adapters/d1/d1-identity-directory";
import { D1MemoryStore } from "../../adapters/d1/d1-memory-store";
import { D1ProfileStore } from "../../adapters/d1/d1-profile-store";
import { openDatabase } from "../../adapters/d1/database";
import { type ChatReadReport, chatReaders } from "../../domain/agent/chat-readers";
import { isOneToOneKey } from "../../domain/chat/chat-address";
import type { SettingsSource } from "../../domain/config/settings-source";
import {
  type IdentityAdminError,
  type LinkOutcome,
  linkAccount,
  unlinkAccount,
} from "../../domain/identity/identity-admin";
import { type DomainError, err, ok, type Result } from "../../domain/kernel/result";
import { type AccountProfiles, personProfiles } from "../../domain/memory/profile-view";
import { accountsOfPerson } from "../../domain/sessions/person-accounts";
import { chatObjectServices } from "../chat-object/chat-object-services";
import type { AdminRequest } from "./admin-request";
import { chatRegistry } from "./chats-service";

export type { ObservationRow, StoredLink, StoredPerson } from "../../adapters/d1/d1-identity-admin-view";
export type { AccountProfiles, ChatReadReport };

/** A person's profiles as the admin faces show them (docs/memory.md#person-profiles). */
export type PersonProfilesView = {
  readonly person: string;
  /** Only a declared person's profile is read in groups; their own chats read it either way. */
  readonly declared: boolean;
  readonly accounts: readonly AccountProfiles[];
};

const LIST_LIMIT = 500;

/** A domain refusal as the admin faces show it: a conflict with config names the account. */
const asInvalid = (e: IdentityAdminError): DomainError =>
  e.kind === "invalid" ? e : { kind: "invalid", field: "account", reason: e.reason };

export function identityService(env: Env, who: AdminRequest, settings: SettingsSource) {
  const view = new D1IdentityAdminView(env.DB);
  const directory = new D1IdentityDirectory(openDatabase(env.DB));
  const audit = new D1AuditLog(env.DB);
  const deps = async () => ({
    identity: (await settings.current()).identity,
    directory,
    now: Date.now(),
    by: who.actor,
  });
  const audited = async <T extends { account: string }>(
    done: Result<T, IdentityAdminError>,
    action: string,
    at: number,
    detail: (value: T) => Record<string, unknown>,
  ): Promise<Result<T, DomainError>> => {
    if (!done.ok) return err(asInvalid(done.error));
    await audit.record({
      at,
      actor: who.actor,
      action,
      chatKey: null,
      target: done.value.account,
      detail: detail(done.value),
    });
    return done;
  };

  return {
    /** The identity overview the API and the Identity page show. */
    async overview() {
      const [i, people, links, observations] = await Promise.all([
        settings.current().then((s) => s.identity),
        view.people(LIST_LIMIT),
        view.links(LIST_LIMIT),
        view.observations({ limit: 100 }),
      ]);
      return {
        enabled: i.enabled,
        declared: i.people,
        people,
        links,
        observations,
        admins: i.admins,
        chatDomains: i.chatDomains,
      };
    },

    observations: (filter: { account?: string; chat?: string; limit: number }) => view.observations(filter),

    /** Who can read what in each shared chat the registry knows (or in one chat). */
    async readers(chat?: string): Promise<ChatReadReport[]> {
      const identity = (await settings.current()).identity;
      const chats = chat
        ? [chat]
        : (await chatRegistry(env).list(LIST_LIMIT)).map((c) => c.chatKey).filter((k) => !isOneToOneKey(k));
      // The chat links the turn itself reads, so the view follows whatever clusters the turn follows.
      const links = chatObjectServices.create(env).memory.links;
      const reports: ChatReadReport[] = [];
      for (const k of chats) reports.push(await chatReaders(links, identity, k));
      return reports;
    },

    /** Both profiles of each of the person's accounts, as the next turn would read them. */
    async profiles(person: string): Promise<Result<PersonProfilesView, DomainError>> {
      const identity = (await settings.current()).identity;
      const accounts = await accountsOfPerson(person, identity, directory);
      if (accounts === null) return err({ kind: "not-found", what: `person ${person}` });
      const deps = { profiles: new D1ProfileStore(env.DB), store: new D1MemoryStore(env.DB) };
      return ok({
        person,
        declared: identity.people.some((p) => p.id === person),
        accounts: await personProfiles(deps, person, accounts),
      });
    },

    /** Links an account to a person; audited. */
    async link(account: string, person: string): Promise<Result<LinkOutcome, DomainError>> {
      const d = await deps();
      return audited(await linkAccount(d, account, person), "identity.link", d.now, (v) => ({
        person: v.personId,
        created: v.created,
        previous: v.previous,
      }));
    },

    /** Detaches an account from its person; audited. */
    async unlink(account: string) {
      const d = await deps();
      return audited(await unlinkAccount(d, account), "identity.unlink", d.now, (v) => ({
        previous: v.previous,
      }));
    },
  };
}

export type IdentityService = ReturnType<typeof identityService>;
