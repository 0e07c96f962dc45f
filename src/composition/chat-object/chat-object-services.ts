/**
 * What a chat object needs from its bindings, built once per object and wake. Exported as an
 * object so that it can be swapped in integration tests (a slow or failing model, a failing
 * outbound), which run in the same isolate as the object.
 */

import { coalescingD1 } from "../../adapters/d1/coalescing-d1";
import { D1AdminClaims } from "../../adapters/d1/d1-admin-claims";
import { D1IdentityDirectory } from "../../adapters/d1/d1-identity-directory";
import { D1MemoryStore } from "../../adapters/d1/d1-memory-store";
import { D1ProfileStore } from "../../adapters/d1/d1-profile-store";
import { openDatabase } from "../../adapters/d1/database";
import { retentionOverrideOf } from "../../adapters/d1/retention";
import { consoleLogger } from "../../adapters/log/console-logger";
import { type ChatRelay, OutboundChatRelay } from "../../domain/agent/chat-relay";
import { defaultTurnRegistry } from "../../domain/agent/default-turn-registry";
import type { Outbound } from "../../domain/agent/outbound";
import type { TurnRegistry } from "../../domain/agent/turn";
import type { TurnPorts } from "../../domain/agent/turn-services";
import { parseChatKey } from "../../domain/chat/chat-address";
import { isStored } from "../../domain/config/settings";
import type { SettingsSource } from "../../domain/config/settings-source";
import type { MessageLog } from "../../domain/history/message-log";
import type { MessageRecord } from "../../domain/history/message-record";
import { DirectoryIdentityResolver } from "../../domain/identity/identity-resolver";
import type { Transport } from "../../domain/inbound/inbound-event";
import { systemClock } from "../../domain/kernel/clock";
import { fusionWeights } from "../../domain/knowledge/fusion-weights";
import { ProfileRewriteQueue } from "../../domain/memory/profile-rewrite";
import type { OwnerNotices } from "../../domain/notices/notice-book";
import type { SpendLedger } from "../../domain/spend/spend-ledger";
import { cachedCatalogue } from "../common/catalogue-cache";
import { appendToChatObjects } from "../common/chat-log-writer";
import { chatObjectHistory } from "../common/chat-object-logs";
import { chatObject } from "../common/chat-stub";
import { personAccounts, sessionRegistry } from "../common/forgetting-session-registry";
import { knowledgeAccess } from "../common/knowledge-services";
import { d1MessageLog } from "../common/message-log-writer";
import { createChatModel, createOutbound } from "../common/model-and-outbound";
import { ownerNotices } from "../common/owner-notices";
import { restatementVectors } from "../common/read-model-restatements";
import { readRuntimeConfig } from "../common/runtime-config";
import { spendLedger } from "../common/spend-reader";
import { d1SettingsAdmin } from "../settings/d1-settings-admin";
import { cachedSettingsSource } from "../settings/settings-loader";

/** Everything but the session port, which the chat object supplies over its own storage. */
export type ChatObjectServices = Omit<TurnPorts, "shortTermContext" | "relay"> & {
  readonly outbound: (transport: Transport) => Outbound;
  /** Where the outbox's rows are written (the only writer of the message log). */
  readonly messageLog: MessageLog;
  /**
   * `send_message`'s relay: a sent message of a stored chat goes into that chat's own log (its
   * object), and to `outbox`, this object's outbox, for D1's copy while that chat is not migrated.
   */
  readonly relayLoggingTo: (outbox: (record: MessageRecord) => void) => ChatRelay;
  readonly registry: TurnRegistry;
  readonly botName: string;
  /**
   * The chat object's settings, through the isolate's cache: D1 is read at most once per
   * TTL whatever the message rate; a save through the settings admin (or any settings write
   * in this isolate) invalidates the copy.
   */
  readonly settings: SettingsSource;
  /** The day's recorded model spend, for the daily token caps. */
  readonly spendLedger: SpendLedger;
  /** Spend caps reached and model errors become notices to the owner (notices/notice-book.ts). */
  readonly notices: OwnerNotices;
  /** The chat's retention override in days (D1 `chats.retention_days`), null when unset. */
  readonly retentionOverride: (chatKey: string) => Promise<number | null>;
};

