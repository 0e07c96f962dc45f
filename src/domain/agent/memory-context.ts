/**
 * Memory in the prompt (docs/memory.md#memory-in-a-turn): the mandatory part (chat rules, high-importance items
 * of global and the turn's scopes, the chat's latest summary — no search) and the small
 * automatic recall of items matching the message.
 */

import { profileAudience, readProfile } from "../memory/person-profile";
import { standingScore } from "../memory/ranking";
import { describeRecalled, recallMemory } from "../memory/recall";
import { levelsOf } from "../retrieval/read-gate";
import { estimateTokens } from "../text/token-estimate";
import type { ContextProvider } from "./context-provider";
import { recalledItem } from "./memory-recalled-item";
import { recallDepsOf, scopesOf } from "./memory-scopes";
import type { MandatoryExtras, MandatoryProvider } from "./prompt";

/** Rules of the chat, then the most important items of the readable scopes. */
export const memoryMandatory: MandatoryProvider = {
  name: "memory",
  async collect(ctx, services): Promise<MandatoryExtras> {
    const cfg = ctx.settings.memory;
    const { scopes } = await scopesOf(ctx, services);
    const [rules, important, summary, profile] = await Promise.all([
      services.memory.store.listActive({
        scopes: [scopes.session],
        limit: cfg.mandatory.maxItems,
        kinds: ["rule"],
      }),
      services.memory.store.listActive({
        scopes: scopes.readable,
        limit: cfg.mandatory.maxItems,
        minImportance: cfg.mandatory.minImportance,
      }),
      scopes.session.type === "chat"
        ? services.memory.store.latestSummary(scopes.session, levelsOf(scopes.readable, scopes.session))
        : Promise.resolve(null),
      readProfile(
        {
          profiles: services.memory.profiles,
          store: services.memory.store,
          ...(services.memory.rewrites && cfg.profiles.rewriteWithModel
            ? { rewrites: services.memory.rewrites }
            : {}),
        },
        scopes.readable,
        ctx.now,
      ),
    ]);
    const unique = new Map([...rules, ...important].map((m) => [m.nodeId, m] as const));
    const pinned = [...unique.values()]
      .slice(0, cfg.mandatory.maxItems)
      .map((item) =>
        recalledItem(
          describeRecalled(
            { item, score: standingScore(item, ctx.now, cfg.retrieval.recencyHalfLifeDays) },
            scopes.session,
            ctx.settings.calendar.timeZone,
          ),
        ),
      );
    return {
      pinned,
      summary: summary?.text ?? null,
      profile,
      summaryPrivate: summary !== null && summary.sensitivity !== "public",
      // A profile the audience "own" reads mixes in the person's private items (person-profile.ts).
      profilePrivate: profile !== null && profileAudience(scopes.readable) !== "public",
    };
  },
};

/** Items matching the message, cascade order (hard scope) or visible pool (soft scope). */
export const memoryRecall: ContextProvider = {
  name: "memory",
  async collect(ctx, services) {
    const cfg = ctx.settings.memory.retrieval;
    if (cfg.recallLimit === 0) return null;
    const { scopes } = await scopesOf(ctx, services);
    const recalled = await recallMemory(recallDepsOf(ctx, services), {
      text: ctx.text,
      scopes,
      soft: cfg.softScope,
      limit: cfg.recallLimit,
      now: ctx.now,
      halfLifeDays: cfg.recencyHalfLifeDays,
      decay: ctx.settings.memory.decay,
      timeZone: ctx.settings.calendar.timeZone,
    });
    const items = [];
    let used = 0;
    for (const r of recalled) {
      const item = recalledItem(r);
      const cost = estimateTokens(`- ${item.text}（${item.citation}）`);
      if (used + cost > cfg.recallTokenBudget) break;
      used += cost;
      items.push(item);
    }
    return items.length === 0 ? null : { title: "相关的记忆", items };
  },
};
