/** `/identity link|unlink|whois`: admin-only identity management in chat (docs/identity.md#authorization). */
import { gateFor } from "../../authorization/authorization-gate";
import type { Command } from "../command";
import { IDENTITY_ACTION, type IdentityOperation, manageIdentity } from "../identity-management";

const USAGE = [
  "用法（仅管理员）：",
  "/identity link <account> <person> — 把账号关联到人物（例如 /identity link qq:user:<openid> alice）",
  "/identity unlink <account> — 解除账号的人物关联",
  "/identity whois [account] — 查看账号属于谁（省略则查自己）",
].join("\n");

export const identityCommand: Command = {
  name: "identity",
  usage: "/identity link|unlink|whois …",
  summary: "（管理员）关联账号与人物、查询身份",
  async run(args, ctx, services) {
    const operation = parseIdentityArgs(args);
    if (!operation) {
      // Non-admins learn that they may not, not how to.
      const authorized = gateFor(ctx.settings.identity).requireAdmin(IDENTITY_ACTION, ctx.sender?.account);
      services.audit.record({
        action: "identity.usage",
        actor: ctx.sender?.account ?? null,
        target: null,
        outcome: authorized.ok ? "invalid" : "refused",
        detail: { via: "command", ...(authorized.ok ? {} : { cause: authorized.error.cause }) },
      });
      return authorized.ok ? USAGE : `⛔ ${authorized.error.reason}`;
    }
    return (await manageIdentity(operation, "command", ctx, services)).text;
  },
};

/** `link <account> <person>`, `unlink <account>`, `whois [account]`; null for anything else. */
export function parseIdentityArgs(args: string): IdentityOperation | null {
  const [sub = "", ...rest] = args.split(/\s+/).filter(Boolean);
  switch (sub.toLowerCase()) {
    case "link":
      return rest.length === 2 ? { op: "link", account: rest[0] ?? "", person: rest[1] ?? "" } : null;
    case "unlink":
      return rest.length === 1 ? { op: "unlink", account: rest[0] ?? "" } : null;
    case "whois":
      return rest.length <= 1 ? { op: "whois", account: rest[0] ?? null } : null;
    default:
      return null;
  }
}
