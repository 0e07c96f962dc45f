/**
 * The session registry and what its operations need, over D1: the vectors and embeddings of
 * forgotten nodes go through the knowledge base's one removal path, for the embedding models
 * the settings of the moment maintain; an export's log is read from the chat's object.
 */
import { D1IdentityDirectory } from "../../adapters/d1/d1-identity-directory";
import { D1SessionRegistry, type SessionRegistryDeps } from "../../adapters/d1/d1-session-registry";
import { openDatabase } from "../../adapters/d1/database";
import { chatKeyOf, parseChatKey } from "../../domain/chat/chat-address";
import type { Settings } from "../../domain/config/settings";
import { accountsOfPerson } from "../../domain/sessions/person-accounts";
import type { ForgetCounts } from "../../domain/sessions/session-registry";
import { objectExportLog } from "./chat-log-browser";
import { chatObject } from "./chat-stub";
import { createKnowledgeServices } from "./knowledge-services";

/**
 * Forget reaches the chat's object first — its recent turns, dream journal, its log and unflushed rows —
 * and only then deletes the D1 rows, so no later flush or dreaming run writes the chat back.
 */
class ChatForgettingRegistry extends D1SessionRegistry {
  readonly #env: Env;
  constructor(env: Env, deps: SessionRegistryDeps) {
    super(env.DB, deps);
    this.#env = env;
  }

  override async forget(chatKey: string): Promise<ForgetCounts> {
    const address = parseChatKey(chatKey);
    const local = address.ok ? await chatObject(this.#env, chatKeyOf(address.value)).forgetLocal() : null;
    const counts = await super.forget(chatKey);
    if (!local) return counts;
    // The chat's log lives in its object: its rows count with D1's (an unmigrated chat has both).
    return {
      ...counts,
      messages: counts.messages + local.log.messages,
      messagesFts: counts.messagesFts + local.log.messages,
      messageWindows: counts.messageWindows + local.log.windows,
      conversationSessions: counts.conversationSessions + local.log.sessions,
    };
  }

  /**
   * Off reaches the chat's object before D1, on after it: a failure between the two leaves the
   * chat logging less, never more, than its owner asked for.
   */
  override async setStoreEnabled(chatKey: string, enabled: boolean, at: number): Promise<void> {
    const address = parseChatKey(chatKey);
    const object = address.ok ? chatObject(this.#env, chatKeyOf(address.value)) : null;
    if (!enabled) await object?.setLogStore(false);
    await super.setStoreEnabled(chatKey, enabled, at);
    if (enabled) await object?.setLogStore(true);
  }
}

export function sessionRegistry(env: Env, settings: () => Promise<Settings>): D1SessionRegistry {
  return new ChatForgettingRegistry(env, {
    afterRemoval: async (removed) => createKnowledgeServices(env, await settings()).afterRemoval(removed),
    // An export's log comes from the chat's own object, which holds it.
    exportLog: objectExportLog(env),
  });
}

/** A person's accounts, declared and linked; null for an unknown person. */
export function personAccounts(env: Env, settings: () => Promise<Settings>) {
  const directory = new D1IdentityDirectory(openDatabase(env.DB));
  return async (personId: string) => accountsOfPerson(personId, (await settings()).identity, directory);
}
