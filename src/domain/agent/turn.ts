/**
 * One turn: a command, or recall → prompt → model with tools → reply. Pure orchestration over
 * ports; the chat object supplies the services and persists the result.
 */

import type { AuditEntry, AuditEvent } from "../kernel/audit";
import { err, ok, type Result } from "../kernel/result";
import type {
  ChatMessage,
  ModelError,
  ModelRequest,
  ModelResponse,
  RecalledItem,
  UsageRecord,
} from "../model/chat-model";
import type { Command } from "./command";
import type { ContextProvider } from "./context-provider";
import { answerDirectly } from "./direct-answer";
import type { Intent } from "./intent";
import { reinforceUsed } from "./memory-reinforce";
import {
  buildPrompt,
  type ContextSection,
  type MandatoryProvider,
  NO_EXTRAS,
  type PreparedPrompt,
} from "./prompt";
import { spendStop } from "./spend-stop";
import type { Tool } from "./tool";
import { runToolCall, type ToolGuard } from "./tool-call";
import type { TurnContext } from "./turn-context";
import { promptHolds, toolHolds } from "./turn-privacy";
import { TurnReads } from "./turn-reads";
import { finalReplies } from "./turn-reply";
import type { TurnPorts, TurnServices } from "./turn-services";
import { turnUsage } from "./turn-usage";

export type TurnRegistry = {
  readonly commands: readonly Command[];
  /** Plain-language requests handled before the model ("记住…"); checked after commands. */
  readonly intents?: readonly Intent[];
  readonly tools: readonly Tool[];
  /** The stored part of the mandatory block (pinned memory, latest summary). */
  readonly mandatory?: MandatoryProvider;
  readonly context: readonly ContextProvider[];
  readonly guard?: ToolGuard;
  /**
   * Whether the turn's sender is an admin (the authorization gate, wired in by the composition
   * root). The only source of `TurnContext.senderIsAdmin`; absent = nobody is.
   */
  readonly isAdmin?: (ctx: TurnContext) => boolean;
};

/** The context as the turn sees it: admin status from the registry alone, whatever came in. */
export function withAdminStatus(ctx: TurnContext, registry: TurnRegistry): TurnContext {
  return { ...ctx, senderIsAdmin: registry.isAdmin?.(ctx) === true };
}

export type TurnResult = {
  readonly replies: readonly string[];
  readonly usage: readonly UsageRecord[];
  readonly recalled: readonly RecalledItem[];
  /** The command or intent that answered, or null when the model did. */
  readonly command: string | null;
  /** What commands and tools recorded for the audit log; the caller persists it. */
  readonly audit: readonly AuditEvent[];
  /** The turn cleared the chat's short-term context (session reset). */
  readonly contextReset: boolean;
  /**
   * Its message, prompt or tools held words that must stay in this chat (turn-privacy.ts), so
   * its replies may repeat them. A command's or an intent's answer is taken as holding some.
   */
  readonly heldPrivate: boolean;
};

export type TurnFailure = {
  readonly kind: "model";
  readonly error: ModelError;
  readonly usage: readonly UsageRecord[];
  /** Audit records of tools that ran before the failure: the actions happened all the same. */
  readonly audit: readonly AuditEvent[];
};

