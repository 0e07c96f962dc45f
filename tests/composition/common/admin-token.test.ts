/// <reference types="vite/client" />
/**
 * The token rule, and a guard on the repository: every token the README, the docs, the
 * configuration or the tests show is refused in production, so copying an example never
 * opens the admin door.
 */

import { adminTokenProblem, MIN_ADMIN_TOKEN_LENGTH } from "@src/composition/common/admin-token";
import { describe, it } from "vitest";
import readme from "../../../README.md?raw";
import vitestConfig from "../../../vitest.config.ts?raw";
import wranglerToml from "../../../wrangler.toml?raw";

const docs = import.meta.glob<string>("../../../docs/**/*.md", {
  query: "?raw",
  import: "default",
  eager: true,
});
const support = import.meta.glob<string>(
  ["../../support/*.ts", "../../browser/**/*.mjs", "../../cli/*.mjs"],
  {
    query: "?raw",
    import: "default",
    eager: true,
  },
);

/** Values shown where a token goes: a bearer header, a --token flag, an ADMIN_TOKEN assignment. */
function shownTokens(text: string): string[] {
  const found = new Set<string>();
  const patterns = [
    /Bearer\s+([A-Za-z0-9+/=_.~-]{8,})/g,
    /--token[ =]([A-Za-z0-9+/=_.~-]{8,})/g,
    /ADMIN_TOKEN["']?\s*[:=]\s*["']?([A-Za-z0-9+/=_.~-]{8,})/g,
    /ADMIN_TOKEN\s*=\s*["']([^"']{8,})["']/g,
  ];
  for (const pattern of patterns) for (const m of text.matchAll(pattern)) if (m[1]) found.add(m[1]);
  return [...found];
}

describe("adminTokenProblem", () => {
  it("takes a long random token and refuses a short, missing or published one", ({ expect }) => {
    const random = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))));
    expect(adminTokenProblem(random)).toBeNull();
    expect(adminTokenProblem("x".repeat(MIN_ADMIN_TOKEN_LENGTH))).toBeNull();
    expect(adminTokenProblem("x".repeat(MIN_ADMIN_TOKEN_LENGTH - 1))).toMatch(/shorter than 32 characters/);
    expect(adminTokenProblem(null)).toMatch(/is not set/);
    expect(adminTokenProblem("akashaLocalDevSecret0123456789ab")).toMatch(/published/);
    // Characters, not bytes: 31 Chinese characters are still too short.
    expect(adminTokenProblem("口".repeat(MIN_ADMIN_TOKEN_LENGTH - 1))).toMatch(/shorter/);
  });

  it("names the fix in every refusal, Chinese first", ({ expect }) => {
    for (const token of [null, "short", "test-admin-token"]) {
      const problem = adminTokenProblem(token) ?? "";
      expect(problem).toMatch(/^ADMIN_TOKEN [\u4e00-\u9fff]/);
      expect(problem).toContain("openssl rand -base64 32");
      expect(problem).toContain("wrangler secret put ADMIN_TOKEN --env production");
    }
  });
});

describe("the repository publishes no usable token", () => {
  const sources: [string, string][] = [
    ["README.md", readme],
    ["vitest.config.ts", vitestConfig],
    ["wrangler.toml", wranglerToml],
    ...Object.entries(docs),
    ...Object.entries(support),
  ];

  it("finds the tokens it shows (the premise)", ({ expect }) => {
    const all = sources.flatMap(([, text]) => shownTokens(text));
    expect(all).toContain("akasha-local-admin");
    expect(all).toContain("test-admin-token");
  });

  it.for(sources.map(([name]) => name))("every token %s shows is refused", (name, { expect }) => {
    const text = sources.find(([n]) => n === name)?.[1] ?? "";
    for (const token of shownTokens(text))
      expect(adminTokenProblem(token), `${name}: ${token}`).not.toBeNull();
  });
});
