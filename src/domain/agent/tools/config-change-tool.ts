/**
 * `config_change`: an admin reads one behaviour setting, or sets or removes it in the stored
 * settings layer (docs/architecture.md#settings), from a chat. Privileged; the guard checks that first, and the
 * tool checks again so that it never runs unguarded. A change is validated as a whole before
 * it is saved (nothing is half-applied) and every use is audited, refusals included. A change
 * is saved through the one settings write path (settings-admin.ts): compare-and-set, with its
 * audit row in the same transaction; reads and refusals go to the turn's audit trail.
 *
 * `identity.*` cannot be changed from a chat: an admin must not be able to make themselves or
 * anyone else an admin there. Identity changes go through the deployer's config (AKASHA_CONFIG
 * or the admin HTTP API).
 */
import { gateFor } from "../../authorization/authorization-gate";
import { type SettingsChange, saveSettingsEdit } from "../../config/settings-admin";
import {
  effectiveSettings,
  parseSettingPath,
  type SettingPath,
  type SettingsEdit,
  type SettingsLayers,
  setStoredValue,
  unsetStoredValue,
  valueAt,
} from "../../config/settings-edit";
import type { AuditOutcome } from "../../kernel/audit";
import { type Tool, type ToolResult, toolError, toolOk } from "../tool";
import type { TurnServices } from "../turn-services";

const NAME = "config_change";
const ACTIONS = ["get", "set", "unset"] as const;
type Action = (typeof ACTIONS)[number];

/** The settings section a chat may never change. */
const PROTECTED_SECTION = "identity";

const PICKUP = "各聊天约 10 秒内生效（每个实例的设置缓存最多保留 10 秒）。";
/** Two admins editing at once: the later save is refused rather than undoing the earlier one. */
const CONCURRENT = "存储的设置在此期间被另一处修改了；什么都没有改变，请重新读取后再试。";

type Detail = Record<string, string | number | boolean | null>;

function field(args: unknown, name: string): unknown {
  return typeof args === "object" && args !== null ? (args as Record<string, unknown>)[name] : undefined;
}

