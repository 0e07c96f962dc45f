/**
 * The owner's day-one operations behind `npm run akasha -- admins|follow|settings`: the admin
 * list, the first admin's one-time claim code, the followed groups, and one settings path at a
 * time. Every change is validated whole and saved through the one settings write path
 * (saveSettingsEdit: compare-and-set with its audit row), as `PUT /api/settings` is.
 */
import { D1AdminClaims } from "../../adapters/d1/d1-admin-claims";
import { D1AuditLog } from "../../adapters/d1/d1-audit-log";
import { isOneToOne, parseChatKey } from "../../domain/chat/chat-address";
import { changeList, type ListChange } from "../../domain/config/setting-lists";
import type { Settings, SettingsError } from "../../domain/config/settings";
import { saveSettingsEdit } from "../../domain/config/settings-admin";
import {
  effectiveSettings,
  parseSettingPath,
  type SettingsLayers,
  setStoredValue,
  unsetStoredValue,
  valueAt,
} from "../../domain/config/settings-edit";
import type { SettingsSource } from "../../domain/config/settings-source";
import {
  CLAIM_CODE_BYTES,
  CLAIM_CODE_TTL_MS,
  claimDigest,
  formatClaimCode,
} from "../../domain/identity/admin-claim";
import { err, ok, type Result } from "../../domain/kernel/result";
import { d1SettingsAdmin } from "../settings/d1-settings-admin";
import type { AdminRequest } from "./admin-request";

export type OwnerError = SettingsError | { readonly kind: "conflict"; readonly reason: string };

const STALE: OwnerError = {
  kind: "conflict",
  reason: "the stored settings changed while this change was made; nothing was saved, try again",
};

export type ListResult = {
  readonly path: ListChange["path"];
  readonly before: readonly string[];
  readonly after: readonly string[];
  readonly changed: boolean;
  readonly enabledIdentity: boolean;
};

export type PathResult = {
  readonly path: string;
  readonly before: unknown;
  readonly after: unknown;
  readonly changed: boolean;
};

/** A follow entry must be a group or channel key, or "*"; a private chat is always kept. */
function followEntryError(entry: string): SettingsError | null {
  if (entry === "*") return null;
  const key = parseChatKey(entry);
  if (!key.ok) return { kind: "invalid", field: "chat", reason: key.error.reason };
  if (isOneToOne(key.value.targetType) || key.value.targetType === "unknown")
    return {
      kind: "invalid",
      field: "chat",
      reason: "only groups and channels are followed; private chats are always kept",
    };
  return null;
}

export function ownerService(env: Env, who: AdminRequest, source: SettingsSource) {
  const admin = d1SettingsAdmin(env, source);
  const claims = new D1AdminClaims(env.DB);
  const by = () => ({ actor: who.actor, via: who.via, at: Date.now() });
  const layers = async (): Promise<Result<SettingsLayers, OwnerError>> => admin.layers();

  const current = async () => {
    const read = await layers();
    if (!read.ok) return read;
    const effective = effectiveSettings(read.value);
    return effective.ok ? ok({ layers: read.value, settings: effective.value.settings }) : effective;
  };

  const context = { admin, claims, by, layers, current };
  return {
    /** The effective admins and identity switch, and which of them AKASHA_CONFIG declares. */
    async admins() {
      const now = await current();
      if (!now.ok) return now;
      const fromVar = valueAt(now.value.layers.var, ["identity", "admins"]);
      return ok({
        admins: now.value.settings.identity.admins,
        identityEnabled: now.value.settings.identity.enabled,
        fromConfig: Array.isArray(fromVar.value) ? (fromVar.value as string[]) : [],
      });
    },

    /** The followed groups ("*" = all). */
    async follows() {
      const now = await current();
      return now.ok ? ok({ groups: now.value.settings.follow.groups }) : now;
    },

    /** Adds or removes one admin or followed group; saved and audited like any settings edit. */
    async changeList(change: ListChange): Promise<Result<ListResult, OwnerError>> {
      if (change.path === "follow.groups") {
        const bad = followEntryError(change.entry);
        if (bad) return err(bad);
      }
      const read = await layers();
      if (!read.ok) return read;
      const outcome = changeList(read.value, change);
      if (!outcome.ok) return outcome;
      const { before, after, edit, enabledIdentity } = outcome.value;
      const result = { path: change.path, before, after, changed: edit !== null, enabledIdentity };
      if (edit === null) return ok(result);
      const extra = { op: change.op, entry: change.entry.slice(0, 200), enabledIdentity };
      const saved = await saveSettingsEdit(
        admin,
        read.value,
        edit,
        { action: "set", path: change.path, extra },
        by(),
      );
      return saved ? ok(result) : err(STALE);
    },

    /**
     * Sets (`value` given) or removes (`value` undefined) one dotted path of the stored layer,
     * validated whole; `before` and `after` are the effective values.
     */
    setPath: (pathText: string, value: unknown) => setPath(context, pathText, value),

    /**
     * A one-time code for the first admin, refused once any admin is declared. Only its digest
     * is stored; the code is in this answer and nowhere else. Earlier pending codes are revoked.
     */
    issueClaim: () => issueClaim(env, who, context),
  };
}