export async function runTurn(
  start: TurnContext,
  ports: TurnPorts,
  registry: TurnRegistry,
): Promise<Result<TurnResult, TurnFailure>> {
  let ctx = withAdminStatus(start, registry);
  const audit: AuditEvent[] = [];
  // Every model call of the turn, its own rounds and side calls (the follow-up rewrite) alike.
  const usage: UsageRecord[] = [];
  const services: TurnServices = {
    ...ports,
    audit: {
      record: (entry: AuditEntry) => audit.push({ ...entry, chatKey: ctx.chat.key, at: ports.clock.now() }),
    },
    usage: { record: (u) => usage.push(u), spent: () => usage },
  };
  const direct = await answerDirectly(ctx, services, registry);
  if (direct) {
    return ok({
      replies: [direct.text],
      usage,
      recalled: [],
      command: direct.name,
      audit,
      contextReset: direct.contextReset,
      heldPrivate: true,
    });
  }

  const prepared = await prepareTurn(ctx, services, registry);
  const sections = prepared.sections;
  const recalled = sections.flatMap((s) => s.items);
  let messages: ChatMessage[] = prepared.messages;
  let contextReset = false;
  const specs = registry.tools.map((t) => t.spec);
  const shownMemory: string[] = [];
  const reads = new TurnReads();
  let held = ctx.nearRequest === true || promptHolds(ctx.text, prepared);

  for (let round = 0; ; round++) {
    const allowTools = round < ctx.settings.turn.maxToolRounds && specs.length > 0;
    const request: ModelRequest = {
      messages,
      maxTokens: ctx.settings.turn.maxOutputTokens,
      recalled,
      summary: prepared.mandatory.summary,
      ...(allowTools ? { tools: specs } : {}),
    };
    const capped = await spendStop(ctx, services, usage);
    if (capped)
      return ok({
        replies: [capped],
        usage,
        recalled,
        command: null,
        audit,
        contextReset,
        heldPrivate: held,
      });
    const started = services.clock.now();
    const response = await services.model.complete(request);
    usage.push(turnUsage(ctx, services, started, response));
    if (!response.ok) return err({ kind: "model", error: response.error, usage, audit });
    const { toolCalls, text } = response.value;
    if (toolCalls.length === 0 || !allowTools) {
      const replies = finalReplies(text, ctx);
      // The model answered with the recalled and searched items in its context: they were used.
      if (replies.length > 0) await reinforceUsed(ctx, services, recalled, shownMemory);
      return ok({ replies, usage, recalled, command: null, audit, contextReset, heldPrivate: held });
    }
    const exchange: ChatMessage[] = [{ role: "assistant", content: text, toolCalls }];
    let resetNow = false;
    for (const call of toolCalls) {
      const { tool, result } = await runToolCall(call, { ...registry, reads }, ctx, services);
      if (tool && toolHolds(tool, result)) held = true;
      if (result.ok && result.resetContext) resetNow = true;
      if (result.ok && result.shownMemory) shownMemory.push(...result.shownMemory);
      exchange.push({ role: "tool", toolCallId: call.id, name: call.name, content: result.content });
    }
    if (resetNow) {
      // The short-term context is gone: rebuild the mandatory block in this same turn, so the
      // rest of the turn no longer sees the cleared turns.
      contextReset = true;
      ctx = { ...ctx, recent: [] };
      messages = buildPrompt(
        ctx,
        await collectMandatory(ctx, services, registry.mandatory),
        sections,
      ).messages;
    }
    messages.push(...exchange);
  }
}

/**
 * Everything the model would get for this turn before its first call: the mandatory block
 * and the recalled context, budgeted into messages. The context preview shows exactly this.
 */
export async function prepareTurn(
  ctx: TurnContext,
  services: TurnServices,
  registry: TurnRegistry,
): Promise<PreparedPrompt> {
  const [extras, sections] = await Promise.all([
    collectMandatory(ctx, services, registry.mandatory),
    collectContext(ctx, services, registry.context),
  ]);
  return buildPrompt(ctx, extras, sections);
}

async function collectMandatory(
  ctx: TurnContext,
  services: TurnServices,
  provider: MandatoryProvider | undefined,
) {
  if (!provider) return NO_EXTRAS;
  try {
    return await provider.collect(ctx, services);
  } catch (e) {
    services.logger.warn("mandatory block source failed", { provider: provider.name, error: String(e) });
    return NO_EXTRAS;
  }
}

/** Runs the providers concurrently; sections keep the providers' order. */
async function collectContext(
  ctx: TurnContext,
  services: TurnServices,
  providers: readonly ContextProvider[],
): Promise<ContextSection[]> {
  const sections = await Promise.all(
    providers.map(async (provider) => {
      try {
        return await provider.collect(ctx, services);
      } catch (e) {
        // A failing recall source degrades the answer; it must not lose the turn.
        services.logger.warn("context provider failed", { provider: provider.name, error: String(e) });
        return null;
      }
    }),
  );
  return sections.filter((s): s is ContextSection => s !== null && s.items.length > 0);
}
