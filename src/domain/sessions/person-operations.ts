/**
 * Forgetting a person (docs/sessions.md#commands): the preview of what would go, and the
 * deletion itself, which asks for confirmation first. Both refuse a person nobody knows.
 */
import type { OperationHandlers } from "./operation-context";
import type { PersonForgetPreview } from "./session-registry";

const previewText = (person: string, p: PersonForgetPreview) =>
  `${person} 的个人记忆 ${p.memory} 条、记忆候选 ${p.candidates} 条、观察记录 ${p.observations} 条（账号：${p.accounts.join("、") || "无"}）`;

export const forgetPersonPreview: OperationHandlers["forget-person-preview"] = async (
  op,
  { deps, audit, unknownPerson },
) => {
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
};

export const forgetPerson: OperationHandlers["forget-person"] = async (
  op,
  { deps, audit, fail, unknownPerson },
) => {
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
};