export type OwnerService = ReturnType<typeof ownerService>;

/** What the owner's operations share: the settings write path, the claim codes, the acting admin. */
type OwnerContext = {
  readonly admin: ReturnType<typeof d1SettingsAdmin>;
  readonly claims: D1AdminClaims;
  readonly by: () => { actor: string; via: AdminRequest["via"]; at: number };
  readonly layers: () => Promise<Result<SettingsLayers, OwnerError>>;
  readonly current: () => Promise<Result<{ layers: SettingsLayers; settings: Settings }, OwnerError>>;
};

/** Sets or removes one dotted path of the stored layer (see `setPath` of the service). */
async function setPath(
  { admin, by, layers }: OwnerContext,
  pathText: string,
  value: unknown,
): Promise<Result<PathResult, OwnerError>> {
  const path = parseSettingPath(pathText);
  if (!path.ok) return path;
  const read = await layers();
  if (!read.ok) return read;
  const was = effectiveSettings(read.value);
  const before = was.ok ? valueAt(was.value.settings, path.value).value : undefined;
  const edit =
    value === undefined
      ? unsetStoredValue(read.value, path.value)
      : setStoredValue(read.value, path.value, value);
  if (!edit.ok) return edit;
  const after = valueAt(edit.value.effective, path.value);
  if (value !== undefined && !after.found)
    return err({ kind: "invalid", field: pathText, reason: "is not a setting" });
  const unchanged = JSON.stringify(read.value.stored ?? {}) === JSON.stringify(edit.value.stored);
  const result = { path: pathText, before, after: after.value, changed: !unchanged };
  if (unchanged) return ok(result);
  const shown = (v: unknown) => (JSON.stringify(v) ?? "null").slice(0, 200);
  const extra = { before: shown(before), after: shown(after.value) };
  const action = value === undefined ? "unset" : "set";
  const saved = await saveSettingsEdit(
    admin,
    read.value,
    edit.value,
    { action, path: pathText, extra },
    by(),
  );
  return saved ? ok(result) : err(STALE);
}

/** Issues the first admin's one-time claim code (see `issueClaim` of the service). */
async function issueClaim(
  env: Env,
  who: AdminRequest,
  { claims, current }: OwnerContext,
): Promise<Result<{ code: string; expiresAt: number }, OwnerError>> {
  const now = await current();
  if (!now.ok) return now;
  if (now.value.settings.identity.admins.length > 0)
    return err({
      kind: "conflict",
      reason:
        "an admin is already declared; an existing admin adds others with: npm run akasha -- admins add <account>",
    });
  const code = formatClaimCode(crypto.getRandomValues(new Uint8Array(CLAIM_CODE_BYTES)));
  const at = Date.now();
  const expiresAt = at + CLAIM_CODE_TTL_MS;
  await claims.issue({ digest: claimDigest(code), at, expiresAt });
  await new D1AuditLog(env.DB).record({
    at,
    actor: who.actor,
    action: "admins.claim_code",
    chatKey: null,
    target: "identity.admins",
    detail: { via: who.via, expiresAt },
  });
  return ok({ code, expiresAt });
}
