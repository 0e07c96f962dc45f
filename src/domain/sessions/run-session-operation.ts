/**
 * Runs one session operation (docs/sessions.md#commands) for the chat command, the admin API
 * and the owner CLI: resolves the sessions, validates, changes the registry, audits every use
 * (refusals and mistakes included, with the command text) and answers in text and data.
 * Authorization is the caller's: the command asks the gate, the API is behind the admin guard.
 */
import type { AuditOutcome } from "../kernel/audit";
import type { DomainError } from "../kernel/result";
import { exposuresOfLink, type PrivateExposure, privateChatsReadBy } from "./cluster-exposure";
import { renderSessionExport } from "./session-export";
import { aliasProblem, MAX_KEEP_DAYS, type SessionOperation } from "./session-operation";
import type { PersonForgetPreview, SessionInfo, SessionRegistry } from "./session-registry";

export type SessionAuditEntry = {
  readonly action: string;
  readonly target: string | null;
  readonly outcome: AuditOutcome;
  readonly detail: Readonly<Record<string, string | number | boolean | null>>;
};

export type SessionOpDeps = {
  readonly registry: SessionRegistry;
  /** A person's accounts (declared and linked); null when no such person is known. */
  readonly personAccounts: (personId: string) => Promise<readonly string[] | null>;
  readonly audit: (entry: SessionAuditEntry) => void | Promise<void>;
  readonly now: number;
  /** The operation as the admin typed or sent it, for the audit row. */
  readonly commandText: string;
};

export type SessionAnswer =
  | { readonly ok: true; readonly text: string; readonly data: Record<string, unknown> }
  | { readonly ok: false; readonly text: string; readonly error: DomainError };

/** `/session list` without --all: chats active in this many days. */
export const RECENT_DAYS = 30;
const LIST_LIMIT = 500;
const DAY_MS = 86_400_000;

const name = (s: SessionInfo) =>
  `${s.sessionId}${s.alias ? `（${s.alias}）` : s.title ? `（${s.title}）` : ""}`;

function line(s: SessionInfo): string {
  const flags = [
    s.clusterId === s.sessionId ? null : `组 ${s.clusterId}`,
    s.storeEnabled ? null : "不存储",
    s.keepDays === null ? null : `保留 ${s.keepDays} 天`,
  ].filter(Boolean);
  return `${name(s)} ${s.chatKey}${flags.length ? ` [${flags.join("，")}]` : ""}`;
}

const riskText = (e: readonly PrivateExposure[]) =>
  e.map((x) => `群 ${x.group} 将能读取 ${x.label}（${x.privateChat}）的私聊记忆中的公开条目`).join("；");

const previewText = (person: string, p: PersonForgetPreview) =>
  `${person} 的个人记忆 ${p.memory} 条、记忆候选 ${p.candidates} 条、观察记录 ${p.observations} 条（账号：${p.accounts.join("、") || "无"}）`;

