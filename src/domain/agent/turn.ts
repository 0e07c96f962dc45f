/**
 * One turn: a command, or recall → prompt → model with tools → reply. Pure orchestration over
 * ports; the chat object supplies the services and persists the result.
 */
import type { AuditEntry, AuditEvent } from "../shared/audit";
import { err, ok, type Result } from "../shared/result";
import type {
  ChatMessage,
  ModelError,
  ModelRequest,
  ModelResponse,
  RecalledItem,
  ToolCall,
  UsageRecord,
} from "./chat-model";
import { type Command, parseCommand } from "./command";
import type { ContextProvider } from "./context-provider";
import { buildPrompt, type ContextSection } from "./prompt";
import type { Tool, ToolResult } from "./tool";
import type { TurnContext } from "./turn-context";
import type { TurnPorts, TurnServices } from "./turn-services";

/** Decides whether a tool call may run and with which arguments (privilege, chat domain). */
export type ToolGuard = (
  tool: Tool,
  args: unknown,
  ctx: TurnContext,
) => Promise<{ allowed: true; args: unknown } | { allowed: false; reason: string }>;

export type TurnRegistry = {
  readonly commands: readonly Command[];
  readonly tools: readonly Tool[];
  readonly context: readonly ContextProvider[];
  readonly guard?: ToolGuard;
};

export type TurnResult = {
  readonly replies: readonly string[];
  readonly usage: readonly UsageRecord[];
  readonly recalled: readonly RecalledItem[];
  readonly command: string | null;
  /** What commands and tools recorded for the audit log; the caller persists it. */
  readonly audit: readonly AuditEvent[];
};

export type TurnFailure = {
  readonly kind: "model";
  readonly error: ModelError;
  readonly usage: readonly UsageRecord[];
  /** Audit records of tools that ran before the failure: the actions happened all the same. */
  readonly audit: readonly AuditEvent[];
};

export async function runTurn(
  ctx: TurnContext,
  ports: TurnPorts,
  registry: TurnRegistry,
): Promise<Result<TurnResult, TurnFailure>> {
  const audit: AuditEvent[] = [];
  const services: TurnServices = {
    ...ports,
    audit: {
      record: (entry: AuditEntry) => audit.push({ ...entry, chatKey: ctx.chat.key, at: ports.clock.now() }),
    },
  };
  const command = parseCommand(ctx.text);
  if (command) {
    const handler = registry.commands.find((c) => c.name === command.name);
    const reply = handler
      ? await handler.run(command.args, ctx, services)
      : `未知命令 /${command.name}，发送 /help 查看可用命令。`;
    return ok({ replies: [reply], usage: [], recalled: [], command: command.name, audit });
  }

  const sections = await collectContext(ctx, services, registry.context);
  const recalled = sections.flatMap((s) => s.items);
  const messages: ChatMessage[] = buildPrompt(ctx, sections);
  const usage: UsageRecord[] = [];
  const specs = registry.tools.map((t) => t.spec);

  for (let round = 0; ; round++) {
    const allowTools = round < ctx.settings.turn.maxToolRounds && specs.length > 0;
    const request: ModelRequest = {
      messages,
      maxTokens: ctx.settings.turn.maxOutputTokens,
      recalled,
      ...(allowTools ? { tools: specs } : {}),
    };
    const started = services.clock.now();
    const response = await services.model.complete(request);
    usage.push(usageRecord(ctx, services, started, response));
    if (!response.ok) return err({ kind: "model", error: response.error, usage, audit });
    const { toolCalls, text } = response.value;
    if (toolCalls.length === 0 || !allowTools) {
      return ok({ replies: finalReplies(text, ctx), usage, recalled, command: null, audit });
    }
    messages.push({ role: "assistant", content: text, toolCalls });
    for (const call of toolCalls) {
      const result = await runTool(call, ctx, services, registry);
      messages.push({ role: "tool", toolCallId: call.id, name: call.name, content: result.content });
    }
  }
}

async function collectContext(
  ctx: TurnContext,
  services: TurnServices,
  providers: readonly ContextProvider[],
): Promise<ContextSection[]> {
  const sections: ContextSection[] = [];
  for (const provider of providers) {
    try {
      const section = await provider.collect(ctx, services);
      if (section && section.items.length > 0) sections.push(section);
    } catch (e) {
      // A failing recall source degrades the answer; it must not lose the turn.
      services.logger.warn("context provider failed", { provider: provider.name, error: String(e) });
    }
  }
  return sections;
}

async function runTool(
  call: ToolCall,
  ctx: TurnContext,
  services: TurnServices,
  registry: TurnRegistry,
): Promise<ToolResult> {
  const tool = registry.tools.find((t) => t.spec.name === call.name);
  if (!tool) return { ok: false, content: `unknown tool ${call.name}` };
  let args: unknown;
  try {
    args = call.arguments.trim() === "" ? {} : JSON.parse(call.arguments);
  } catch {
    return { ok: false, content: "arguments are not valid JSON" };
  }
  if (registry.guard) {
    const decision = await registry.guard(tool, args, ctx);
    if (!decision.allowed) return { ok: false, content: decision.reason };
    args = decision.args;
  }
  try {
    return await tool.run(args, ctx, services);
  } catch (e) {
    services.logger.error("tool failed", { tool: call.name, error: String(e) });
    return { ok: false, content: "tool failed" };
  }
}

function finalReplies(text: string, ctx: TurnContext): string[] {
  const trimmed = text.trim();
  if (trimmed === "") return [];
  const max = ctx.settings.turn.maxReplyChars;
  const chars = [...trimmed];
  return [chars.length > max ? `${chars.slice(0, max - 1).join("")}…` : trimmed];
}

function usageRecord(
  ctx: TurnContext,
  services: TurnServices,
  started: number,
  response: Result<ModelResponse, ModelError>,
): UsageRecord {
  return {
    chatKey: ctx.chat.key,
    provider: services.model.provider,
    model: response.ok ? response.value.model : services.model.model,
    purpose: "turn",
    promptTokens: response.ok ? response.value.usage.promptTokens : null,
    completionTokens: response.ok ? response.value.usage.completionTokens : null,
    latencyMs: Math.max(0, services.clock.now() - started),
    ok: response.ok,
    errorKind: response.ok ? null : response.error.kind,
    at: services.clock.now(),
  };
}
