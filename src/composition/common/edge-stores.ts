/** The D1 adapters of the admin sign-in (failed logins) and of the ops log (errors, retention runs). */
import { D1OpsLog } from "../../adapters/d1/d1-ops-log";
import { D1LoginThrottle } from "../../adapters/d1/login-throttle";

export const loginThrottle = (env: Env) => new D1LoginThrottle(env.DB);
export const opsLog = (env: Env) => new D1OpsLog(env.DB);
