/** The owner's leave-out list (privacy.doNotRecord) through its admin API route. */
import { api } from "./knowledge-api";

/** GET the list, POST an account onto it (with `forget` to delete its past), or DELETE it off. */
export async function leaveOut(method: "GET" | "POST" | "DELETE", body?: unknown) {
  const res = await api("/api/leave-out", {
    method,
    ...(body === undefined
      ? {}
      : { headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}
