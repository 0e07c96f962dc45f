import type { RuntimeConfig } from "../composition/runtime-config";

export type AppEnv = {
  Bindings: Env;
  Variables: {
    config: RuntimeConfig;
    /** Sends a request through this same app, as if it arrived from outside (dev console). */
    selfFetch: (request: Request) => Promise<Response>;
  };
};
