// docs/invariants.md#no-scope-parameter: no tool schema has a scope or allowed-chats parameter the model can set.

import { defaultTurnRegistry } from "@src/domain/agent/default-turn-registry";
import type { Tool } from "@src/domain/agent/tool";
import type { JsonSchema } from "@src/domain/model/chat-model";
import { describe, it } from "vitest";

/** Names that would let the model pick which scopes a tool may read or write: never allowed. */
const SCOPE_LIKE = /scope|allowed|namespace|tenant|workspace|cluster|domain|visib/i;

/**
 * Names that pick a target. A current-chat tool takes none; a chat-domain tool may take one
 * `chat` inside the domain the gate computes; an admin tool takes the account, person,
 * collection or document source it manages — never a scope. Knowledge tools anyone may call
 * never name a collection or a source: what a chat reads comes from settings.
 */
const TARGET_LIKE =
  /chat|session|person|account|collection|source|document|target|group|channel|conversation|user_?id|owner/i;

function allowedTargets(tool: Tool): string[] {
  return [
    ...(tool.scope === "chat_domain" ? ["chat"] : []),
    ...(tool.requiresAdmin ? ["account", "person", "collection", "source"] : []),
  ];
}

/** Every property name anywhere in a JSON schema: nested objects, arrays, combinators. */
function propertyNames(schema: unknown, path = ""): string[] {
  if (typeof schema !== "object" || schema === null) return [];
  const s = schema as Record<string, unknown>;
  const names: string[] = [];
  for (const key of ["properties", "patternProperties"] as const) {
    const props = s[key];
    if (typeof props === "object" && props !== null) {
      for (const [name, sub] of Object.entries(props)) {
        names.push(`${path}${name}`, ...propertyNames(sub, `${path}${name}.`));
      }
    }
  }
  for (const key of ["items", "additionalProperties", "not", "if", "then", "else"] as const) {
    names.push(...propertyNames(s[key], path));
  }
  for (const key of ["anyOf", "oneOf", "allOf", "prefixItems"] as const) {
    const list = s[key];
    if (Array.isArray(list)) for (const sub of list) names.push(...propertyNames(sub, path));
  }
  return names;
}

const named = (schema: JsonSchema, pattern: RegExp) =>
  propertyNames(schema).filter((n) => pattern.test(n.split(".").at(-1) ?? ""));
const scopeLike = (schema: JsonSchema) =>
  propertyNames(schema).filter((n) => {
    const last = n.split(".").at(-1) ?? "";
    return SCOPE_LIKE.test(last) || TARGET_LIKE.test(last);
  });

describe("tool schemas", () => {
  const tools = defaultTurnRegistry().tools;

  it("registers the memory and session tools", ({ expect }) => {
    expect(tools.map((t) => t.spec.name)).toEqual(
      expect.arrayContaining(["memory_search", "memory_write", "memory_forget", "session_reset"]),
    );
  });

  it.for(defaultTurnRegistry().tools.map((t) => [t.spec.name, t] as const))(
    "%s has no scope-like parameter and accepts no undeclared one",
    ([, tool], { expect }) => {
      expect(named(tool.spec.parameters, SCOPE_LIKE)).toEqual([]);
      const targets = named(tool.spec.parameters, TARGET_LIKE);
      expect(targets.filter((t) => !allowedTargets(tool).includes(t))).toEqual([]);
      expect(tool.spec.parameters.additionalProperties).toBe(false);
      expect(typeof tool.requiresAdmin).toBe("boolean");
      expect(["chat_domain", "current_chat", "none"]).toContain(tool.scope);
    },
  );

  it("the check catches scope-like names, nested ones included", ({ expect }) => {
    const sneaky: JsonSchema = {
      type: "object",
      properties: {
        query: { type: "string" },
        filter: { type: "object", properties: { scope_id: { type: "string" } } },
        targets: { type: "array", items: { type: "object", properties: { chat_key: { type: "string" } } } },
        where: { anyOf: [{ type: "object", properties: { allowed_chats: { type: "array" } } }] },
        personId: { type: "string" },
      },
    };
    expect(scopeLike(sneaky)).toEqual([
      "filter.scope_id",
      "targets",
      "targets.chat_key",
      "where.allowed_chats",
      "personId",
    ]);
  });

  it("admin tools that name a chat, a collection or a source require an admin", ({ expect }) => {
    const byName = (name: string) => tools.find((t) => t.spec.name === name);
    expect(byName("kb_manage")).toMatchObject({ requiresAdmin: true, scope: "none" });
    expect(byName("session_manage")).toMatchObject({ requiresAdmin: true, scope: "chat_domain" });
    expect(named((byName("kb_manage") as Tool).spec.parameters, TARGET_LIKE)).toEqual([
      "collection",
      "source",
    ]);
    expect(named((byName("session_manage") as Tool).spec.parameters, TARGET_LIKE)).toEqual(["chat"]);
  });

  it("config_change requires an admin and names only a settings path and a value", ({ expect }) => {
    const tool = tools.find((t) => t.spec.name === "config_change") as Tool;
    expect(tool).toMatchObject({ requiresAdmin: true, scope: "none" });
    expect(propertyNames(tool.spec.parameters)).toEqual(["action", "path", "value"]);
  });

  it("memory tools need no admin and act on the current chat only", ({ expect }) => {
    for (const name of ["memory_search", "memory_write", "memory_forget", "session_reset"]) {
      const tool = tools.find((t) => t.spec.name === name);
      expect(tool).toMatchObject({ requiresAdmin: false, scope: "current_chat" });
    }
  });
});
