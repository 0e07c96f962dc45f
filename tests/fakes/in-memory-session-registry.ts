/** A session registry in memory, for domain tests of the session operations and the command. */
import { sessionIdOf } from "../../src/domain/sessions/session-id";
import type {
  ExportData,
  ForgetCounts,
  PersonForgetCounts,
  PersonForgetPreview,
  SessionInfo,
  SessionRegistry,
} from "../../src/domain/sessions/session-registry";

const NONE: ForgetCounts = {
  messages: 0,
  messagesFts: 0,
  conversationSessions: 0,
  messageWindows: 0,
  memory: 0,
  summaries: 0,
  otherNodes: 0,
  nodesFts: 0,
  edges: 0,
  candidates: 0,
  runs: 0,
  observations: 0,
  embeddings: 0,
  vectors: 0,
};

export class InMemorySessionRegistry implements SessionRegistry {
  readonly sessions = new Map<string, SessionInfo>();
  readonly forgotten: string[] = [];

  add(chatKey: string, over: Partial<SessionInfo> = {}): SessionInfo {
    const id = sessionIdOf(chatKey);
    const s: SessionInfo = {
      sessionId: id,
      chatKey,
      targetType: chatKey.split(":")[1] ?? "unknown",
      alias: null,
      title: null,
      clusterId: id,
      storeEnabled: true,
      keepDays: null,
      lastSeen: 0,
      ...over,
    };
    this.sessions.set(chatKey, s);
    return s;
  }

  #set(chatKey: string, change: Partial<SessionInfo>) {
    const s = this.sessions.get(chatKey);
    if (s) this.sessions.set(chatKey, { ...s, ...change });
  }

  async list(q: { since?: number; limit: number }) {
    return [...this.sessions.values()].filter((s) => q.since === undefined || (s.lastSeen ?? 0) >= q.since);
  }
  async resolve(ref: string) {
    return (
      [...this.sessions.values()].find(
        (s) => s.sessionId === ref || s.chatKey === ref || s.alias?.toLowerCase() === ref.toLowerCase(),
      ) ?? null
    );
  }
  async findByName(name: string, limit: number) {
    const n = name.toLowerCase();
    return [...this.sessions.values()]
      .filter((s) => s.alias?.toLowerCase().includes(n) || s.title?.toLowerCase().includes(n))
      .slice(0, limit);
  }
  async members(clusterId: string) {
    return [...this.sessions.values()].filter((s) => s.clusterId === clusterId);
  }
  async setCluster(chatKey: string, clusterId: string) {
    this.#set(chatKey, { clusterId });
  }
  async rename(chatKey: string, alias: string): Promise<"ok" | "taken"> {
    const other = [...this.sessions.values()].find(
      (s) => s.chatKey !== chatKey && s.alias?.toLowerCase() === alias.toLowerCase(),
    );
    if (other) return "taken";
    this.#set(chatKey, { alias });
    return "ok";
  }
  async setKeepDays(chatKey: string, keepDays: number | null) {
    this.#set(chatKey, { keepDays });
  }
  async setStoreEnabled(chatKey: string, storeEnabled: boolean) {
    this.#set(chatKey, { storeEnabled });
  }
  async forget(chatKey: string): Promise<ForgetCounts> {
    this.forgotten.push(chatKey);
    return { ...NONE, messages: 2 };
  }
  async forgetPerson(_personId: string, accounts: readonly string[]): Promise<PersonForgetCounts> {
    return { accounts, memory: 1, nodesFts: 1, candidates: 0, observations: 0, embeddings: 0, vectors: 0 };
  }
  async previewForgetPerson(_personId: string, accounts: readonly string[]): Promise<PersonForgetPreview> {
    return { accounts, memory: 1, candidates: 0, observations: 0 };
  }
  async exportData(): Promise<ExportData> {
    return { memory: [], summaries: [] };
  }
}
