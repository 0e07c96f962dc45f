/**
 * Where an admin may put a memory item by hand — adding one or moving one to another scope
 * (`POST /api/memory`, `POST /api/memory/:id/move`, the Memory page's forms;
 * docs/memory.md#admins-add-and-move-items). Any memory scope, global included: this explicit
 * admin action is, with an admin's marked `/remember`, the only way global is written. A
 * `private` or `secret_like` item lands in a shared scope (global, a group or channel) only with
 * an explicit confirmation, which the caller audits: every turn there reads that scope at every
 * level, so the item would be said where others listen.
 */
import { isOneToOneKey, parseAccountKey, parseChatKey } from "../chat/chat-address";
import { err, ok, type Result } from "../kernel/result";
import { memoryNodeId, type NewMemory, normalizeMemoryText, type Sensitivity } from "./memory";
import { GLOBAL_SCOPE_ID, type MemoryKind, type Scope, scopeKey } from "./scope";

const PERSON_ID = /^[A-Za-z0-9_.:-]{1,128}$/;

/** Null when an item may live in `scope`; else why not (a knowledge collection, a malformed id). */
export function placeableScopeProblem(scope: Scope): string | null {
  switch (scope.type) {
    case "global":
      return scope.id === GLOBAL_SCOPE_ID ? null : `the global scope is global:${GLOBAL_SCOPE_ID}`;
    case "chat":
      return parseChatKey(scope.id).ok ? null : "a chat scope names a chat key like chat:qq:group:<id>";
    case "person":
      return PERSON_ID.test(scope.id) ? null : "a person id is letters, digits and _.:- only";
    case "account":
      return parseAccountKey(scope.id).ok
        ? null
        : "an account scope names an account key like account:qq:user:<id>";
    default:
      return "memory lives in a global, chat, person or account scope";
  }
}

/** A scope every member of a chat reads: global, or a chat that is not one-to-one. */
export const isSharedScope = (scope: Scope): boolean =>
  scope.type === "global" || (scope.type === "chat" && !isOneToOneKey(scope.id));

export type Placement = {
  /** True when a private or secret item goes into a shared scope on the admin's confirmation. */
  readonly confirmedShared: boolean;
};

/** `shared-needs-confirm`: the stable code of the refusal, for a client that words it itself. */
export type PlacementRefusal = {
  readonly kind: "conflict";
  readonly reason: string;
  readonly code: "shared-needs-confirm";
};

/** Whether an item of this sensitivity may go into `target`, given what the admin confirmed. */
export function placement(
  sensitivity: Sensitivity,
  target: Scope,
  confirmShared: boolean,
): Result<Placement, PlacementRefusal> {
  if (sensitivity === "public" || !isSharedScope(target)) return ok({ confirmedShared: false });
  if (!confirmShared)
    return err({
      kind: "conflict",
      reason: `a ${sensitivity} item would be read by everyone in ${target.type}:${target.id}; send confirmShared: true to do it anyway (audited)`,
      code: "shared-needs-confirm",
    });
  return ok({ confirmedShared: true });
}

export type AdminAddition = {
  readonly scope: Scope;
  readonly text: string;
  readonly kind: MemoryKind;
  readonly importance: number;
  readonly sensitivity: Sensitivity;
};

/**
 * The item an admin's addition writes: tagged explicit (no dreaming lowers it), its id a hash of
 * the scope and the normalized text, so the same text added twice to one scope is one item.
 */
export function adminItem(a: AdminAddition, at: number): NewMemory {
  return {
    nodeId: memoryNodeId("admin", scopeKey(a.scope), normalizeMemoryText(a.text)),
    scope: a.scope,
    kind: a.kind,
    text: a.text,
    importance: a.importance,
    confidence: 1,
    sensitivity: a.sensitivity,
    sensitivitySource: "explicit",
    portable: true,
    subjectKey: null,
    evidence: {
      session: "admin",
      messageIds: [],
      account: null,
      person: a.scope.type === "person" ? a.scope.id : null,
      origin: "explicit",
      runId: `admin:${at}`,
    },
  };
}
