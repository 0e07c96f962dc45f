/**
 * The `memory.decay` section of the behaviour settings (docs/memory.md#decay-and-reinforcement):
 * per kind, the days after which an item's ranking weight halves since it was last reinforced
 * (0 = that kind never decays), and the lifetime of a task nobody reinforced.
 */
import { z } from "zod";

const halfLife = z.number().min(0).max(3650);

export const MemoryDecaySettingsSchema = z
  .object({
    /** Days until an item's ranking weight halves, counted from its last reinforcement; 0 = none. */
    halfLifeDays: z
      .object({
        fact: halfLife,
        preference: halfLife,
        task: halfLife,
        decision: halfLife,
        procedure: halfLife,
        warning: halfLife,
        rule: halfLife,
        summary: halfLife,
      })
      .strict(),
    /** Days after which a task without a due time that nobody reinforced expires; 0 = never. */
    taskLifetimeDays: z.number().int().min(0).max(3650),
  })
  .strict();

export type MemoryDecaySettings = z.infer<typeof MemoryDecaySettingsSchema>;

/**
 * Defaults (docs/decisions/0420-memory-decay-half-lives.md): what people say about themselves
 * and shared decisions stay relevant for about a year; preferences and warnings change sooner;
 * a task is about the near future. A chat's rules and its procedures do not fade with time —
 * they are ended by being changed. Summaries are about their day.
 */
export const DEFAULT_MEMORY_DECAY_SETTINGS: MemoryDecaySettings = {
  halfLifeDays: {
    fact: 365,
    preference: 180,
    task: 30,
    decision: 365,
    procedure: 0,
    warning: 180,
    rule: 0,
    summary: 90,
  },
  taskLifetimeDays: 90,
};
