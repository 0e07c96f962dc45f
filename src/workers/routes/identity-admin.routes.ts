/**
 * The identity admin API: people (declared in settings and stored), account links,
 * observations, admins, chat domains, and per shared chat who can read what. Linking and
 * unlinking go through the same domain operations as `/identity link|unlink` and are audited
 * with the acting admin; bad input is refused before anything is written.
 */
import { type Context, Hono } from "hono";
import { z } from "zod";
import { auditLog } from "../../composition/admin-services";
import { chatRegistry } from "../../composition/chat-registry";
import {
  identityAdminView,
  identityDirectory,
  turnChatLinks,
} from "../../composition/identity-admin-services";
import { loadSettings } from "../../composition/settings-source";
import { type ChatReadReport, chatReaders } from "../../domain/agent/chat-readers";
import { isOneToOneKey, parseChatKey } from "../../domain/chat/chat-address";
import type { IdentityAdminError } from "../../domain/identity/identity-admin";
import { linkAccount, unlinkAccount } from "../../domain/identity/identity-admin";
import type { AppEnv } from "../app-env";
import { problem } from "../error-response";
import { jsonBody } from "../json-body";
import { validate } from "./zod-problem";

const LIST_LIMIT = 500;
const key = z.string().trim().min(1).max(200);

const ObservationQuery = z
  .object({
    account: key.optional(),
    chat: key.optional(),
    limit: z.coerce.number().int().min(1).max(500).default(100),
  })
  .strict();

const ChatKey = key.superRefine((raw, ctx) => {
  const parsed = parseChatKey(raw);
  if (!parsed.ok)
    ctx.addIssue({ code: "custom", message: `${parsed.error.reason} (a chat key like qq:group:<id>)` });
});
const ReadersQuery = z.object({ chat: ChatKey.optional() }).strict();
const LinkBody = z.object({ account: key, person: key }).strict();
const UnlinkBody = z.object({ account: key }).strict();

/** The identity overview the API and the Identity page show. */
export async function identityOverview(env: Env) {
  const settings = await loadSettings(env);
  const view = identityAdminView(env);
  const [people, links, observations] = await Promise.all([
    view.people(LIST_LIMIT),
    view.links(LIST_LIMIT),
    view.observations({ limit: 100 }),
  ]);
  const i = settings.identity;
  return {
    enabled: i.enabled,
    declared: i.people,
    people,
    links,
    observations,
    admins: i.admins,
    chatDomains: i.chatDomains,
  };
}

/** Who can read what in each shared chat the registry knows (or in one chat). */
export async function readReports(env: Env, chat?: string): Promise<ChatReadReport[]> {
  const settings = await loadSettings(env);
  const chats = chat
    ? [chat]
    : (await chatRegistry(env).list(LIST_LIMIT)).map((c) => c.chatKey).filter((k) => !isOneToOneKey(k));
  const links = turnChatLinks(env);
  const reports: ChatReadReport[] = [];
  for (const k of chats) reports.push(await chatReaders(links, settings.identity, k));
  return reports;
}

/** A domain refusal as an API problem: a conflict with config names the account. */
export const identityProblem = (e: IdentityAdminError) =>
  e.kind === "invalid" ? e : { kind: "invalid" as const, field: "account", reason: e.reason };

async function identityDeps(c: Context<AppEnv>) {
  const settings = await loadSettings(c.env);
  return {
    identity: settings.identity,
    directory: identityDirectory(c.env),
    now: Date.now(),
    by: c.get("admin").actor,
  };
}

/** Links an account to a person; audited. Shared with the Identity page. */
export async function linkFromAdmin(c: Context<AppEnv>, account: string, person: string) {
  const deps = await identityDeps(c);
  const linked = await linkAccount(deps, account, person);
  if (!linked.ok) return linked;
  await auditLog(c.env).record({
    at: deps.now,
    actor: deps.by,
    action: "identity.link",
    chatKey: null,
    target: linked.value.account,
    detail: { person: linked.value.personId, created: linked.value.created, previous: linked.value.previous },
  });
  return linked;
}

/** Detaches an account from its person; audited. Shared with the Identity page. */
export async function unlinkFromAdmin(c: Context<AppEnv>, account: string) {
  const deps = await identityDeps(c);
  const unlinked = await unlinkAccount(deps, account);
  if (!unlinked.ok) return unlinked;
  await auditLog(c.env).record({
    at: deps.now,
    actor: deps.by,
    action: "identity.unlink",
    chatKey: null,
    target: unlinked.value.account,
    detail: { previous: unlinked.value.previous },
  });
  return unlinked;
}

export const identityAdminRoutes = new Hono<AppEnv>()
  .get("/", async (c) => c.json(await identityOverview(c.env)))
  .get("/observations", async (c) => {
    const q = validate(ObservationQuery, c.req.query());
    if (!q.ok) return problem(c, q.error);
    const { account, chat, limit } = q.value;
    const observations = await identityAdminView(c.env).observations({
      limit,
      ...(account ? { account } : {}),
      ...(chat ? { chat } : {}),
    });
    return c.json({ observations });
  })
  .get("/readers", async (c) => {
    const q = validate(ReadersQuery, c.req.query());
    if (!q.ok) return problem(c, q.error);
    return c.json({ chats: await readReports(c.env, q.value.chat) });
  })
  .post("/link", jsonBody(LinkBody), async (c) => {
    const body = c.req.valid("json");
    const linked = await linkFromAdmin(c, body.account, body.person);
    if (!linked.ok) return problem(c, identityProblem(linked.error));
    return c.json(linked.value);
  })
  .post("/unlink", jsonBody(UnlinkBody), async (c) => {
    const body = c.req.valid("json");
    const unlinked = await unlinkFromAdmin(c, body.account);
    if (!unlinked.ok) return problem(c, identityProblem(unlinked.error));
    return c.json(unlinked.value);
  });
