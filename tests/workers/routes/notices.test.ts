// GET /api/notices lists the open notices; POST /api/notices/:id/ack hides one and audits it.
// An unknown or already acknowledged id, an id that is not a number, a body that is not a JSON
// object and a notice still under its threshold are refused with a clear error and change nothing.
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ADMIN_TOKEN } from "../../support/admin-session";
import { ackAudit, noticeRow, seedNotice } from "../../support/owner-notices";

const api = (path: string, init: { method?: string; body?: string; token?: string } = {}) =>
  exports.default.fetch(
    new Request(`https://bot.test/api${path}`, {
      method: init.method ?? "GET",
      headers: {
        authorization: `Bearer ${init.token ?? ADMIN_TOKEN}`,
        ...(init.body !== undefined ? { "content-type": "application/json" } : {}),
      },
      ...(init.body !== undefined ? { body: init.body } : {}),
    }),
  );

// The first request of a fresh isolate loads the app's models and settings: slow under load.
describe("/api/notices", { timeout: 120_000 }, () => {
  it("lists open notices, acknowledges one once with an audit row, and no longer lists it", async () => {
    const id = await seedNotice();
    const waiting = await seedNotice({ kind: "model-errors", subject: `p${id}:timeout`, raised: false });
    const listed = (await (await api("/notices")).json()) as { notices: { id: number; text: string }[] };
    expect(listed.notices.map((n) => n.id)).toContain(id);
    expect(listed.notices.map((n) => n.id)).not.toContain(waiting);
    const ack = await api(`/notices/${id}/ack`, { method: "POST" });
    expect(ack.status).toBe(200);
    expect(await ack.json()).toMatchObject({ notice: { id }, message: `acknowledged #${id}` });
    expect((await noticeRow(id))?.acknowledged_at).not.toBeNull();
    expect(await ackAudit(id)).toHaveLength(1);
    const after = (await (await api("/notices")).json()) as { notices: { id: number }[] };
    expect(after.notices.map((n) => n.id)).not.toContain(id);
    const all = (await (await api("/notices?all=1")).json()) as { notices: { id: number }[] };
    expect(all.notices.map((n) => n.id)).toContain(id);
    // Twice: not found, and no second audit row.
    const again = await api(`/notices/${id}/ack`, { method: "POST", body: "{}" });
    expect(again.status).toBe(404);
    expect(await again.json()).toEqual({ error: "not-found", what: `open notice #${id}` });
    expect(await ackAudit(id)).toHaveLength(1);
  });

  it.each([
    ["an unknown id", "/notices/999999999/ack", undefined, 404],
    ["an id that is not a number", "/notices/1%20OR%201/ack", undefined, 400],
    ["a negative id", "/notices/-1/ack", undefined, 400],
    ["a body that is not JSON", "/notices/ID/ack", "ack please", 400],
    ["a body that is a JSON array", "/notices/ID/ack", "[1]", 400],
  ])("refuses %s and changes nothing", async (_what, path, body, status) => {
    const id = await seedNotice();
    const res = await api(path.replace("ID", String(id)), {
      method: "POST",
      ...(body !== undefined ? { body } : {}),
    });
    expect(res.status).toBe(status);
    expect(((await res.json()) as { error: string }).error).toBe(status === 404 ? "not-found" : "invalid");
    expect((await noticeRow(id))?.acknowledged_at).toBeNull();
    expect(await ackAudit(id)).toEqual([]);
  });

  it("refuses a notice still under its threshold, and a request without the admin token", async () => {
    const waiting = await seedNotice({
      kind: "model-errors",
      subject: `w:${crypto.randomUUID().slice(0, 8)}`,
      raised: false,
    });
    expect((await api(`/notices/${waiting}/ack`, { method: "POST" })).status).toBe(404);
    const id = await seedNotice();
    expect(
      (await api(`/notices/${id}/ack`, { method: "POST", token: "wrong-token-wrong-token" })).status,
    ).toBe(401);
    expect((await noticeRow(id))?.acknowledged_at).toBeNull();
  });
});
