/**
 * Local mode only: what a chat object does for its messages, counted — its SQLite statements
 * and its alarm runs — so that the webhook bench can report work per message, a number the
 * machine's load does not stretch (`/dev/bench/chat-work`). Production objects use the
 * storage's own `sql`, unwrapped.
 */
export type ChatWork = { statements: number; alarms: number };

export function countedSql(sql: SqlStorage, work: ChatWork): SqlStorage {
  return new Proxy(sql, {
    get(target, prop) {
      if (prop === "exec") {
        return (query: string, ...bindings: unknown[]) => {
          work.statements++;
          return target.exec(query, ...bindings);
        };
      }
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
