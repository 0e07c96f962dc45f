/**
 * What the identity admin API reads and writes: the identity tables, the directory its links
 * go through, and the chat links the turn itself reads (taken from the chat object's own
 * services, so the who-can-read view follows whatever clusters the turn follows).
 */

import { D1IdentityAdminView } from "../adapters/d1/d1-identity-admin-view";
import { D1IdentityDirectory } from "../adapters/d1/d1-identity-directory";
import { openDatabase } from "../adapters/d1/database";
import type { ChatLinks } from "../domain/memory/memory-store";
import { chatSessionServices } from "./chat-session-services";

export const identityAdminView = (env: Env) => new D1IdentityAdminView(env.DB);
export const identityDirectory = (env: Env) => new D1IdentityDirectory(openDatabase(env.DB));
export const turnChatLinks = (env: Env): ChatLinks => chatSessionServices.create(env).memory.links;
