import { DurableObject } from "cloudflare:workers";
export class ChatSession extends DurableObject<Env> {
  async ping(): Promise<string> {
    return "pong";
  }
}
