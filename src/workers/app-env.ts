import type { RuntimeConfig } from "../composition/runtime-config";
import type { AdminIdentity } from "./auth/admin-identity";

export type AppEnv = {
  Bindings: Env;
  Variables: {
    config: RuntimeConfig;
    /** Sends a request through this same app, as if it arrived from outside (dev console). */
    selfFetch: (request: Request) => Promise<Response>;
    /** The admin behind an /api or /admin request, set by the admin guard. */
    admin: AdminIdentity;
  };
};
