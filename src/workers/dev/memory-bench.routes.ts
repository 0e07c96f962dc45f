/**
 * Local-only routes for the memory benchmark (`npm run bench -- memory`), mounted under
 * /dev/bench/memory, so they do not exist outside local mode.
 *
 *   POST /seed     deterministic memory items over many chats (and global), written in bulk
 *   POST /bare     the bare FTS5 MATCH for the terms of a text, timed inside the Worker
 *   POST /preview  the context preview of a chat, timed inside the Worker
 *   POST /settings stores a behaviour-settings layer (soft scope on/off between passes)
 */
import { Hono } from "hono";
import { z } from "zod";
import { chatObject } from "../../composition/common/chat-stub";
import { memoryContentHash } from "../../composition/dev/dev-adapters";
import { adminServices } from "../../composition/request/admin-services";
import { accountKey, type ChatKey } from "../../domain/chat/chat-address";
import { memoryMatch } from "../../domain/memory/memory-query";
import { indexText } from "../../domain/text/search-tokens";
import type { AppEnv } from "../app-env";
import { problem } from "../error-response";
import { jsonBody } from "../json-body";
import { seedMemoryRows } from "./seed-memory-rows";

/** Who the stored layer and the audit row name as the author of a bench settings write. */
const BENCH_AUTHOR = "dev-bench";

const NAMES = ["小明", "小红", "阿杰", "老王", "小李", "婷婷", "大伟", "阿珍", "Tom", "Lily", "浩然", "思思"];
const VERBS = [
  "喜欢",
  "不喜欢",
  "讨厌",
  "想学",
  "在学",
  "养了",
  "常去",
  "推荐",
  "买了",
  "最近迷上了",
  "受不了",
  "每天都",
];
const OBJECTS = [
  "猫",
  "狗",
  "火锅",
  "烧烤",
  "爬山",
  "游泳",
  "摄影",
  "吉他",
  "钢琴",
  "篮球",
  "羽毛球",
  "咖啡",
  "奶茶",
  "绿茶",
  "寿司",
  "拉面",
  "Vue",
  "React",
  "TypeScript",
  "Rust",
  "Python",
  "原神",
  "塞尔达",
  "科幻小说",
  "推理小说",
  "话剧",
  "京剧",
  "露营",
  "骑行",
  "马拉松",
  "瑜伽",
  "健身",
  "烘焙",
  "花卉",
  "多肉植物",
  "金鱼",
  "仓鼠",
  "鹦鹉",
  "相声",
  "脱口秀",
  "爵士乐",
  "摇滚",
  "民谣",
  "古典音乐",
  "动漫",
  "电影",
  "纪录片",
  "桌游",
  "围棋",
  "象棋",
  "书法",
  "油画",
  "水彩",
  "陶艺",
  "编程",
  "数学",
  "物理",
  "历史",
  "地理",
  "日语",
  "法语",
  "德语",
  "西班牙语",
  "滑雪",
  "冲浪",
  "潜水",
  "钓鱼",
  "自驾游",
  "高铁",
  "地铁",
];
const WHEN = ["周末", "晚上", "每天早上", "下班后", "放假的时候", "下雨天", "", "", ""];
const GLOBAL_TEMPLATES = [
  (o: string) => `决定：群活动改到周五晚上，主题是${o}`,
  (o: string) => `操作：${o} 相关的问题先查置顶文档`,
  (o: string) => `提醒：${o} 的报名截止到月底`,
];

const pick = <T>(list: readonly T[], k: number): T => list[k % list.length] as T;

