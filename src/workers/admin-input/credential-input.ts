/**
 * What the admin faces accept for the credential sweeps, one schema each for the API and the
 * Credentials page: a page of memory read again, the ids to erase, and one step of the log
 * sweep (docs/decisions/0980-memory-kept-before-a-detector-read-it.md,
 * docs/decisions/0990-logs-kept-before-a-detector-read-them.md).
 */
import { z } from "zod";
import { page } from "./memory-input";

/** An id the memory sweep lists: a memory item's, a summary's, or `candidate:<row id>`. */
export const heldId = z.string().regex(/^[A-Za-z0-9_.:-]{1,128}$/, "must be a memory item id");

/** A page of memory items read for credentials (GET /api/memory/credentials). */
export const HeldQuery = z.object({ ...page }).strict();

/** The most ids one erasure takes. */
export const MAX_ERASE = 100;

/** Items to erase because they hold a credential: each must (POST /api/memory/credentials/erase). */
export const EraseBody = z.object({ ids: z.array(heldId).min(1).max(MAX_ERASE) }).strict();

/** One bounded step of the log sweep (POST /api/log-credentials/step). */
export const StepBody = z
  .object({
    mask: z.boolean().optional(),
    cursor: z.string().min(1).max(400).optional(),
    maxMs: z.number().int().min(100).max(25_000).optional(),
  })
  .strict();

/** Where the Credentials page starts reading memory (`?from=`). */
export const FromQuery = z.object({ from: page.offset, notice: z.string().max(500).optional() }).strict();

const count = z.coerce.number().int().min(0).max(1e12).default(0);

/**
 * The Credentials page's log form: check or mask, confirmed for a mask; a 继续 carries the
 * cursor and the counts so far.
 */
export const LogForm = z
  .object({
    mode: z.enum(["check", "mask"]),
    sure: z.literal("yes").optional(),
    cursor: z.string().min(1).max(400).optional(),
    logRead: count,
    logHolding: count,
    other: count,
    d1Read: count,
    d1Holding: count,
  })
  .strict();
