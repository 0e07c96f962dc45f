/**
 * The knowledge catalogue a turn reads (which collections exist, their counts, their first
 * documents) kept per isolate for `CATALOGUE_TTL_MS`, so that an ordinary turn does not spend
 * three D1 round trips and a count over `nodes` on data that changes only on an import. A
 * removal through the chat's own admin port drops the copy at once; one made elsewhere (the
 * admin API, another isolate) shows within the TTL. Only the catalogue is cached: which of
 * these collections a chat may read is still decided per turn, and search reads D1
 * (docs/decisions/0006-knowledge-catalogue-cached-per-isolate.md).
 */
import type { KnowledgeAdmin } from "../../domain/knowledge/knowledge-admin";
import type { KnowledgeAccess } from "../../domain/knowledge/knowledge-search";

export const CATALOGUE_TTL_MS = 30_000;

type Held<T> = { value: Promise<T>; at: number };
const held = new Map<string, Held<unknown>>();

function remembered<T>(key: string, read: () => Promise<T>, now: number = Date.now()): Promise<T> {
  const found = held.get(key) as Held<T> | undefined;
  if (found && now - found.at < CATALOGUE_TTL_MS) return found.value;
  const value = read();
  held.set(key, { value, at: now });
  // A failed read is not remembered.
  value.catch(() => {
    if (held.get(key)?.value === value) held.delete(key);
  });
  return value;
}

export function invalidateCatalogue(): void {
  held.clear();
}

/** `access` with its catalogue reads answered from the isolate's copy. */
export function cachedCatalogue(access: KnowledgeAccess): KnowledgeAccess {
  return {
    retrieval: (settings) => access.retrieval(settings),
    listCollections: () => remembered("names", () => access.listCollections()),
    admin(settings) {
      const admin = access.admin(settings);
      const changed = async <T>(work: Promise<T>): Promise<T> => {
        try {
          return await work;
        } finally {
          invalidateCatalogue();
        }
      };
      const cached: KnowledgeAdmin = {
        ...admin,
        listCollections: () => remembered("collections", () => admin.listCollections()),
        listDocuments: (collection) =>
          remembered(`documents:${collection}`, () => admin.listDocuments(collection)),
        deleteDocument: (collection, source) => changed(admin.deleteDocument(collection, source)),
        deleteCollection: (name) => changed(admin.deleteCollection(name)),
      };
      return cached;
    },
  };
}
