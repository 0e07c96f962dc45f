/**
 * Builds what a chat object needs from its bindings. Exported as an object so that the one
 * place bindings become domain dependencies can be swapped in integration tests (a slow or
 * failing model, a failing outbound), which run in the same isolate as the object.
 */
import { D1HistorySearch } from "../adapters/d1/d1-history-search";
import { D1MemoryStore } from "../adapters/d1/d1-memory-store";
import { openDatabase } from "../adapters/d1/database";
import { D1MessageLog } from "../adapters/d1/message-log-store";
import { consoleLogger } from "../adapters/log/console-logger";
import type { Outbound } from "../domain/agent/outbound";
import type { TurnRegistry } from "../domain/agent/turn";
import type { TurnServices } from "../domain/agent/turn-services";
import { disabledIdentity } from "../domain/identity/sender-identity";
import type { Transport } from "../domain/inbound/inbound-event";
import { noChatLinks } from "../domain/memory/memory-store";
import { systemClock } from "../domain/shared/clock";
import { readRuntimeConfig } from "../workers/runtime-config";
import { createChatModel, createOutbound } from "../workers/services";
import { defaultTurnRegistry } from "../workers/turn-registry";

/** Everything but the session port, which the chat object supplies over its own storage. */
export type ChatSessionDeps = Omit<TurnServices, "session"> & {
  readonly outbound: (transport: Transport) => Outbound;
  readonly messageLog: D1MessageLog;
  readonly registry: TurnRegistry;
  readonly botName: string;
};

export const chatSessionServices = {
  create(env: Env): ChatSessionDeps {
    const config = readRuntimeConfig(env);
    const db = openDatabase(env.DB);
    const outbounds = new Map<Transport, Outbound>();
    const memory = new D1MemoryStore(env.DB);
    return {
      model: createChatModel(env, config),
      history: new D1HistorySearch(db, env.DB),
      identity: disabledIdentity,
      memory: { store: memory, index: memory, links: noChatLinks },
      clock: systemClock,
      logger: consoleLogger,
      messageLog: new D1MessageLog(db),
      registry: defaultTurnRegistry(),
      botName: "Akasha",
      outbound: (transport) => {
        let outbound = outbounds.get(transport);
        if (!outbound) {
          outbound = createOutbound(config, transport);
          outbounds.set(transport, outbound);
        }
        return outbound;
      },
    };
  },
};
