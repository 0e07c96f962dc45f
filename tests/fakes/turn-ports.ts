/** Turn ports made of fakes, for domain tests of the turn, tools and commands. */
import type { TurnPorts } from "../../src/domain/agent/turn-services";
import { disabledIdentity } from "../../src/domain/identity/sender-identity";
import { ManualClock } from "../../src/domain/kernel/clock";
import { silentLogger } from "../../src/domain/kernel/logger";
import { FakeOtherChatContexts, FakeShortTermContext } from "./fake-short-term-context";
import { InMemoryHistory } from "./in-memory-history";
import { InMemoryIdentityDirectory } from "./in-memory-identity-directory";
import { InMemoryMemory } from "./in-memory-memory";
import { InMemorySettingsAdmin } from "./in-memory-settings-admin";
import { RecordingRelay } from "./recording-relay";
import { ScriptedChatModel } from "./scripted-chat-model";

export const TEST_NOW = 1_700_000_000_000;

export function turnPorts(overrides: Partial<TurnPorts> = {}): TurnPorts {
  return {
    model: new ScriptedChatModel([]),
    history: new InMemoryHistory(),
    identity: disabledIdentity,
    directory: new InMemoryIdentityDirectory(),
    relay: new RecordingRelay(),
    memory: new InMemoryMemory().services(),
    shortTermContext: new FakeShortTermContext(() => TEST_NOW),
    otherContexts: new FakeOtherChatContexts(() => TEST_NOW),
    settingsAdmin: new InMemorySettingsAdmin(),
    clock: new ManualClock(TEST_NOW),
    logger: silentLogger,
    ...overrides,
  };
}
