/** Who an admin request comes from and through which face: what every admin service records. */
import type { RuntimeConfig } from "../common/runtime-config";

export type AdminRequest = {
  /** What the audit log records as the actor. */
  readonly actor: string;
  /** The face the request came through, recorded in audit rows as `via`. */
  readonly via: "api" | "dashboard" | "dev-bench";
  readonly config: RuntimeConfig;
};
