/**
 * A conversation as a context-store tree (docs/retrieval.md#context-store: session → episode → turn): one
 * episode node per session and one passage per turn in the chat's scope, with parent_of and
 * adjacent_to edges. A turn's retrieval text carries the session label, the speaker and the
 * turn the message answers (the previous one), so "Where did she go?" → "Paris!" is found by
 * both halves; raw_text is the turn as it was said.
 */

import { contentHash } from "../kernel/content-hash";
import type { NewEdge, NewNode } from "../retrieval/context-node";
import { scopeKey } from "../retrieval/scope-key";
import { indexText } from "../text/search-tokens";

export type ConversationTurn = {
  readonly id: string;
  readonly speaker: string;
  readonly text: string;
  /** Description of an image shared with the turn, if any. */
  readonly attachment?: string;
  readonly ts?: number;
};

export type ConversationSession = {
  readonly id: string;
  /** Human label, e.g. "Session 3 · 1:56 pm on 8 May, 2023". */
  readonly label: string;
  readonly turns: readonly ConversationTurn[];
};

/** Characters of the previous turn carried into a turn's retrieval text. */
const PREVIOUS_CHARS = 200;
/** Characters of the next turn (the reply) carried into a turn's retrieval text. */
const NEXT_CHARS = 200;
const NEXT_TURNS = 1;

export function turnText(turn: ConversationTurn): string {
  return turn.attachment
    ? `${turn.speaker}: ${turn.text} [image: ${turn.attachment}]`
    : `${turn.speaker}: ${turn.text}`;
}

export function planConversation(chatKey: string, sessions: readonly ConversationSession[]) {
  const scope = scopeKey("chat", chatKey);
  const scopeId = scope.slice("chat:".length);
  const nodes: NewNode[] = [];
  const edges: NewEdge[] = [];
  const node = (n: Omit<NewNode, "retrievalTokens" | "contentHash">): NewNode => ({
    ...n,
    contentHash: contentHash(n.retrievalText),
    retrievalTokens: indexText(n.retrievalText),
  });
  sessions.forEach((session, sessionIndex) => {
    const episodeId = `e_${contentHash(`${chatKey}\u0000${session.id}`).slice(0, 24)}`;
    const base = {
      sourceType: "conversation",
      sourceId: session.id,
      scopeType: "chat",
      scopeId,
      collection: null,
      rootId: episodeId,
    } as const;
    nodes.push(
      node({
        ...base,
        nodeType: "episode",
        nodeId: episodeId,
        parentId: null,
        path: [session.label],
        position: sessionIndex,
        title: session.label,
        rawText: session.label,
        retrievalText: `${session.label}\n${[...new Set(session.turns.map((t) => t.speaker))].join("、")}`,
        metadata: {},
        provenance: { kind: "conversation", session: session.id },
      }),
    );
    let previous: { id: string; text: string } | null = null;
    const nextOf = (position: number) =>
      session.turns
        .slice(position + 1, position + 1 + NEXT_TURNS)
        .map((t) => turnText(t).slice(0, NEXT_CHARS))
        .join("\n");
    session.turns.forEach((turn, position) => {
      const nodeId = `t_${contentHash(`${chatKey}\u0000${session.id}\u0000${turn.id}`).slice(0, 24)}`;
      const said = turnText(turn);
      const context = previous ? previous.text.slice(0, PREVIOUS_CHARS) : "";
      nodes.push(
        node({
          ...base,
          nodeType: "passage",
          nodeId,
          parentId: episodeId,
          path: [session.label],
          position,
          title: turn.speaker,
          rawText: said,
          retrievalText: [session.label, context, said, nextOf(position)].filter(Boolean).join("\n"),
          metadata: { turn_id: turn.id, ...(turn.ts ? { ts: turn.ts } : {}) },
          provenance: { kind: "conversation", session: session.id, turn: turn.id, message_ids: [turn.id] },
        }),
      );
      edges.push({ src: episodeId, dst: nodeId, type: "parent_of" });
      if (previous) edges.push({ src: previous.id, dst: nodeId, type: "adjacent_to" });
      previous = { id: nodeId, text: said };
    });
  });
  return { nodes, edges };
}
