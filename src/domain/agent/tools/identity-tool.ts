/** `identity_manage`: the `/identity` operations for the model, admin-only. */
import { type IdentityOperation, manageIdentity } from "../identity-management";
import type { Tool } from "../tool";

function operationOf(args: unknown): IdentityOperation | string {
  const a = typeof args === "object" && args !== null ? (args as Record<string, unknown>) : {};
  const account = typeof a.account === "string" && a.account !== "" ? a.account : null;
  switch (a.action) {
    case "link":
      if (account === null || typeof a.person !== "string" || a.person === "")
        return "link 需要 account 和 person";
      return { op: "link", account, person: a.person };
    case "unlink":
      return account === null ? "unlink 需要 account" : { op: "unlink", account };
    case "whois":
      return { op: "whois", account };
    default:
      return "action 必须是 link、unlink 或 whois";
  }
}

export const identityManageTool: Tool = {
  spec: {
    name: "identity_manage",
    description:
      "（仅管理员）管理身份：link 把账号关联到人物，unlink 解除关联，whois 查询账号属于谁。账号格式 channel:user:<id>。",
    parameters: {
      type: "object",
      properties: {
        action: { type: "string", enum: ["link", "unlink", "whois"] },
        account: { type: "string", description: "账号，例如 qq:user:<openid>；whois 省略则查发送者自己" },
        person: { type: "string", description: "人物 id（link 时必填）" },
      },
      required: ["action"],
      additionalProperties: false,
    },
  },
  requiresAdmin: true,
  scope: "none",
  async run(args, ctx, services) {
    const operation = operationOf(args);
    if (typeof operation === "string") return { ok: false, content: operation };
    const answer = await manageIdentity(operation, "tool", ctx, services);
    return { ok: answer.ok, content: answer.text };
  },
};
