// Own file: it changes the stored settings, which every test of a file shares.
import { env } from "cloudflare:workers";
import { ConfigError } from "@src/composition/common/runtime-config";
import { loadSettings } from "@src/composition/settings/settings-loader";
import { afterEach, it } from "vitest";
import { storedSettings } from "../../support/stored-settings";

const store = storedSettings(env);
const withVar = (value: unknown) => ({ ...env, AKASHA_CONFIG: JSON.stringify(value) }) as Env;

afterEach(async () => {
  await store.write("{}", "test", Date.now());
});

it("refuses an AKASHA_CONFIG whose identity section is invalid, naming the field", async ({ expect }) => {
  const bad = withVar({ identity: { enabled: true, admins: ["person:ghost"] } });
  const failure = await loadSettings(bad).catch((e: unknown) => e);
  expect(failure).toBeInstanceOf(ConfigError);
  expect(String(failure)).toContain("identity.admins.0");
  expect(String(failure)).toContain("unknown person 'ghost'");
});

it("ignores a stored layer with a bad identity field as a whole and keeps the var layer", async ({
  expect,
}) => {
  await store.write(
    JSON.stringify({
      follow: { groups: ["qq:group:FROM_STORED"] },
      identity: {
        enabled: true,
        people: [
          { id: "a", displayName: "A", accounts: ["qq:user:X"] },
          { id: "b", displayName: "B", accounts: ["qq:user:X"] },
        ],
      },
    }),
    "test",
    Date.now(),
  );
  const settings = await loadSettings(withVar({ follow: { groups: ["qq:group:FROM_VAR"] } }));
  // Nothing of the stored layer is applied, not even its valid follow list.
  expect(settings.follow.groups).toEqual(["qq:group:FROM_VAR"]);
  expect(settings.identity.enabled).toBe(false);
  expect(settings.identity.people).toEqual([]);
});

it("applies a valid stored identity layer over the var", async ({ expect }) => {
  await store.write(
    JSON.stringify({ identity: { enabled: true, admins: ["qq:user:ADMIN"] } }),
    "test",
    Date.now(),
  );
  const settings = await loadSettings(withVar({ identity: { chatDomains: { c: ["qq:group:G1"] } } }));
  expect(settings.identity).toEqual({
    enabled: true,
    people: [],
    admins: ["qq:user:ADMIN"],
    chatDomains: { c: ["qq:group:G1"] },
  });
});
