/**
 * `link` and `unlink` (docs/sessions.md#commands): joining a chat to another's memory cluster,
 * which asks for confirmation when a group would read a private chat's public memory, and
 * leaving a cluster so that each side's memory is its own again.
 */
import { exposuresOfLink } from "./cluster-exposure";
import { name, type OperationHandlers, riskText } from "./operation-context";

export const link: OperationHandlers["link"] = async (op, { deps, audit, fail, resolved }) => {
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
  const warn = exposures.length ? `\n⚠ ${riskText(exposures)}（个人的 private/secret 条目仍不会进群）。` : "";
  return {
    ok: true,
    text: `已把 ${name(b.session)} 并入 ${name(a.session)} 的记忆组 ${a.session.clusterId}：此后组内会话互相可读公开记忆（条目保留原归属，unlink 即刻恢复隔离；私聊里学到的只留在私聊）。${warn}`,
    data: { cluster: a.session.clusterId, exposures },
  };
};

export const unlink: OperationHandlers["unlink"] = async (op, { deps, audit, resolved }) => {
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
};
