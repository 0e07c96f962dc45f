/** The D1 adapters behind the dashboard and the admin API's memory, audit, usage and login routes. */
import { D1AdminStats } from "../adapters/d1/d1-admin-stats";
import { D1AuditLog } from "../adapters/d1/d1-audit-log";
import { D1MemoryAdmin } from "../adapters/d1/d1-memory-admin";
import { D1MessageBrowser } from "../adapters/d1/d1-message-browser";
import { D1OpsLog } from "../adapters/d1/d1-ops-log";
import { D1LoginThrottle } from "../adapters/d1/login-throttle";

export const memoryAdmin = (env: Env) => new D1MemoryAdmin(env.DB);
export const auditLog = (env: Env) => new D1AuditLog(env.DB);
export const adminStats = (env: Env) => new D1AdminStats(env.DB);
export const loginThrottle = (env: Env) => new D1LoginThrottle(env.DB);
export const messageBrowser = (env: Env) => new D1MessageBrowser(env.DB);
export const opsLog = (env: Env) => new D1OpsLog(env.DB);
