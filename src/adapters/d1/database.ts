import { drizzle } from "drizzle-orm/d1";
import * as schema from "./schema";

/** The one way code opens D1: drizzle over the binding with the full schema. */
export function openDatabase(binding: D1Database) {
  return drizzle(binding, { schema });
}

export type Database = ReturnType<typeof openDatabase>;