/**
 * The one bag a turn of the chat object runs with: these services plus what the object supplies
 * over its own storage (its short-term context control and `send_message`'s relay).
 */
export type ChatTurnServices = TurnPorts & ChatObjectServices;

export const chatObjectServices = {
  create(bindings: Env): ChatObjectServices {
    // Reads the turn starts side by side share a D1 round trip (see coalescing-d1.ts).
    const env: Env = { ...bindings, DB: coalescingD1(bindings.DB) };
    const config = readRuntimeConfig(env);
    const db = openDatabase(env.DB);
    const outbounds = new Map<Transport, Outbound>();
    const outbound = (transport: Transport): Outbound => {
      let found = outbounds.get(transport);
      if (!found) {
        found = createOutbound(config, transport);
        outbounds.set(transport, found);
      }
      return found;
    };
    const messageLog = d1MessageLog(env);
    const directory = new D1IdentityDirectory(db);
    const botName = "Akasha";
    const memory = new D1MemoryStore(env.DB);
    const model = createChatModel(env, config);
    // The catalogue (collections, counts, first titles) from the isolate's copy: see catalogue-cache.ts.
    const knowledge = cachedCatalogue(knowledgeAccess(env));
    const settings = cachedSettingsSource(env);
    const sessions = sessionRegistry(env, () => settings.current());
    return {
      model,
      // Other chats' logs live in their objects: one bounded, timed call each.
      history: chatObjectHistory(env, consoleLogger),
      // With identity.enabled off (the default) this answers exactly like `disabledIdentity`.
      identity: new DirectoryIdentityResolver({
        settings: async () => (await settings.current()).identity,
        directory,
        clock: systemClock,
        logger: consoleLogger,
      }),
      directory,
      settingsAdmin: d1SettingsAdmin(env, settings),
      claims: new D1AdminClaims(bindings.DB),
      otherContexts: { reset: (chat, req) => chatObject(env, chat).resetSession(chat, req) },
      relayLoggingTo: (outbox) =>
        new OutboundChatRelay({
          outbound,
          clock: systemClock,
          botName,
          logger: consoleLogger,
          log: async (record) => {
            const target = parseChatKey(record.chatKey);
            if (!target.ok || !isStored(await settings.current(), record.chatKey, target.value.targetType))
              return;
            // Into the target chat's own log, its object; D1's copy, while that chat's log is
            // still read there, rides this object's outbox.
            const stillInD1 = await appendToChatObjects(bindings, [record]);
            if (stillInD1.length > 0) outbox(record);
          },
        }),
      memory: {
        store: memory,
        index: memory,
        links: sessions,
        profiles: new D1ProfileStore(env.DB),
        // With a chat model, the profiles turns read in the items' own words wait here for its
        // rewrite, which the alarm runs after the turns (durable-objects/profile-rewriter.ts).
        ...(model.provider === "offline" ? {} : { rewrites: new ProfileRewriteQueue() }),
        // Memory recall reads the same embedding model and vector index as the knowledge base,
        // fused at the model's memory weight (fusion-weights.ts).
        vectors: (settings) => ({
          ...knowledge.retrieval(settings),
          vectorWeight: fusionWeights(settings).memory,
        }),
        // Restatements in other words merge only with a model whose threshold was measured.
        restatements: (settings) =>
          restatementVectors(env.DB, knowledge.retrieval(settings).embedder, settings),
      },
      clock: systemClock,
      after: (ms) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
      logger: consoleLogger,
      knowledge,
      messageLog,
      registry: defaultTurnRegistry(consoleLogger),
      botName,
      outbound,
      settings,
      spendLedger: spendLedger(env),
      notices: ownerNotices(env, () => settings.current(), consoleLogger),
      sessionAdmin: { registry: sessions, personAccounts: personAccounts(env, () => settings.current()) },
      retentionOverride: (chatKey) => retentionOverrideOf(bindings.DB, chatKey),
    };
  },
};
