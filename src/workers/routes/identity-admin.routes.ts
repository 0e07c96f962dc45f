/**
 * The identity admin API: people (declared in settings and stored), account links,
 * observations, admins, chat domains, per shared chat who can read what, and a person's profiles. Linking and
 * unlinking go through the same domain operations as `/identity link|unlink` and are audited
 * with the acting admin; bad input is refused before anything is written.
 */
import { Hono } from "hono";
import { z } from "zod";
import { parseChatKey } from "../../domain/chat/chat-address";
import { validate } from "../admin-input/validate";
import type { AppEnv } from "../app-env";
import { problem } from "../error-response";
import { jsonBody } from "../json-body";

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
const ProfilesQuery = z.object({ person: key }).strict();
const LinkBody = z.object({ account: key, person: key }).strict();
const UnlinkBody = z.object({ account: key }).strict();

export const identityAdminRoutes = new Hono<AppEnv>()
  .get("/", async (c) => c.json(await c.get("services").identity.overview()))
  .get("/observations", async (c) => {
    const q = validate(ObservationQuery, c.req.query());
    if (!q.ok) return problem(c, q.error);
    const { account, chat, limit } = q.value;
    const observations = await c.get("services").identity.observations({
      limit,
      ...(account ? { account } : {}),
      ...(chat ? { chat } : {}),
    });
    return c.json({ observations });
  })
  .get("/readers", async (c) => {
    const q = validate(ReadersQuery, c.req.query());
    if (!q.ok) return problem(c, q.error);
    return c.json({ chats: await c.get("services").identity.readers(q.value.chat) });
  })
  /** A person's two profiles per account (group: public items alone; their own chat). */
  .get("/profiles", async (c) => {
    const q = validate(ProfilesQuery, c.req.query());
    if (!q.ok) return problem(c, q.error);
    const found = await c.get("services").identity.profiles(q.value.person);
    if (!found.ok) return problem(c, found.error);
    return c.json(found.value);
  })
  .post("/link", jsonBody(LinkBody), async (c) => {
    const body = c.req.valid("json");
    const linked = await c.get("services").identity.link(body.account, body.person);
    if (!linked.ok) return problem(c, linked.error);
    return c.json(linked.value);
  })
  .post("/unlink", jsonBody(UnlinkBody), async (c) => {
    const body = c.req.valid("json");
    const unlinked = await c.get("services").identity.unlink(body.account);
    if (!unlinked.ok) return problem(c, unlinked.error);
    return c.json(unlinked.value);
  });
