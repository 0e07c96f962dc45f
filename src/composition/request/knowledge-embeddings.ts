/**
 * The embeddings cache as admins manage it: the status of each maintained model and of every
 * stored version, retiring a version nothing uses any more (audited), and rebuilding.
 */
import { type DomainError, err, ok, type Result } from "../../domain/kernel/result";
import { modelKey } from "../../domain/retrieval/ports";
import type { KnowledgeContext } from "./knowledge-context";

export function knowledgeEmbeddings({ who, log, open }: KnowledgeContext) {
  return {
    async embeddingsStatus() {
      const { settings, kb } = await open();
      const models = [];
      for (const s of kb.maintained()) {
        models.push({
          key: s.key,
          model: s.embedder.model,
          index: s.index.external ? "vectorize" : "brute-force (D1)",
          read: s.key === settings.knowledge.embeddings.read,
          ...(await kb.embeddings.status(s.embedder.model)),
        });
      }
      const inUse = new Set(kb.maintained().map((m) => modelKey(m.embedder.model)));
      /** Every version with stored vectors; one not in use can be retired (`embeddings retire`). */
      const stored = (await kb.embeddings.versions()).map((v) => {
        const model = `${v.id}@${v.version}`;
        return { model, vectors: v.vectors, inUse: inUse.has(model) };
      });
      return {
        read: settings.knowledge.embeddings.read,
        write: settings.knowledge.embeddings.write,
        models,
        stored,
      };
    },

    /** Deletes the stored vectors of a `model@version` nothing reads or writes any more; audited. */
    async retire(model: string): Promise<Result<{ model: string; deleted: number }, DomainError>> {
      const { kb } = await open();
      if (kb.maintained().some((m) => modelKey(m.embedder.model) === model))
        return err({
          kind: "invalid",
          field: "model",
          reason: `${model} is read or written by the current settings; switch away from it first`,
        });
      const at = model.lastIndexOf("@");
      const version = { id: model.slice(0, at), version: model.slice(at + 1) };
      const stored = await kb.embeddings.versions();
      if (!stored.some((v) => v.id === version.id && v.version === version.version))
        return err({ kind: "not-found", what: `stored vectors of ${model}` });
      const deleted = await kb.embeddings.dropVersion(version);
      await log.record({
        at: Date.now(),
        actor: who.actor,
        action: "embeddings.retire",
        chatKey: null,
        target: `embeddings:${model}`,
        detail: { deleted },
      });
      return ok({ model, deleted });
    },

    /** Embeds what is missing, up to `limit`; `resync` first forgets what the external index holds. */
    async rebuild(limit: number, resync: boolean) {
      const { kb } = await open();
      if (resync) {
        for (const s of kb.maintained())
          if (s.index.external) await kb.embeddings.forgetAll(s.embedder.model);
      }
      const reports = await kb.refresh(limit);
      return { reports, done: reports.every((r) => "done" in r && r.done) };
    },
  };
}
