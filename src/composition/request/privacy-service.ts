/**
 * "Leave a person out" as admins use it (docs/settings.md#privacy-leaving-a-person-out), behind
 * `npm run akasha -- leave-out`, `/api/leave-out` and the dashboard's Identity page: the
 * do-not-record list is a settings list (privacy.doNotRecord), changed through the one settings
 * write path with its audit row. With `forget`, the same step deletes what was already kept of
 * that account: its messages in every chat's own log (each chat object) and in D1, and through
 * the forget-person path its personal memory, candidates and sightings — audited with the
 * counts, and with the chats not reached when a chat's object failed (then not done: re-run).
 */
import { D1AuditLog } from "../../adapters/d1/d1-audit-log";
import { D1IdentityDirectory } from "../../adapters/d1/d1-identity-directory";
import { openDatabase } from "../../adapters/d1/database";
import { parseAccountKey } from "../../domain/chat/chat-address";
import { effectiveSettings, valueAt } from "../../domain/config/settings-edit";
import type { SettingsSource } from "../../domain/config/settings-source";
import { err, ok, type Result } from "../../domain/kernel/result";
import { forgetAccountInChats } from "../common/account-forget-fan-out";
import { sessionRegistry } from "../common/forgetting-session-registry";
import { d1SettingsAdmin } from "../settings/d1-settings-admin";
import type { AdminRequest } from "./admin-request";
import { type ListResult, type OwnerError, ownerService } from "./owner-service";

export type ForgottenAccount = {
  /**
   * The account's messages deleted, each once: from the chats' own logs, and from D1 for the
   * chats whose log is still read there.
   */
  readonly messages: number;
  /** Rows deleted from the chats' own logs, in their objects. */
  readonly chatLogs: number;
  /**
   * Chats whose own log could not be reached: the forget is not done. Nothing in D1 is deleted
   * then (its rows and sightings name those chats for a re-run), and the answer says so.
   */
  readonly notDone: readonly string[];
  readonly memory: number;
  readonly candidates: number;
  readonly observations: number;
  /** The person the account is linked to: their person-level memory is not this account's alone. */
  readonly linkedPerson: string | null;
};

export type LeaveOutResult = ListResult & {
  readonly account: string;
  readonly forgotten: ForgottenAccount | null;
};

export function privacyService(env: Env, who: AdminRequest, source: SettingsSource) {
  const owner = ownerService(env, who, source);
  const registry = sessionRegistry(env, () => source.current());

  /** A garbled key is refused before anything is read or written. */
  const checked = (raw: string): Result<string, OwnerError> => {
    const parsed = parseAccountKey(raw);
    return parsed.ok
      ? ok(parsed.value.key)
      : err({ kind: "invalid", field: "account", reason: `${parsed.error.reason}, e.g. qq:user:<openid>` });
  };

  /** D1 after every chat's own log: its sightings and rows are what finds the chats again. */
  async function forget(account: string): Promise<ForgottenAccount> {
    const link = await new D1IdentityDirectory(openDatabase(env.DB)).linkOf(account as never);
    const chats = await forgetAccountInChats(env, account);
    const done = chats.notDone.length === 0;
    // D1's copy of the rows counted above (and of a chat whose log is still read there).
    if (done) await registry.forgetAccountMessages(account);
    // Only this account's own scope: the person's memory may come from their other accounts.
    const removed = done ? await registry.forgetPerson(account, [account]) : null;
    const forgotten = {
      messages: done ? chats.messages : 0,
      chatLogs: chats.logged,
      notDone: chats.notDone,
      memory: removed?.memory ?? 0,
      candidates: removed?.candidates ?? 0,
      observations: removed?.observations ?? 0,
      linkedPerson: link?.personId ?? null,
    };
    await new D1AuditLog(env.DB).record({
      at: Date.now(),
      actor: who.actor,
      action: "privacy.forget_account",
      chatKey: null,
      target: account,
      detail: {
        via: who.via,
        ...forgotten,
        ...(done
          ? {}
          : { note: `未完成：${chats.notDone.length} 个会话的记录没能删除，D1 与个人记忆未动，需重新执行` }),
      },
    });
    return forgotten;
  }

  return {
    /** The effective list, and the entries AKASHA_CONFIG declares (removable only there). */
    async list(): Promise<
      Result<{ accounts: readonly string[]; fromConfig: readonly string[] }, OwnerError>
    > {
      const read = await d1SettingsAdmin(env, source).layers();
      if (!read.ok) return read;
      const effective = effectiveSettings(read.value);
      if (!effective.ok) return effective;
      const fromVar = valueAt(read.value.var, ["privacy", "doNotRecord"]);
      return ok({
        accounts: effective.value.settings.privacy.doNotRecord,
        fromConfig: Array.isArray(fromVar.value) ? (fromVar.value as string[]) : [],
      });
    },

    /** Puts an account on the list; with `forget`, also deletes what was kept of it. */
    async add(raw: string, options: { forget: boolean }): Promise<Result<LeaveOutResult, OwnerError>> {
      const account = checked(raw);
      if (!account.ok) return account;
      const changed = await owner.changeList({
        path: "privacy.doNotRecord",
        op: "add",
        entry: account.value,
      });
      if (!changed.ok) return changed;
      const forgotten = options.forget ? await forget(account.value) : null;
      return ok({ ...changed.value, account: account.value, forgotten });
    },

    /** Takes an account off the list: from now on it is recorded like anyone else. */
    async remove(raw: string): Promise<Result<LeaveOutResult, OwnerError>> {
      const account = checked(raw);
      if (!account.ok) return account;
      const changed = await owner.changeList({
        path: "privacy.doNotRecord",
        op: "remove",
        entry: account.value,
      });
      return changed.ok ? ok({ ...changed.value, account: account.value, forgotten: null }) : changed;
    },
  };
}

export type PrivacyService = ReturnType<typeof privacyService>;
