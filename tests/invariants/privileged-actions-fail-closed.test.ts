// Own file: it changes the stored settings (identity enabled without admins).
import { env } from "cloudflare:workers";
import { beforeAll, it } from "vitest";
import { auditRowsOnceThere, groupBodyWithIdentity, uid } from "../support/identity";
import { eventIdOf, postQq, turnDone } from "../support/qq-events";
import { storeSettings } from "../support/stored-settings";

beforeAll(async () => {
  await storeSettings(env, { identity: { enabled: true, admins: [] } });
});

it("refuses every admin command when identity is enabled without admins, saying why", async ({ expect }) => {
  const group = uid("G");
  const member = uid("M");
  const body = groupBodyWithIdentity({ group, member, text: `/identity whois qq:user:${member}` });
  expect((await postQq(body)).status).toBe(200);
  const status = await turnDone(`qq:group:${group}`, eventIdOf(body));
  const reply = status.replies[0]?.text ?? "";
  expect(reply).toContain("identity.admins 为空");
  expect(reply).toContain("fail closed");
  const audit = await auditRowsOnceThere(`qq:group:${group}`);
  expect(audit).toMatchObject([
    { action: "identity.whois", detail: { outcome: "refused", cause: "no-admins" } },
  ]);
});
