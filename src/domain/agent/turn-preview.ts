/**
 * The context preview (POST /api/context/preview): what the next turn of a chat would get for
 * a message — handled by a command or intent, or the mandatory block plus recalled context as
 * the model would receive it, item by item with scope, kind, sensitivity, score and citation.
 * It runs the turn's own preparation code and changes nothing.
 */
import type { AccountKey } from "../chat/chat-address";
import type { Settings } from "../config/settings";
import type { SenderIdentity } from "../identity/sender-identity";
import type { InboundEvent } from "../inbound/inbound-event";
import { discardAudit } from "../kernel/audit";
import { scopeKey } from "../memory/scope";
import type { ChatMessage, RecalledItem } from "../model/chat-model";
import { parseCommand } from "./command";
import { scopesOf } from "./memory-scopes";
import { prepareTurn, type TurnRegistry, withAdminStatus } from "./turn";
import type { RecentTurn, TurnContext } from "./turn-context";
import type { TurnPorts } from "./turn-services";

export type PreviewRequest = {
  readonly chat: InboundEvent["chat"];
  /** A lane of the chat (`qq:private:U1:cron:abc`) or a legacy key; defaults to the chat key. */
  readonly session?: string;
  readonly sender: {
    readonly userId: string;
    readonly account: AccountKey;
    readonly displayName: string | null;
  } | null;
  readonly text: string;
};

export type PreviewItem = {
  readonly section: string;
  readonly source: string;
  readonly text: string;
  readonly citation: string;
  readonly nodeId: string | null;
  readonly scope: string | null;
  readonly kind: string | null;
  readonly sensitivity: string | null;
  readonly score: number | null;
};

export type TurnPreview = {
  readonly chat: string;
  readonly session: string;
  readonly handledBy: { readonly kind: "command" | "intent" | "model"; readonly name: string | null };
  readonly identity: SenderIdentity | null;
  readonly scopes: {
    readonly readable: readonly string[];
    readonly writable: readonly string[];
    readonly personal: string;
    readonly softScope: boolean;
  };
  readonly mandatory: {
    readonly persona: string;
    /** The speaker's profile as this chat reads it (docs/memory.md#person-profiles). */
    readonly profile: string | null;
    readonly pinned: readonly PreviewItem[];
    readonly summary: string | null;
    readonly recentTurns: readonly RecentTurn[];
    readonly tokens: number;
  };
  readonly recalled: readonly PreviewItem[];
  readonly messages: readonly ChatMessage[];
  readonly tokens: number;
  readonly budget: { readonly total: number; readonly mandatory: number };
};

function item(section: string, r: RecalledItem): PreviewItem {
  return {
    section,
    source: r.source,
    text: r.text,
    citation: r.citation,
    nodeId: r.meta?.nodeId ?? null,
    scope: r.meta?.scope ?? null,
    kind: r.meta?.kind ?? null,
    sensitivity: r.meta?.sensitivity ?? null,
    score: r.meta?.score ?? null,
  };
}

export async function previewTurn(
  req: PreviewRequest,
  deps: {
    settings: Settings;
    services: TurnPorts;
    registry: TurnRegistry;
    recent: readonly RecentTurn[];
    now: number;
  },
): Promise<TurnPreview> {
  const { settings, registry, now } = deps;
  // A preview changes nothing, so nothing it touches is audited.
  const services = { ...deps.services, audit: discardAudit };
  const identity = req.sender
    ? await services.identity.resolve({
        account: req.sender.account,
        chatKey: req.chat.key,
        unionId: null,
      })
    : null;
  const event: InboundEvent = {
    eventId: `preview:${now}`,
    transport: req.chat.channel === "onebot" ? "onebot" : "qq",
    kind: "message",
    wireType: "PREVIEW",
    chat: req.chat,
    sender: req.sender
      ? {
          userId: req.sender.userId,
          account: req.sender.account,
          displayName: req.sender.displayName,
          role: null,
          unionId: null,
          isBot: false,
        }
      : null,
    message: {
      id: `preview:${now}`,
      text: req.text,
      ts: now,
      addressedToBot: true,
      attachments: [],
      quotedMessageId: null,
    },
    deletedMessageId: null,
    reply: { kind: "none" },
    receivedAt: now,
    raw: null,
  };
  const ctx: TurnContext = withAdminStatus(
    {
      event,
      chat: req.chat,
      ...(req.session && req.session !== req.chat.key ? { session: req.session } : {}),
      sender: event.sender,
      identity,
      text: req.text,
      recent: deps.recent,
      settings,
      now,
    },
    registry,
  );
  const { scopes } = await scopesOf(ctx, services);
  const command = parseCommand(req.text);
  const intent = command ? null : (registry.intents ?? []).find((i) => i.match(req.text) !== null);
  const prepared = await prepareTurn(ctx, services, registry);
  return {
    chat: req.chat.key,
    session: ctx.session ?? req.chat.key,
    handledBy: command
      ? { kind: "command", name: command.name }
      : intent
        ? { kind: "intent", name: intent.name }
        : { kind: "model", name: null },
    identity,
    scopes: {
      readable: scopes.readable.map(scopeKey),
      writable: scopes.writable.map(scopeKey),
      personal: scopeKey(scopes.personal),
      softScope: settings.memory.retrieval.softScope,
    },
    mandatory: {
      persona: prepared.mandatory.persona,
      profile: prepared.mandatory.profile,
      pinned: prepared.mandatory.pinned.map((p) => item("重要记忆", p)),
      summary: prepared.mandatory.summary,
      recentTurns: prepared.mandatory.recent,
      tokens: prepared.mandatory.tokens,
    },
    recalled: prepared.sections.flatMap((s) => s.items.map((i) => item(s.title, i))),
    messages: prepared.messages,
    tokens: prepared.tokens,
    budget: {
      total: settings.turn.contextTokenBudget,
      mandatory: Math.min(settings.turn.contextTokenBudget, settings.memory.mandatory.tokenBudget),
    },
  };
}
