/**
 * The session operations on one chat (docs/sessions.md#commands): list, info, rename, retention,
 * store, forget and export. Each audits its use and answers in text and data.
 */
import { privateChatsReadBy } from "./cluster-exposure";
import { line, name, type OperationHandlers, riskText } from "./operation-context";
import { renderSessionExport } from "./session-export";
import { aliasProblem, MAX_KEEP_DAYS } from "./session-operation";

/** `/session list` without --all: chats active in this many days. */
export const RECENT_DAYS = 30;
const LIST_LIMIT = 500;
const DAY_MS = 86_400_000;

export const list: OperationHandlers["list"] = async (op, { deps, audit }) => {
  const since = op.all ? undefined : deps.now - RECENT_DAYS * DAY_MS;
  const sessions = await deps.registry.list({ since, limit: LIST_LIMIT });
  await audit(null, "ok", { count: sessions.length, all: op.all });
  const text = sessions.length
    ? sessions.map(line).join("\n")
    : op.all
      ? "还没有会话。"
      : `最近 ${RECENT_DAYS} 天没有活跃的会话（--all 列出全部）。`;
  return { ok: true, text, data: { sessions } };
};

export const info: OperationHandlers["info"] = async (op, { deps, audit, resolved }) => {
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
    members.length > 1 ? `记忆组 ${s.clusterId}：${members.map(name).join("、")}` : "记忆组：独占（未关联）",
    ...(readsPrivate.length ? [`⚠ ${riskText(readsPrivate)}`] : []),
  ];
  return { ok: true, text: lines.join("\n"), data: { session: s, members, readsPrivate } };
};

export const rename: OperationHandlers["rename"] = async (op, { deps, audit, fail, resolved }) => {
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
};

export const retention: OperationHandlers["retention"] = async (op, { deps, audit, fail, resolved }) => {
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
};

export const store: OperationHandlers["store"] = async (op, { deps, audit, resolved }) => {
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
};

export const forget: OperationHandlers["forget"] = async (op, { deps, audit, fail, resolved }) => {
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
};

export const exportSession: OperationHandlers["export"] = async (op, { deps, audit, resolved }) => {
  const r = await resolved(op.ref);
  if (r.error) return r.error;
  const data = await deps.registry.exportData(r.session.chatKey, op.log);
  await audit(r.session.chatKey, "ok", {
    log: op.log,
    memory: data.memory.length,
    summaries: data.summaries.length,
  });
  const markdown = renderSessionExport(r.session, data, deps.now, deps.timeZone);
  return { ok: true, text: markdown, data: { markdown, session: r.session } };
};
