/**
 * The session registry's admin API (docs/sessions.md#commands): the same operations as the
 * `/session` command and the owner CLI, through the same `runSessionOperation`, so validation,
 * confirmation and audit agree. Bad input is refused before anything changes; every call is
 * audited with the acting admin and the request as its command text.
 */
import { type Context, Hono } from "hono";
import { z } from "zod";
import { MAX_KEEP_DAYS, type SessionOperation } from "../../domain/sessions/session-operation";
import { requestLine } from "../admin-input/request-line";
import { validate } from "../admin-input/validate";
import type { AppEnv } from "../app-env";
import { problem } from "../error-response";
import { jsonBody } from "../json-body";

const ref = z.string().regex(/^[^\s/]{1,200}$/, "must be a session id, an alias or a chat key");
const flag = z.enum(["true", "false", "1", "0"]).transform((v) => v === "true" || v === "1");

const ListQuery = z.object({ all: flag.optional() }).strict();
const ExportQuery = z.object({ log: flag.optional() }).strict();
const LinkBody = z.object({ with: ref, confirm: z.boolean().optional() }).strict();
const RenameBody = z.object({ alias: z.string().trim().min(1).max(40) }).strict();
const RetentionBody = z.object({ days: z.number().int().min(1).max(MAX_KEEP_DAYS).nullable() }).strict();
const StoreBody = z.object({ enabled: z.boolean() }).strict();
/** Forgetting deletes for good: the caller repeats what it names to confirm. */
const ForgetBody = z.object({ confirm: z.string().max(200) }).strict();

/** Runs one operation, audited with the request (method, path, query, body) as its command text. */
function runSessionRequest(c: Context<AppEnv>, op: SessionOperation, body?: unknown) {
  return c.get("services").sessions.run(op, requestLine(c, body));
}

const BAD_REF = {
  kind: "invalid",
  field: "ref",
  reason: "must be a session id, an alias or a chat key",
} as const;

function refOf(c: Context<AppEnv>) {
  return validate(ref, c.req.param("ref"));
}

type Answer = Awaited<ReturnType<typeof runSessionRequest>>;
const answer = (c: Context<AppEnv>, a: Answer) =>
  a.ok ? c.json({ ...a.data, message: a.text }) : problem(c, a.error);

export const sessionsRoutes = new Hono<AppEnv>()
  .get("/", async (c) => {
    const q = validate(ListQuery, c.req.query());
    if (!q.ok) return problem(c, q.error);
    return answer(c, await runSessionRequest(c, { op: "list", all: q.value.all ?? false }));
  })
  /** The confirm step: what forgetting this person would remove, counted; nothing is removed. */
  .get("/people/:person/forget", async (c) => {
    const person = validate(ref, c.req.param("person"));
    if (!person.ok) return problem(c, { kind: "invalid", field: "person", reason: "must be a person id" });
    return answer(c, await runSessionRequest(c, { op: "forget-person-preview", person: person.value }));
  })
  .post("/people/:person/forget", jsonBody(ForgetBody), async (c) => {
    const person = validate(ref, c.req.param("person"));
    if (!person.ok) return problem(c, { kind: "invalid", field: "person", reason: "must be a person id" });
    const body = c.req.valid("json");
    return answer(
      c,
      await runSessionRequest(
        c,
        { op: "forget-person", person: person.value, yes: body.confirm === person.value },
        body,
      ),
    );
  })
  .get("/:ref", async (c) => {
    const r = refOf(c);
    if (!r.ok) return problem(c, BAD_REF);
    return answer(c, await runSessionRequest(c, { op: "info", ref: r.value }));
  })
  /** Whose private chats this group reads through its cluster (the dashboard's risk marker). */
  .get("/:ref/private-readers", async (c) => {
    const r = refOf(c);
    if (!r.ok) return problem(c, BAD_REF);
    const exposures = await c.get("services").sessions.privateReaders(r.value);
    return exposures ? c.json({ exposures }) : problem(c, { kind: "not-found", what: `session ${r.value}` });
  })
  .get("/:ref/export", async (c) => {
    const r = refOf(c);
    if (!r.ok) return problem(c, BAD_REF);
    const q = validate(ExportQuery, c.req.query());
    if (!q.ok) return problem(c, q.error);
    const a = await runSessionRequest(c, { op: "export", ref: r.value, log: q.value.log ?? false });
    if (!a.ok) return problem(c, a.error);
    const session = a.data.session as { sessionId: string };
    return c.body(String(a.data.markdown), 200, {
      "content-type": "text/markdown; charset=utf-8",
      "content-disposition": `attachment; filename="${session.sessionId}.md"`,
    });
  })
  .post("/:ref/link", jsonBody(LinkBody), async (c) => {
    const r = refOf(c);
    if (!r.ok) return problem(c, BAD_REF);
    const body = c.req.valid("json");
    return answer(
      c,
      await runSessionRequest(c, { op: "link", a: r.value, b: body.with, yes: body.confirm === true }, body),
    );
  })
  .post("/:ref/unlink", async (c) => {
    const r = refOf(c);
    if (!r.ok) return problem(c, BAD_REF);
    return answer(c, await runSessionRequest(c, { op: "unlink", ref: r.value }));
  })
  .post("/:ref/rename", jsonBody(RenameBody), async (c) => {
    const r = refOf(c);
    if (!r.ok) return problem(c, BAD_REF);
    const body = c.req.valid("json");
    return answer(c, await runSessionRequest(c, { op: "rename", ref: r.value, alias: body.alias }, body));
  })
  .post("/:ref/retention", jsonBody(RetentionBody), async (c) => {
    const r = refOf(c);
    if (!r.ok) return problem(c, BAD_REF);
    const body = c.req.valid("json");
    return answer(c, await runSessionRequest(c, { op: "retention", ref: r.value, days: body.days }, body));
  })
  .post("/:ref/store", jsonBody(StoreBody), async (c) => {
    const r = refOf(c);
    if (!r.ok) return problem(c, BAD_REF);
    const body = c.req.valid("json");
    return answer(c, await runSessionRequest(c, { op: "store", ref: r.value, enabled: body.enabled }, body));
  })
  .post("/:ref/forget", jsonBody(ForgetBody), async (c) => {
    const r = refOf(c);
    if (!r.ok) return problem(c, BAD_REF);
    const body = c.req.valid("json");
    return answer(
      c,
      await runSessionRequest(c, { op: "forget", ref: r.value, yes: body.confirm === r.value }, body),
    );
  });
