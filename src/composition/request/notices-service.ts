/**
 * Notices to the owner as admins see them (docs/decisions/0280-notices-to-the-owner.md): the
 * open ones (or all), and the acknowledgement of one, audited with the acting admin and the face
 * it came through. An acknowledged notice is no longer shown; a repeat opens a new one.
 */
import { D1OwnerNotices } from "../../adapters/d1/d1-owner-notices";
import { err, type Result } from "../../domain/kernel/result";
import type { AckError } from "../../domain/notices/notice-book";
import type { OwnerNotice } from "../../domain/notices/owner-notice";
import type { AdminRequest } from "./admin-request";

const LIMIT = 100;
const ID = /^[1-9]\d{0,11}$/;

export function noticesService(env: Env, who: AdminRequest) {
  const book = new D1OwnerNotices(env.DB);
  return {
    list: (all = false): Promise<OwnerNotice[]> => book.list({ all, limit: LIMIT }),

    /** `id` as it came (a path segment, a form field): anything but a notice number is refused. */
    async acknowledge(
      id: string,
    ): Promise<Result<OwnerNotice, AckError | { kind: "invalid"; field: string; reason: string }>> {
      if (!ID.test(id))
        return err({ kind: "invalid", field: "id", reason: `'${id.slice(0, 20)}' is not a notice number` });
      return book.acknowledge(Number(id), Date.now(), { actor: who.actor, via: who.via });
    },
  };
}

export type NoticesService = ReturnType<typeof noticesService>;
