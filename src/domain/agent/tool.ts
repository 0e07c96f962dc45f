/**
 * Tools the model may call. A tool declares what it needs so that the turn loop, not the
 * model, decides where it may act: `scope` says which chats it can touch and `requiresAdmin`
 * whether the sender must be an admin. No tool parameter names a scope or a set of chats
 * (docs/invariants.md#no-scope-parameter); those come from the resolved turn.
 */
import type { ToolSpec } from "../model/chat-model";
import type { TurnContext } from "./turn-context";
import type { TurnServices } from "./turn-services";

export type ToolScope = "chat_domain" | "current_chat" | "none";

export type ToolResult = {
  readonly ok: boolean;
  readonly content: string;
  /** The tool cleared the chat's short-term context; the turn rebuilds its mandatory block. */
  readonly resetContext?: boolean;
  /**
   * Memory items this result showed the model (`memory_search`): they count as used, like the
   * recalled ones, when the turn answers (memory-reinforce.ts).
   */
  readonly shownMemory?: readonly string[];
  /**
   * Whether what the result showed holds words that must stay in the chat they were said in
   * (turn-privacy.ts): a marked message, a memory item above public. Absent: a tool that reads
   * nothing shows none; any other is taken to have shown some.
   */
  readonly marked?: boolean;
};

export interface Tool {
  readonly spec: ToolSpec;
  readonly requiresAdmin: boolean;
  readonly scope: ToolScope;
  /**
   * What a `chat_domain` tool's result carries from chats (turn-reads.ts): `nothing` (addresses
   * and outcomes only), or the `target` its `chat` argument names (the current chat when
   * omitted). Absent: words of any chat it can reach, which is what a new tool is taken to do.
   */
  readonly reads?: "nothing" | "target";
  /** The tool puts text into another chat (`send_message`). */
  readonly postsElsewhere?: boolean;
  /** Runs with arguments the model sent (already JSON-parsed, not yet validated). */
  run(args: unknown, ctx: TurnContext, services: TurnServices): Promise<ToolResult>;
}

export const toolError = (content: string): ToolResult => ({ ok: false, content });
export const toolOk = (content: string): ToolResult => ({ ok: true, content });
