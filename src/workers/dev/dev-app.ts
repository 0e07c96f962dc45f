/**
 * The dev wing: every local-only route (dev console, benchmarks, evaluation) as one Hono app.
 * Production code never imports anything under src/workers/dev/ except this app, at its one
 * mount point in ../app.ts, which serves it only in local mode (a dependency rule enforces
 * the import side).
 */
import { Hono } from "hono";
import type { AppEnv } from "../app-env";
import { benchRoutes } from "./bench.routes";
import { chatlogBenchRoutes } from "./chatlog-bench.routes";
import { devRoutes } from "./dev.routes";
import { evalRoutes } from "./eval.routes";
import { evalHistoryRoutes } from "./eval-history.routes";
import { evalMemoryRoutes } from "./eval-memory.routes";
import { kbBenchRoutes } from "./kb-bench.routes";
import { localOnlyGuard } from "./local-only-guard";
import { memoryBenchRoutes } from "./memory-bench.routes";
import { profileBenchRoutes } from "./profile-bench.routes";
import { turnBenchRoutes } from "./turn-bench.routes";

export const devApp = new Hono<AppEnv>()
  .use("*", localOnlyGuard)
  .route("/", devRoutes)
  .route("/bench", benchRoutes)
  .route("/bench/memory", memoryBenchRoutes)
  .route("/bench/turn", turnBenchRoutes)
  .route("/bench/chatlog", chatlogBenchRoutes)
  .route("/bench/profile", profileBenchRoutes)
  .route("/bench", kbBenchRoutes)
  .route("/eval", evalRoutes)
  .route("/eval/history", evalHistoryRoutes)
  .route("/eval/memory", evalMemoryRoutes);
