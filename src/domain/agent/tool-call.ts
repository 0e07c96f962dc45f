/**
 * One tool call of a turn: the tool the model named, its arguments parsed, the guard's decision
 * (privilege, chat domain), the refusal after another chat was read (turn-reads.ts), then the
 * run. Every refusal is an answer the model reads, never an exception; an admin tool refused is
 * audited as a use of it.
 */
import type { ToolCall } from "../model/chat-model";
import type { Tool, ToolResult } from "./tool";
import type { TurnContext } from "./turn-context";
import { POST_AFTER_READING, type TurnReads } from "./turn-reads";
import type { TurnServices } from "./turn-services";

/** Decides whether a tool call may run and with which arguments (privilege, chat domain). */
export type ToolGuard = (
  tool: Tool,
  args: unknown,
  ctx: TurnContext,
) => Promise<{ allowed: true; args: unknown } | { allowed: false; reason: string }>;

/** The tool the call named (null when none is registered by that name) and what it answered. */
export async function runToolCall(
  call: ToolCall,
  turn: { tools: readonly Tool[]; guard?: ToolGuard; reads: TurnReads },
  ctx: TurnContext,
  services: TurnServices,
): Promise<{ tool: Tool | null; result: ToolResult }> {
  const tool = turn.tools.find((t) => t.spec.name === call.name) ?? null;
  if (!tool) return { tool, result: { ok: false, content: `unknown tool ${call.name}` } };
  return { tool, result: await runTool(tool, call, turn, ctx, services) };
}

async function runTool(
  tool: Tool,
  call: ToolCall,
  turn: { guard?: ToolGuard; reads: TurnReads },
  ctx: TurnContext,
  services: TurnServices,
): Promise<ToolResult> {
  let args: unknown;
  try {
    args = call.arguments.trim() === "" ? {} : JSON.parse(call.arguments);
  } catch {
    return { ok: false, content: "arguments are not valid JSON" };
  }
  if (turn.guard) {
    const decision = await turn.guard(tool, args, ctx);
    if (!decision.allowed) {
      // An admin tool refused before it ran is still a use of it: the audit log shows the attempt.
      if (tool.requiresAdmin) auditRefusal(tool, ctx, services, "guard");
      return { ok: false, content: decision.reason };
    }
    args = decision.args;
  }
  if (!turn.reads.mayRun(tool)) {
    auditRefusal(tool, ctx, services, "after-reading-other-chats");
    return { ok: false, content: POST_AFTER_READING };
  }
  try {
    turn.reads.ran(tool, args, ctx);
    return await tool.run(args, ctx, services);
  } catch (e) {
    services.logger.error("tool failed", { tool: call.name, error: String(e) });
    return { ok: false, content: "tool failed" };
  }
}

function auditRefusal(tool: Tool, ctx: TurnContext, services: TurnServices, stage: string): void {
  services.audit.record({
    action: tool.spec.name,
    actor: ctx.sender?.account ?? null,
    target: null,
    outcome: "refused",
    detail: { via: "tool", stage },
  });
}
