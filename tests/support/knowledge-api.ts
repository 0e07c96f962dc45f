/** Helpers for the knowledge-base admin API in integration tests. */
import { env, exports } from "cloudflare:workers";
import { knowledgeAccess } from "@src/composition/common/knowledge-services";
import { OfflineChatModel } from "@src/domain/agent/offline-chat-model";
import type { TurnServices } from "@src/domain/agent/turn-services";
import { discardAudit } from "@src/domain/kernel/audit";
import { systemClock } from "@src/domain/kernel/clock";
import type { NodeType } from "@src/domain/retrieval/context-node";
import { collectionScope } from "@src/domain/retrieval/scope-key";
import { turnPorts } from "../fakes/turn-ports";

export const ADMIN = { authorization: "Bearer test-admin-token" };

export function uniqueName(prefix = "kb"): string {
  return `${prefix}-${crypto.randomUUID().slice(0, 8)}`;
}

export async function api(path: string, init: RequestInit = {}): Promise<Response> {
  return exports.default.fetch(
    new Request(`https://bot.test${path}`, { ...init, headers: { ...ADMIN, ...(init.headers ?? {}) } }),
  );
}

export async function json<T = Record<string, unknown>>(path: string, init: RequestInit = {}): Promise<T> {
  const res = await api(path, init);
  return (await res.json()) as T;
}

export async function createCollection(name: string, extra: Record<string, unknown> = {}) {
  const res = await api("/api/kb/collections", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name, ...extra }),
  });
  if (res.status !== 201) throw new Error(`create ${name}: ${res.status} ${await res.text()}`);
}

export type UploadFile = { name: string; content: string | Uint8Array; type?: string };

export async function upload(collection: string, files: UploadFile[]) {
  const form = new FormData();
  for (const f of files) form.append("files", new File([f.content], f.name, { type: f.type ?? "" }));
  const res = await api(`/api/kb/collections/${encodeURIComponent(collection)}/documents`, {
    method: "POST",
    body: form,
  });
  return { status: res.status, body: (await res.json()) as { results: ImportResult[]; failed: number } };
}

/** Two new, empty collections, created through the API. */
export async function twoCollections(): Promise<[string, string]> {
  const a = uniqueName();
  const b = uniqueName();
  await createCollection(a);
  await createCollection(b);
  return [a, b];
}

/** A new collection (`prefix-…`, made with `extra`) holding these files, imported through the API. */
export async function collectionWith(
  prefix: string,
  files: UploadFile[],
  extra: Record<string, unknown> = {},
): Promise<string> {
  const name = uniqueName(prefix);
  await createCollection(name, extra);
  const r = await upload(name, files);
  if (r.status !== 200) throw new Error(`upload: ${r.status}`);
  return name;
}

/** A new collection (`prefix-…`) cut in `chunkSize` pieces holding these files. */
export const seededCollection = (prefix: string, chunkSize: number, files: UploadFile[]): Promise<string> =>
  collectionWith(prefix, files, { chunkSize, chunkOverlap: 0 });

/** The index filter of one collection's passages. */
export const passagesOf = (name: string) => ({
  scopes: [collectionScope(name)],
  nodeTypes: ["passage"] as NodeType[],
  collections: [name],
});

export type ImportResult = {
  file: string;
  status: "imported" | "replaced" | "unchanged" | "failed";
  documentId?: string;
  passages?: number;
  sections?: number;
  error?: { kind: string; message: string };
};

export type SearchItem = {
  citation: { collection: string; source: string; path: string[]; node_id: string };
  text: string;
  via: string;
};

export async function search(query: string, collections: string[], limit?: number) {
  return json<{ items: SearchItem[]; strategy: string }>("/api/kb/search", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query, collections, ...(limit ? { limit } : {}) }),
  });
}

/** A turn's services for the knowledge tools: the real knowledge base over D1, the offline model, no audit. */
export const knowledgeTurnServices = (): TurnServices => ({
  ...turnPorts({ model: new OfflineChatModel(), clock: systemClock }),
  audit: discardAudit,
  knowledge: knowledgeAccess(env),
});
