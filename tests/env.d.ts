declare namespace Cloudflare {
  interface Env {
    TEST_MIGRATIONS: import("cloudflare:test").D1Migration[];
  }
}

/** Data files read whole by Vite (`import text from "…jsonl?raw"`). */
declare module "*?raw" {
  const text: string;
  export default text;
}