/** The k-th seeded item: deterministic, so runs compare. */
function seedItem(k: number, chats: number, globalEvery: number) {
  const o = pick(OBJECTS, Math.floor(k / 7) * 13 + k);
  if (k % globalEvery === 0) {
    return {
      scopeType: "global",
      scopeId: "__global__",
      kind: pick(["decision", "procedure", "warning"] as const, k),
      text: pick(GLOBAL_TEMPLATES, k)(o),
      sensitivity: "public",
      portable: 1,
    };
  }
  const chat = Math.floor(k / globalEvery) % chats;
  const scopeId = chat % 2 === 0 ? `bench:private:u${chat}` : `bench:group:g${chat}`;
  const who = pick(NAMES, k * 7 + chat);
  const r = (k * 2654435761) % 100;
  return {
    scopeType: "chat",
    scopeId,
    kind: pick(["preference", "fact", "task"] as const, k),
    text: `${who}${pick(WHEN, k * 3)}${pick(VERBS, k * 5)}${o}`,
    sensitivity: r < 70 ? "public" : r < 90 ? "private" : "secret_like",
    portable: r % 20 === 0 ? 0 : 1,
  };
}

const SeedSchema = z.object({
  offset: z.number().int().min(0),
  n: z.number().int().min(1).max(10_000),
  chats: z.number().int().min(1).max(100_000),
  globalEvery: z.number().int().min(2).default(10),
});

const BareSchema = z.object({
  text: z.string().min(1).max(500),
  limit: z.number().int().min(1).max(100).default(8),
});
const PreviewSchema = z.object({
  chat: z.string().regex(/^bench:(private|group):[A-Za-z0-9]+$/),
  sender: z.string().regex(/^[A-Za-z0-9]+$/),
  text: z.string().min(1).max(500),
});

export const memoryBenchRoutes = new Hono<AppEnv>()
  .post("/seed", jsonBody(SeedSchema), async (c) => {
    const { offset, n, chats, globalEvery } = c.req.valid("json");
    const started = performance.now();
    const rows = await Promise.all(
      Array.from({ length: n }, async (_, i) => {
        const k = offset + i;
        const item = seedItem(k, chats, globalEvery);
        return {
          id: `mb_${k}`,
          scope_type: item.scopeType,
          scope_id: item.scopeId,
          kind: item.kind,
          text: item.text,
          tokens: indexText(item.text),
          importance: ((k * 37) % 100) / 100,
          sensitivity: item.sensitivity,
          source: item.sensitivity === "public" ? "default" : "dream",
          portable: item.portable,
          hash: await memoryContentHash(item.text),
          at: 1_700_000_000_000 + k * 1000,
        };
      }),
    );
    await seedMemoryRows(c.env.DB, rows);
    return c.json({ n, ms: performance.now() - started });
  })
  .post("/bare", jsonBody(BareSchema), async (c) => {
    const body = c.req.valid("json");
    const match = memoryMatch(body.text, null);
    if (!match) return c.json({ hits: 0, ms: 0 });
    const started = performance.now();
    const { results } = await c.env.DB.prepare(
      "SELECT rowid, bm25(nodes_fts) AS rank FROM nodes_fts WHERE nodes_fts MATCH ? ORDER BY rank LIMIT ?",
    )
      .bind(match, body.limit)
      .all();
    return c.json({ hits: results.length, ms: performance.now() - started });
  })
  .post("/preview", jsonBody(PreviewSchema), async (c) => {
    const body = c.req.valid("json");
    const [, targetType = "group", targetId = ""] = body.chat.split(":");
    const account = accountKey("bench", body.sender);
    if (!account.ok) return problem(c, { kind: "invalid", field: "sender", reason: account.error.reason });
    const key = body.chat as ChatKey;
    const started = performance.now();
    const preview = await chatObject(c.env, key).preview({
      chat: { key, channel: "bench", targetType: targetType as "private" | "group", targetId },
      sender: { userId: body.sender, account: account.value, displayName: null },
      text: body.text,
    });
    const ms = performance.now() - started;
    return c.json({
      ms,
      recalled: preview.recalled.length,
      pinned: preview.mandatory.pinned.length,
      soft: preview.scopes.softScope,
    });
  })
  .post("/settings", jsonBody(z.record(z.string(), z.unknown())), async (c) => {
    // Through the settings service the admin API uses: validated, compare-and-set, audited.
    const who = { actor: BENCH_AUTHOR, via: "dev-bench", config: c.get("config") } as const;
    const saved = await adminServices(c.env, who).settings.replace(c.req.valid("json"));
    if (!saved.ok) return problem(c, saved.error);
    return c.json({ ok: true });
  });
