export { ChatSession } from "../durable-objects/chat-session";
export default {
  async fetch() {
    return new Response("ok");
  },
} satisfies ExportedHandler<Env>;
