/**
 * The chat object's door to the composition root, the only module of it the object imports:
 * its services (chat-object-services.ts), the isolate's settings for the webhook path's timing
 * (`peekSettings`, never a D1 read), and in local mode its probe (`chatProbe`, null elsewhere).
 */

export {
  type BrowsedMessage,
  type ChatLogBrowser,
  type LoggedMessage,
  type LogPageAsk,
  MAX_LOG_PAGE,
  type MessageFilter,
} from "../common/chat-log-browser";
export { type ChatProbe, chatProbe, type ProbedChat } from "../dev/chat-probe";
export { peekSettings } from "../settings/settings-loader";
export {
  type ChatObjectServices,
  type ChatTurnServices,
  chatObjectServices,
} from "./chat-object-services";
export { objectLogBrowser } from "./object-log-browser";
export { type LogDays, objectLogDays } from "./object-log-days";
export { objectLogHistory, turnHistory } from "./object-log-history";
