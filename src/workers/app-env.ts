import type { AdminServices } from "../composition/request/admin-services";
import type { RuntimeConfig } from "../composition/shared/runtime-config";
import type { AdminIdentity } from "./auth/admin-identity";

export type AppEnv = {
  Bindings: Env;
  Variables: {
    config: RuntimeConfig;
    /** The admin behind an /api or /admin request, set by the admin guard. */
    admin: AdminIdentity;
    /** The admin service layer of an /api or /admin request, built after the guard (admin-services.ts). */
    services: AdminServices;
  };
};
