/** What the admin faces accept for the knowledge base: a new collection and a search. */
import { z } from "zod";
import { CHUNK_SIZE_RANGE } from "../../domain/knowledge/collection";

export const CreateCollectionBody = z
  .object({
    name: z.string(),
    title: z.string().max(200).optional(),
    description: z.string().max(2000).optional(),
    chunkSize: z.number().int().min(CHUNK_SIZE_RANGE.min).max(CHUNK_SIZE_RANGE.max).optional(),
    chunkOverlap: z.number().int().min(0).max(2000).optional(),
  })
  .strict();

export const KnowledgeSearchBody = z
  .object({
    query: z.string().min(1).max(4000),
    collections: z.array(z.string()).min(1).max(100).optional(),
    limit: z.number().int().min(1).max(50).optional(),
    /** Earlier user turns of the conversation, oldest first: a follow-up query is searched after them. */
    turns: z.array(z.string().max(4000)).max(20).optional(),
  })
  .strict();