export async function runSessionOperation(op: SessionOperation, deps: SessionOpDeps): Promise<SessionAnswer> {
  const audit = async (
    target: string | null,
    outcome: AuditOutcome,
    detail: Record<string, string | number | boolean | null> = {},
  ) =>
    deps.audit({
      action: `session.${op.op}`,
      target,
      outcome,
      detail: { command: deps.commandText, ...detail },
    });
  const fail = async (
    error: DomainError,
    text: string,
    target: string | null = null,
  ): Promise<SessionAnswer> => {
    await audit(target, error.kind === "not-found" || error.kind === "invalid" ? "invalid" : "refused", {
      reason: "reason" in error ? error.reason : error.kind === "not-found" ? error.what : error.kind,
    });
    return { ok: false, text, error };
  };
  // Forgetting a person and its preview both refuse an id the directory does not know.
  const unknownPerson = (person: string) =>
    fail({ kind: "not-found", what: `person ${person}` }, `找不到人物 ${person}。`, person);
  const find = async (ref: string, field = "id") => {
    const s = await deps.registry.resolve(ref);
    return s ?? { missing: { kind: "not-found" as const, what: `session ${ref}` }, field };
  };
  const resolved = async (ref: string) => {
    const s = await find(ref);
    if ("missing" in s)
      return { error: await fail(s.missing, `找不到会话 ${ref}（可用会话 id、别名或 chat key）`) };
    return { session: s };
  };

  switch (op.op) {
    case "list": {
      const since = op.all ? undefined : deps.now - RECENT_DAYS * DAY_MS;
      const sessions = await deps.registry.list({ since, limit: LIST_LIMIT });
      await audit(null, "ok", { count: sessions.length, all: op.all });
      const text = sessions.length
        ? sessions.map(line).join("\n")
        : op.all
          ? "还没有会话。"
          : `最近 ${RECENT_DAYS} 天没有活跃的会话（--all 列出全部）。`;
      return { ok: true, text, data: { sessions } };
    }
    case "info": {
      const r = await resolved(op.ref);
      if (r.error) return r.error;
      const s = r.session;
      const members = await deps.registry.members(s.clusterId);
      const readsPrivate = privateChatsReadBy(s, members);
      await audit(s.chatKey, "ok");
      const lines = [
        line(s),
        `标题：${s.title ?? "（平台未提供）"}；别名：${s.alias ?? "（无）"}`,
        `存储：${s.storeEnabled ? "开" : "关"}；保留：${s.keepDays === null ? "默认" : `${s.keepDays} 天`}`,
        members.length > 1
          ? `记忆组 ${s.clusterId}：${members.map(name).join("、")}`
          : "记忆组：独占（未关联）",
        ...(readsPrivate.length ? [`⚠ ${riskText(readsPrivate)}`] : []),
      ];
      return { ok: true, text: lines.join("\n"), data: { session: s, members, readsPrivate } };
    }
    case "link": {
      const a = await resolved(op.a);
      if (a.error) return a.error;
      const b = await resolved(op.b);
      if (b.error) return b.error;
      const target = `${a.session.chatKey} ${b.session.chatKey}`;
      if (a.session.chatKey === b.session.chatKey)
        return fail(
          { kind: "invalid", field: "b", reason: "cannot link a session with itself" },
          "不能把会话与自己关联。",
          target,
        );
      if (a.session.clusterId === b.session.clusterId) {
        await audit(target, "ok", { cluster: a.session.clusterId, changed: false });
        return {
          ok: true,
          text: `${name(b.session)} 已经在 ${name(a.session)} 的记忆组里。`,
          data: { cluster: a.session.clusterId, exposures: [] },
        };
      }
      const cluster = await deps.registry.members(a.session.clusterId);
      const exposures = exposuresOfLink(cluster, b.session);
      if (exposures.length > 0 && !op.yes) {
        const reason = `links a private chat with a group: ${exposures
          .map((e) => `${e.group} would read the memory of ${e.account ?? e.privateChat}`)
          .join("; ")}; confirm to link`;
        await audit(target, "refused", {
          reason: "needs confirmation",
          exposes: exposures.map((e) => e.privateChat).join(","),
        });
        return {
          ok: false,
          error: { kind: "invalid", field: "yes", reason },
          text: `⚠ 未关联：${riskText(exposures)}。确认请加 --yes：/session link ${op.a} ${op.b} --yes`,
        };
      }
      await deps.registry.setCluster(b.session.chatKey, a.session.clusterId, deps.now);
      await audit(target, "ok", {
        cluster: a.session.clusterId,
        confirmed: op.yes,
        exposes: exposures.map((e) => e.privateChat).join(",") || null,
      });
      const warn = exposures.length
        ? `\n⚠ ${riskText(exposures)}（个人的 private/secret 条目仍不会进群）。`
        : "";
      return {
        ok: true,
        text: `已把 ${name(b.session)} 并入 ${name(a.session)} 的记忆组 ${a.session.clusterId}：此后组内会话互相可读公开记忆（条目保留原归属，unlink 即刻恢复隔离；私聊里学到的只留在私聊）。${warn}`,
        data: { cluster: a.session.clusterId, exposures },
      };
    }
    case "unlink": {
      const r = await resolved(op.ref);
      if (r.error) return r.error;
      const s = r.session;
      const others = (await deps.registry.members(s.clusterId)).filter((m) => m.chatKey !== s.chatKey);
      if (others.length === 0) {
        await audit(s.chatKey, "ok", { changed: false });
        return { ok: true, text: `${name(s)} 本来就独占一个记忆组。`, data: { cluster: s.sessionId } };
      }
      if (s.clusterId === s.sessionId) {
        // The cluster carries this chat's id: the others move to the id of one of them, so
        // that this chat is alone under its own id and they stay together.
        const [first] = others;
        for (const m of others)
          await deps.registry.setCluster(m.chatKey, first?.sessionId ?? m.sessionId, deps.now);
      } else await deps.registry.setCluster(s.chatKey, s.sessionId, deps.now);
      await audit(s.chatKey, "ok", { previous: s.clusterId });
      return {
        ok: true,
        text: `已把 ${name(s)} 移出记忆组 ${s.clusterId}：双方的记忆各自保留、互不可见。`,
        data: { cluster: s.sessionId, previous: s.clusterId },
      };
    }
    case "rename": {
      const r = await resolved(op.ref);
      if (r.error) return r.error;
      const problemText = aliasProblem(op.alias);
      if (problemText)
        return fail(
          { kind: "invalid", field: "alias", reason: problemText },
          `别名无效：${problemText}`,
          r.session.chatKey,
        );
      const done = await deps.registry.rename(r.session.chatKey, op.alias, deps.now);
      if (done === "taken")
        return fail(
          { kind: "invalid", field: "alias", reason: "is already another session's alias" },
          `别名 ${op.alias} 已被别的会话使用。`,
          r.session.chatKey,
        );
      await audit(r.session.chatKey, "ok", { alias: op.alias, previous: r.session.alias });
      return {
        ok: true,
        text: `已将 ${r.session.sessionId} 命名为 ${op.alias}。`,
        data: { alias: op.alias },
      };
    }
    case "retention": {
      const r = await resolved(op.ref);
      if (r.error) return r.error;
      if (op.days !== null && (op.days < 1 || op.days > MAX_KEEP_DAYS))
        return fail(
          { kind: "invalid", field: "days", reason: `must be 1 to ${MAX_KEEP_DAYS}` },
          `保留天数须在 1 到 ${MAX_KEEP_DAYS} 之间。`,
          r.session.chatKey,
        );
      await deps.registry.setKeepDays(r.session.chatKey, op.days, deps.now);
      await audit(r.session.chatKey, "ok", { days: op.days, previous: r.session.keepDays });
      return {
        ok: true,
        text: `${name(r.session)} 的消息保留期：${op.days === null ? "恢复默认" : `${op.days} 天`}（下一次清理生效）。`,
        data: { keepDays: op.days },
      };
    }
    case "store": {
      const r = await resolved(op.ref);
      if (r.error) return r.error;
      await deps.registry.setStoreEnabled(r.session.chatKey, op.enabled, deps.now);
      await audit(r.session.chatKey, "ok", { enabled: op.enabled, previous: r.session.storeEnabled });
      return {
        ok: true,
        text: op.enabled
          ? `${name(r.session)} 恢复存储。`
          : `${name(r.session)} 不再存储：此后不写消息、记忆和摘要（已有数据保留，要删除用 forget）。`,
        data: { storeEnabled: op.enabled },
      };
    }
    case "forget": {
      const r = await resolved(op.ref);
      if (r.error) return r.error;
      if (!op.yes)
        return fail(
          { kind: "invalid", field: "yes", reason: "forgetting deletes for good; confirm to forget" },
          `⚠ 这会永久删除 ${name(r.session)} 的消息、记忆、摘要与向量。确认请加 --yes。`,
          r.session.chatKey,
        );
      const removed = await deps.registry.forget(r.session.chatKey);
      await audit(r.session.chatKey, "ok", { ...removed });
      return {
        ok: true,
        text: `已删除 ${name(r.session)}：消息 ${removed.messages} 条，记忆 ${removed.memory} 条，摘要 ${removed.summaries} 条，会话段 ${removed.conversationSessions} 个，全文索引 ${removed.messagesFts + removed.messageWindows + removed.nodesFts} 行，嵌入 ${removed.embeddings} 个，向量 ${removed.vectors} 个，候选 ${removed.candidates} 条，观察记录 ${removed.observations} 条。`,
        data: { removed },
      };
    }
    case "export": {
      const r = await resolved(op.ref);
      if (r.error) return r.error;
      const data = await deps.registry.exportData(r.session.chatKey, op.log);
      await audit(r.session.chatKey, "ok", {
        log: op.log,
        memory: data.memory.length,
        summaries: data.summaries.length,
      });
      const markdown = renderSessionExport(r.session, data, deps.now);
      return { ok: true, text: markdown, data: { markdown, session: r.session } };
    }
    case "forget-person-preview": {
      const accounts = await deps.personAccounts(op.person);
      if (accounts === null) return unknownPerson(op.person);
      const preview = await deps.registry.previewForgetPerson(op.person, accounts);
      await audit(op.person, "ok", {
        accounts: preview.accounts.join(","),
        memory: preview.memory,
        candidates: preview.candidates,
        observations: preview.observations,
      });
      return {
        ok: true,
        text: `将删除 ${previewText(op.person, preview)}。确认请加 --yes。`,
        data: { preview },
      };
    }
    case "forget-person": {
      const accounts = await deps.personAccounts(op.person);
      if (accounts === null) return unknownPerson(op.person);
      if (!op.yes) {
        const preview = await deps.registry.previewForgetPerson(op.person, accounts);
        return fail(
          { kind: "invalid", field: "yes", reason: "forgetting deletes for good; confirm to forget" },
          `⚠ 这会永久删除 ${previewText(op.person, preview)}。确认请加 --yes。`,
          op.person,
        );
      }
      const removed = await deps.registry.forgetPerson(op.person, accounts);
      await audit(op.person, "ok", {
        accounts: removed.accounts.join(","),
        memory: removed.memory,
        candidates: removed.candidates,
        observations: removed.observations,
        embeddings: removed.embeddings,
        vectors: removed.vectors,
      });
      return {
        ok: true,
        text: `已删除 ${op.person} 的个人记忆 ${removed.memory} 条、记忆候选 ${removed.candidates} 条、观察记录 ${removed.observations} 条、嵌入 ${removed.embeddings} 个、向量 ${removed.vectors} 个（账号：${removed.accounts.join("、") || "无"}）。`,
        data: { removed },
      };
    }
  }
}
