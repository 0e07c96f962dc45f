import type { AdminIdentity } from "./auth/admin-identity";
import type { RuntimeConfig } from "./runtime-config";

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
