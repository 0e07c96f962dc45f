/**
 * Builds what a chat object needs from its bindings. Exported as an object so that the one
 * place bindings become domain dependencies can be swapped in integration tests (a slow or
 * failing model, a failing outbound), which run in the same isolate as the object.
 */
import { D1HistorySearch } from "../adapters/d1/d1-history-search";
import { openDatabase } from "../adapters/d1/database";
import { D1MessageLog } from "../adapters/d1/message-log-store";
import { consoleLogger } from "../adapters/log/console-logger";
import type { Outbound } from "../domain/agent/outbound";
import type { TurnRegistry } from "../domain/agent/turn";
import type { TurnServices } from "../domain/agent/turn-services";
import { disabledIdentity } from "../domain/identity/sender-identity";
import type { Transport } from "../domain/inbound/inbound-event";
import { systemClock } from "../domain/shared/clock";
import { knowledgeAccess } from "../workers/knowledge-services";
import { readRuntimeConfig } from "../workers/runtime-config";
import { createChatModel, createOutbound } from "../workers/services";
import { defaultTurnRegistry } from "../workers/turn-registry";

export type ChatSessionDeps = TurnServices & {
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
    return {
      model: createChatModel(env, config),
      history: new D1HistorySearch(db, env.DB),
      identity: disabledIdentity,
      clock: systemClock,
      logger: consoleLogger,
      knowledge: knowledgeAccess(env),
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
