/**
 * The admin service layer: one object per /api and /admin request, built after the admin
 * guard (which names the actor) and handed to the route as the `services` context variable.
 * The JSON routes and the dashboard pages are two thin faces over it: they parse their input
 * and render their answer, and everything else — reads, validation past the wire format,
 * writes and their audit rows — happens here, the same for both. Settings are read once per
 * request (a save through `settings` makes the rest of the request see the new ones).
 */
import { settingsSource } from "../settings/settings-loader";
import type { AdminRequest } from "./admin-request";
import { backfillService } from "./backfill-service";
import { chatsService } from "./chats-service";
import { credentialSweepService } from "./credential-sweep-service";
import { doctorService } from "./doctor-service";
import { identityService } from "./identity-service";
import { insightsService } from "./insights-service";
import { knowledgeService } from "./knowledge-service";
import { logMigrationService } from "./log-migration-service";
import { memoryService } from "./memory-service";
import { migrationsService } from "./migrations-service";
import { noticesService } from "./notices-service";
import { ownerService } from "./owner-service";
import { privacyService } from "./privacy-service";
import { sessionsService } from "./sessions-service";
import { settingsService } from "./settings-service";

export type { AdminRequest };

export function adminServices(env: Env, request: AdminRequest) {
  const settings = settingsSource(env);
  return {
    actor: request.actor,
    settings: settingsService(env, request, settings),
    memory: memoryService(env, request),
    identity: identityService(env, request, settings),
    sessions: sessionsService(env, request, settings),
    backfill: backfillService(env, request, settings),
    knowledge: knowledgeService(env, request, settings),
    insights: insightsService(env, settings),
    migrations: migrationsService(env, request),
    logMigration: logMigrationService(env, request),
    credentialSweep: credentialSweepService(env, request),
    chats: chatsService(env),
    notices: noticesService(env, request),
    owner: ownerService(env, request, settings),
    privacy: privacyService(env, request, settings),
    doctor: doctorService(env, request, settings),
  };
}

export type AdminServices = ReturnType<typeof adminServices>;
