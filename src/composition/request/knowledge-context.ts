/**
 * What the parts of the knowledge service share (knowledge-service.ts): the audit log with the
 * acting admin, and the current settings with the knowledge services they make.
 */
import { D1AuditLog } from "../../adapters/d1/d1-audit-log";
import type { SettingsSource } from "../../domain/config/settings-source";
import { createKnowledgeServices } from "../common/knowledge-services";
import type { AdminRequest } from "./admin-request";

export type KnowledgeContext = ReturnType<typeof knowledgeContext>;

export function knowledgeContext(env: Env, who: AdminRequest, source: SettingsSource) {
  const log = new D1AuditLog(env.DB);
  /** Every change to the knowledge base is audited with the acting admin. */
  const audit = (action: string, collection: string, detail: Record<string, unknown>) =>
    log.record({
      at: Date.now(),
      actor: who.actor,
      action,
      chatKey: null,
      target: `collection:${collection}`,
      detail,
    });
  const open = async () => {
    const settings = await source.current();
    return { settings, kb: createKnowledgeServices(env, settings) };
  };
  return { env, who, log, audit, open };
}
