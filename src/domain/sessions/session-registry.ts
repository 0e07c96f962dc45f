/**
 * The session registry port (docs/sessions.md): every chat's session id, alias, title,
 * cluster, storage switch and retention override, and the data operations an admin runs on a
 * chat. Plain data; the D1 adapter implements it.
 */

export type SessionInfo = {
  readonly sessionId: string;
  readonly chatKey: string;
  readonly targetType: string;
  readonly alias: string | null;
  /** The platform's name for the chat (OneBot group or friend name); QQ official gives none. */
  readonly title: string | null;
  /** Chats with the same cluster read each other's memory; alone = its own session id. */
  readonly clusterId: string;
  readonly storeEnabled: boolean;
  /** Retention override in days; null = the default for the chat's type. */
  readonly keepDays: number | null;
  readonly lastSeen: number | null;
};

/** Rows a chat's forget removed, per table (FTS rows and vectors counted with their sources). */
export type ForgetCounts = {
  readonly messages: number;
  readonly messagesFts: number;
  /** Conversation sessions of the chat's log, and its messages' turn windows (each one FTS row). */
  readonly conversationSessions: number;
  readonly messageWindows: number;
  readonly memory: number;
  readonly summaries: number;
  readonly otherNodes: number;
  readonly nodesFts: number;
  readonly edges: number;
  readonly candidates: number;
  readonly runs: number;
  readonly observations: number;
  readonly embeddings: number;
  readonly vectors: number;
};

/** Rows a person's forget removed. */
export type PersonForgetCounts = {
  readonly accounts: readonly string[];
  readonly memory: number;
  readonly nodesFts: number;
  readonly candidates: number;
  readonly observations: number;
  readonly embeddings: number;
  readonly vectors: number;
};

/** What a person's forget would remove, counted before anything is deleted (the confirm step). */
export type PersonForgetPreview = {
  readonly accounts: readonly string[];
  readonly memory: number;
  readonly candidates: number;
  readonly observations: number;
};

export type ExportItem = {
  readonly nodeId: string;
  readonly kind: string;
  readonly text: string;
  readonly sensitivity: string;
  readonly status: string;
  readonly createdAt: number;
};

export type ExportMessage = {
  readonly ts: number;
  readonly direction: "in" | "out";
  readonly nick: string | null;
  readonly text: string;
};

export type ExportData = {
  readonly memory: readonly ExportItem[];
  readonly summaries: readonly ExportItem[];
  /** Present only when the log was asked for. */
  readonly log?: readonly ExportMessage[];
};

export interface SessionRegistry {
  /** Every chat's session, most recently active first; `since` keeps only chats seen after it. */
  list(q: { readonly since?: number; readonly limit: number }): Promise<SessionInfo[]>;
  /** A session by its id, its alias (case-insensitive) or its chat key; null when unknown. */
  resolve(ref: string): Promise<SessionInfo | null>;
  /** Sessions whose alias or title contains `name` (case-insensitive), most recently active first. */
  findByName(name: string, limit: number): Promise<SessionInfo[]>;
  /** The sessions of one cluster. */
  members(clusterId: string): Promise<SessionInfo[]>;
  /** Moves a chat into a cluster (its own session id = alone again). */
  setCluster(chatKey: string, clusterId: string, at: number): Promise<void>;
  /** Sets the alias; `taken` when another chat already has it. */
  rename(chatKey: string, alias: string, at: number): Promise<"ok" | "taken">;
  setKeepDays(chatKey: string, days: number | null, at: number): Promise<void>;
  setStoreEnabled(chatKey: string, enabled: boolean, at: number): Promise<void>;
  /** Deletes the chat's messages, memory, summaries, FTS rows, embeddings and vectors. */
  forget(chatKey: string): Promise<ForgetCounts>;
  /** Deletes the personal memory and observations of these accounts and this person. */
  forgetPerson(personId: string, accounts: readonly string[]): Promise<PersonForgetCounts>;
  /** Counts what `forgetPerson` would delete, deleting nothing. */
  previewForgetPerson(personId: string, accounts: readonly string[]): Promise<PersonForgetPreview>;
  exportData(chatKey: string, withLog: boolean): Promise<ExportData>;
}
