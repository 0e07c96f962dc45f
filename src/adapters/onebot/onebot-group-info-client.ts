/**
 * `get_group_info` on the OneBot v11 HTTP API: POST `{group_id}`, answered
 * `{status, retcode, data: {group_id, group_name, …}}`. Used by the cron to name groups whose
 * events carry no `group_name`.
 */
import { z } from "zod";
import { err, ok, type Result } from "../../domain/kernel/result";
import type { GroupInfoSource } from "../../domain/sessions/group-titles";

const GroupInfoResponseSchema = z.object({
  status: z.string(),
  retcode: z.number(),
  data: z.object({ group_name: z.string().nullish() }).nullish(),
  wording: z.string().nullish(),
  message: z.string().nullish(),
});

export class OneBotGroupInfoClient implements GroupInfoSource {
  readonly #apiBase: string;
  readonly #accessToken: string | undefined;
  readonly #fetch: typeof fetch;
  readonly #timeoutMs: number;

  constructor(options: { apiBase: string; accessToken?: string; fetch: typeof fetch; timeoutMs?: number }) {
    this.#apiBase = options.apiBase.trim().replace(/\/+$/, "");
    this.#accessToken = options.accessToken || undefined;
    // workerd throws "Illegal invocation" when its fetch is called as a method of another object.
    const f = options.fetch;
    this.#fetch = (input, init) => f(input, init);
    this.#timeoutMs = options.timeoutMs ?? 10_000;
  }

  async groupName(groupId: string): Promise<Result<string | null, { kind: string; message: string }>> {
    const headers: Record<string, string> = { "Content-Type": "application/json" };
    if (this.#accessToken) headers.Authorization = `Bearer ${this.#accessToken}`;
    let response: Response;
    try {
      response = await this.#fetch(`${this.#apiBase}/get_group_info`, {
        method: "POST",
        headers,
        body: JSON.stringify({ group_id: Number(groupId) }),
        signal: AbortSignal.timeout(this.#timeoutMs),
      });
    } catch (e) {
      return err({ kind: "unavailable", message: String(e).slice(0, 200) });
    }
    if (!response.ok)
      return err({ kind: "rejected", message: `OneBot API answered HTTP ${response.status}` });
    const parsed = GroupInfoResponseSchema.safeParse(await response.json().catch(() => null));
    if (!parsed.success) return err({ kind: "bad-response", message: "not a get_group_info answer" });
    const { status, retcode, data } = parsed.data;
    if (status !== "ok" || retcode !== 0)
      return err({
        kind: "rejected",
        message: `retcode ${retcode}: ${(parsed.data.wording || parsed.data.message || status).slice(0, 200)}`,
      });
    return ok(data?.group_name ?? null);
  }
}
