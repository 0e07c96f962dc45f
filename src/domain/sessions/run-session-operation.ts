/**
 * Runs one session operation (docs/sessions.md#commands) for the chat command, the admin API
 * and the owner CLI: resolves the sessions, validates, changes the registry, audits every use
 * (refusals and mistakes included, with the command text) and answers in text and data.
 * Authorization is the caller's: the command asks the gate, the API is behind the admin guard.
 * Each operation is one handler in the table below.
 */
import { exportSession, forget, info, list, rename, retention, store } from "./chat-operations";
import { link, unlink } from "./cluster-operations";
import {
  type OperationContext,
  type OperationHandlers,
  operationContext,
  type SessionAnswer,
  type SessionOpDeps,
} from "./operation-context";
import { forgetPerson, forgetPersonPreview } from "./person-operations";
import type { SessionOperation } from "./session-operation";

export { RECENT_DAYS } from "./chat-operations";
export type { SessionAnswer, SessionAuditEntry, SessionOpDeps } from "./operation-context";

const HANDLERS: OperationHandlers = {
  list,
  info,
  link,
  unlink,
  rename,
  retention,
  store,
  forget,
  export: exportSession,
  "forget-person-preview": forgetPersonPreview,
  "forget-person": forgetPerson,
};

export async function runSessionOperation(op: SessionOperation, deps: SessionOpDeps): Promise<SessionAnswer> {
  // The table's key matches the operation, so its handler takes exactly this operation.
  const handler = HANDLERS[op.op] as (op: SessionOperation, ctx: OperationContext) => Promise<SessionAnswer>;
  return handler(op, operationContext(op, deps));
}
