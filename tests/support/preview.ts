/** Calls POST /api/context/preview through the real Worker entry. */
import { exports } from "cloudflare:workers";
import type { TurnPreview } from "@src/domain/agent/turn-preview";

export const ADMIN_TOKEN = "test-admin-token";

export async function previewResponse(body: unknown, token: string | null = ADMIN_TOKEN) {
  return exports.default.fetch(
    new Request("https://bot.test/api/context/preview", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(token === null ? {} : { authorization: `Bearer ${token}` }),
      },
      body: JSON.stringify(body),
    }),
  );
}

export async function preview(body: {
  chat: string;
  text: string;
  sender?: string;
  name?: string;
}): Promise<TurnPreview> {
  const res = await previewResponse(body);
  if (res.status !== 200) throw new Error(`preview answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as TurnPreview;
}

/** Every text the turn would see: mandatory block, recalled items and the messages. */
export const everything = (p: TurnPreview) => JSON.stringify(p);
