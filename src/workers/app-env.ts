import type { RuntimeConfig } from "../composition/common/runtime-config";
import type { AdminServices } from "../composition/request/admin-services";
import type { AdminIdentity } from "./auth/admin-identity";
import type { I18n } from "./dashboard/i18n/i18n";

export type AppEnv = {
  Bindings: Env;
  Variables: {
    config: RuntimeConfig;
    /** The admin behind an /api or /admin request, set by the admin guard. */
    admin: AdminIdentity;
    /** The admin service layer of an /api or /admin request, built after the guard (admin-services.ts). */
    services: AdminServices;
    /** The language of an /admin request and its translator (dashboard/i18n/language.ts). */
    i18n: I18n;
  };
};