/** A value as an answer or the audit log shows it: JSON, cut at `max` characters. */
function shown(found: { found: boolean; value: unknown }, max = 300): string {
  if (!found.found) return "（未设置）";
  const text = JSON.stringify(found.value) ?? "null";
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** The model sends `value` as JSON text; a value that is already JSON (not a string) is taken as is. */
function parseValue(raw: unknown): { ok: true; value: unknown } | { ok: false; reason: string } {
  if (raw === undefined) return { ok: false, reason: "set 需要 value（JSON 文本）" };
  if (typeof raw !== "string") return { ok: true, value: raw };
  try {
    return { ok: true, value: JSON.parse(raw) };
  } catch {
    return {
      ok: false,
      reason: `value 不是合法的 JSON：${raw.slice(0, 80)}（字符串要加引号，例如 "\\"文本\\""；布尔值写 true/false）`,
    };
  }
}

export const configChangeTool: Tool = {
  spec: {
    name: NAME,
    description:
      "（仅管理员）查看或修改行为设置（存储层覆盖）。get 读取一项当前生效的设置；set 把一项设为 value（JSON 文本），与现有设置合并，整体校验通过才保存；unset 删除存储层中的一项，恢复默认值或 AKASHA_CONFIG 的值。path 是点分路径，例如 memory.dreaming.enabled。identity 下的设置不能在聊天中修改。只在管理员明确要求时修改。",
    parameters: {
      type: "object",
      properties: {
        action: { type: "string", enum: [...ACTIONS] },
        path: {
          type: "string",
          description: "点分设置路径，例如 memory.dreaming.enabled、retention.groupDays",
        },
        value: {
          type: "string",
          description: 'set 时的新值，JSON 文本：true、30、"文本"、["qq:group:123"]',
        },
      },
      required: ["action", "path"],
      additionalProperties: false,
    },
  },
  requiresAdmin: true,
  scope: "none",
  async run(args, ctx, services) {
    const actor = ctx.sender?.account ?? null;
    const rawAction = field(args, "action");
    const action = (ACTIONS as readonly unknown[]).includes(rawAction) ? (rawAction as Action) : null;
    const rawPath = field(args, "path");
    const pathText = typeof rawPath === "string" ? rawPath.trim() : "";
    const audit = (outcome: AuditOutcome, detail: Detail = {}) =>
      services.audit.record({
        action: `config.${action ?? "invalid"}`,
        actor,
        target: pathText === "" ? null : pathText.slice(0, 200),
        outcome,
        detail: { via: "tool", ...detail },
      });

    const authorized = gateFor(ctx.settings.identity).requireAdmin(NAME, actor);
    if (!authorized.ok) {
      audit("refused", { cause: authorized.error.cause });
      return toolError(`拒绝：${authorized.error.reason}`);
    }
    if (action === null) {
      audit("invalid", { field: "action" });
      return toolError("action 必须是 get、set 或 unset");
    }
    const path = parseSettingPath(pathText);
    if (!path.ok) {
      audit("invalid", { field: "path" });
      return toolError("path 必须是点分设置路径，例如 memory.dreaming.enabled");
    }
    if (action !== "get" && path.value[0] === PROTECTED_SECTION) {
      audit("refused", { cause: "identity-protected" });
      return toolError(
        `拒绝：${PROTECTED_SECTION} 下的设置（管理员、人物、聊天域、身份开关）不能在聊天中修改，以免管理员在聊天里给自己或他人授予权限；请由部署者修改 AKASHA_CONFIG 或通过管理 API 修改。什么都没有改变。`,
      );
    }
    const layers = await services.settingsAdmin.layers();
    if (!layers.ok) {
      audit("failed", { field: layers.error.field });
      return toolError(`无法读取存储的设置：${layers.error.field} ${layers.error.reason}；什么都没有改变。`);
    }
    return ACTION_RUNNERS[action]({
      path: path.value,
      pathText,
      layers: layers.value,
      args,
      actor,
      chatKey: ctx.chat.key,
      services,
      audit,
    });
  },
};

type Request = {
  readonly path: SettingPath;
  readonly pathText: string;
  readonly layers: SettingsLayers;
  readonly args: unknown;
  readonly actor: string | null;
  readonly chatKey: string;
  readonly services: TurnServices;
  readonly audit: (outcome: AuditOutcome, detail?: Detail) => void;
};

/**
 * Saves an edit through the one settings write path, as this tool in this chat; false when
 * another save came first, which is audited here and changes nothing.
 */
async function savedAsTool(req: Request, edit: SettingsEdit, change: SettingsChange): Promise<boolean> {
  const by = { actor: req.actor, via: "tool", at: req.services.clock.now(), chatKey: req.chatKey };
  if (await saveSettingsEdit(req.services.settingsAdmin, req.layers, edit, change, by)) return true;
  req.audit("failed", { cause: "concurrent-change" });
  return false;
}

const ACTION_RUNNERS: Record<Action, (req: Request) => Promise<ToolResult>> = {
  async get({ path, pathText, layers, audit }) {
    const current = effectiveSettings(layers);
    if (!current.ok) {
      audit("failed", { field: current.error.field });
      return toolError(`设置无效：${current.error.field} ${current.error.reason}`);
    }
    const found = valueAt(current.value.settings, path);
    if (!found.found) {
      audit("invalid", { reason: "unknown path" });
      return toolError(`没有设置 ${pathText}。`);
    }
    audit("ok");
    const overridden = current.value.storedError === null && valueAt(layers.stored, path).found;
    return toolOk(
      `${pathText} = ${shown(found, 2000)}（${overridden ? "来自存储层覆盖" : "来自默认值或 AKASHA_CONFIG"}）`,
    );
  },

  async set(req) {
    const { path, pathText, layers, args, audit } = req;
    const value = parseValue(field(args, "value"));
    if (!value.ok) {
      audit("invalid", { field: "value" });
      return toolError(`${value.reason}；什么都没有改变。`);
    }
    const before = effectiveSettings(layers);
    const edit = setStoredValue(layers, path, value.value);
    if (!edit.ok) {
      audit("invalid", { field: edit.error.field, reason: edit.error.reason.slice(0, 200) });
      return toolError(`拒绝：${edit.error.field} ${edit.error.reason}。什么都没有改变。`);
    }
    const was = before.ok ? valueAt(before.value.settings, path) : { found: false, value: undefined };
    const now = valueAt(edit.value.effective, path);
    const extra = { before: shown(was, 200), after: shown(now, 200) };
    if (!(await savedAsTool(req, edit.value, { action: "set", path: pathText, extra }))) {
      return toolError(CONCURRENT);
    }
    const change =
      shown(was) === shown(now)
        ? `已在存储层设置 ${pathText} = ${shown(now)}（生效值没有变化）。`
        : `已将 ${pathText} 从 ${shown(was)} 改为 ${shown(now)}（存储层）。`;
    return toolOk(`${change}${PICKUP}`);
  },

  async unset(req) {
    const { path, pathText, layers, audit } = req;
    const storedBefore = valueAt(layers.stored, path);
    const before = effectiveSettings(layers);
    const was = before.ok ? valueAt(before.value.settings, path) : { found: false, value: undefined };
    const edit = unsetStoredValue(layers, path);
    if (!edit.ok) {
      audit("invalid", { field: edit.error.field, reason: edit.error.reason.slice(0, 200) });
      return toolError(
        `拒绝：删除 ${pathText} 后设置无效（${edit.error.field} ${edit.error.reason}）。什么都没有改变。`,
      );
    }
    if (!edit.value.removed) {
      audit("ok", { removed: false });
      return toolOk(`存储层没有设置 ${pathText}，什么都没有改变（当前生效值 ${shown(was)}）。`);
    }
    const now = valueAt(edit.value.effective, path);
    const extra = { removed: true, before: shown(was, 200), after: shown(now, 200) };
    if (!(await savedAsTool(req, edit.value, { action: "unset", path: pathText, extra }))) {
      return toolError(CONCURRENT);
    }
    return toolOk(
      `已删除存储层中的 ${pathText}（原为 ${shown(storedBefore)}），现在生效值为 ${shown(now)}（来自默认值或 AKASHA_CONFIG）。${PICKUP}`,
    );
  },
};
