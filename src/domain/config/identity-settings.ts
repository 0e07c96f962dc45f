/**
 * The `identity` section of the behaviour settings (docs/identity.md): whether identity is
 * on, the people the owner declares, the admins and the chat domains. Keys are checked with
 * the same parsers the rest of the system uses, and cross-references (one account in two
 * people, an unknown person, one chat in two domains) are refused with the field named, so a
 * bad layer is rejected whole by `resolveSettings`.
 */
import { z } from "zod";
import { parseAccountKey, parseChatKey } from "../chat/chat-address";
import { parsePersonId } from "../identity/person";
import { visibleText } from "../text/visible-text";

/** An admin entry naming a declared person instead of an account: `person:<id>`. */
export const ADMIN_PERSON_PREFIX = "person:";

const DOMAIN_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

const AccountKeyField = z.string().superRefine((raw, ctx) => {
  const parsed = parseAccountKey(raw);
  if (!parsed.ok) ctx.addIssue({ code: "custom", message: parsed.error.reason });
});

const ChatKeyField = z.string().superRefine((raw, ctx) => {
  const parsed = parseChatKey(raw);
  if (!parsed.ok)
    ctx.addIssue({ code: "custom", message: `${parsed.error.reason} (expected channel:type:id)` });
});

const PersonIdField = z.string().superRefine((raw, ctx) => {
  const parsed = parsePersonId(raw);
  if (!parsed.ok) ctx.addIssue({ code: "custom", message: parsed.error.reason });
});

/** An account key, or `person:<id>` meaning every account config declares for that person. */
const AdminField = z.string().superRefine((raw, ctx) => {
  if (raw.startsWith(ADMIN_PERSON_PREFIX)) {
    const parsed = parsePersonId(raw.slice(ADMIN_PERSON_PREFIX.length));
    if (!parsed.ok) ctx.addIssue({ code: "custom", message: parsed.error.reason });
    return;
  }
  const parsed = parseAccountKey(raw);
  if (!parsed.ok) {
    ctx.addIssue({ code: "custom", message: `${parsed.error.reason}, or person:<id> of a declared person` });
  }
});

const PersonSchema = z
  .object({
    id: PersonIdField,
    // Stored as seen: no direction overrides or zero-width characters (visible-text.ts).
    displayName: z.string().transform(visibleText).pipe(z.string().min(1).max(64)),
    /** Account keys (`qq:user:<openid>`, `onebot:user:<qq>`) that are this person. */
    accounts: z.array(AccountKeyField).max(100),
  })
  .strict();

export const IdentitySettingsSchema = z
  .object({
    /** Off: every sender is just their account, and privileged tools and commands are refused. */
    enabled: z.boolean(),
    people: z.array(PersonSchema).max(1000),
    /** Account keys (or `person:<id>`) allowed to run privileged tools and admin commands. */
    admins: z.array(AdminField).max(200),
    /** Domain name → chat keys; chat-domain tools may reach only chats of the current chat's domain. */
    chatDomains: z.record(z.string(), z.array(ChatKeyField).max(500)),
  })
  .strict()
  .superRefine((identity, ctx) => {
    const personAt = new Map<string, number>();
    const accountAt = new Map<string, { person: string; path: string }>();
    identity.people.forEach((person, i) => {
      const prior = personAt.get(person.id);
      if (prior !== undefined) {
        ctx.addIssue({
          code: "custom",
          path: ["people", i, "id"],
          message: `duplicate person id '${person.id}' (also people.${prior})`,
        });
      } else personAt.set(person.id, i);
      person.accounts.forEach((account, j) => {
        const owner = accountAt.get(account);
        if (owner) {
          ctx.addIssue({
            code: "custom",
            path: ["people", i, "accounts", j],
            message: `account '${account}' is already declared for person '${owner.person}' (${owner.path})`,
          });
        } else accountAt.set(account, { person: person.id, path: `people.${i}.accounts.${j}` });
      });
    });
    identity.admins.forEach((admin, i) => {
      if (!admin.startsWith(ADMIN_PERSON_PREFIX)) return;
      const id = admin.slice(ADMIN_PERSON_PREFIX.length);
      if (!personAt.has(id)) {
        ctx.addIssue({
          code: "custom",
          path: ["admins", i],
          message: `unknown person '${id}' (not declared in identity.people)`,
        });
      }
    });
    const domainOf = new Map<string, string>();
    for (const [name, chats] of Object.entries(identity.chatDomains)) {
      if (!DOMAIN_NAME.test(name)) {
        ctx.addIssue({
          code: "custom",
          path: ["chatDomains", name],
          message: "is not a domain name (1–64 letters, digits, '_', '.' or '-')",
        });
      }
      chats.forEach((chat, j) => {
        const other = domainOf.get(chat);
        if (other !== undefined) {
          ctx.addIssue({
            code: "custom",
            path: ["chatDomains", name, j],
            message:
              other === name
                ? `chat '${chat}' is listed twice`
                : `chat '${chat}' is already in domain '${other}' (a chat belongs to one domain)`,
          });
        } else domainOf.set(chat, name);
      });
    }
  });

export type IdentitySettings = z.infer<typeof IdentitySettingsSchema>;

export const DEFAULT_IDENTITY_SETTINGS: IdentitySettings = {
  enabled: false,
  people: [],
  admins: [],
  chatDomains: {},
};

/** The declared person owning an account, if config declares one. */
export function declaredPersonOf(
  identity: IdentitySettings,
  account: string,
): IdentitySettings["people"][number] | null {
  return identity.people.find((p) => p.accounts.includes(account)) ?? null;
}
