import { findCredentials, maskCredentials } from "@src/domain/privacy/credentials";
import { describe, it } from "vitest";

const found = (text: string) => findCredentials(text).map((f) => text.slice(f.start, f.end));

// The login cookies and download keys of the platforms people here use, pasted as they come from
// a browser or a bot's configuration, and named in a sentence. Each value is marked ⟦…⟧.
const POSITIVES = [
  "uin=o0123456789; skey=⟦@Ab3dEfGhI⟧; p_skey=⟦Zx9yWv8uT7sR6qP5oN4mL3kJ2iH1gF0e*⟧; pt4_token=⟦Qw8eRt7yUi6oP5aS4dF3gH2jK1lZ0x⟧",
  "SESSDATA=⟦1a2b3c4d%2C1716543210%2Cab12c*51⟧; bili_jct=⟦0f1e2d3c4b5a69788796a5b4c3d2e1f0⟧",
  "B站 SESSDATA 是 ⟦1a2b3c4d%2C1716543210%2Cab12c*51⟧ 帮我看看能不能下 1080p",
  "BDUSS=⟦Zk1aVhUd2RqR3ZkS2FwQ0RnM3VxZXhvLUtZa2NrM3lzbH5⟧",
  // pt_pin, the account the key logs into, is masked as a PIN's assignment (an older rule).
  "京东签到脚本 pt_key=⟦AAJlZGZhADBc7h8Xk3nQv9yP2wR4tY6uI8oL0aS⟧;pt_pin=⟦jd_user123⟧;",
  "网易云 MUSIC_U 填 ⟦00A1B2C3D4E5F60718293A4B5C6D7E8F9⟧ 就行",
  "知乎的 z_c0=⟦2|1:0|10:1701234567|4:z_c0|92:Mi4xQUJDRA==|abcdef0123456789⟧",
  "Weibo cookie SUB=⟦_2A25KzQwXDeRhGeNI71IV9i3NwzmIHXVp1KgfrDV8PUNbmtAGLVfmkW9NSaR9x8U⟧",
  "steamLoginSecure=⟦76561198000000000%7C%7CeyJ0eXAiOiJKV1QiLCJhbGciOiJFZERTQSJ9⟧",
  "机器人配置里 skey 填 ⟦@Ab3dEfGhI⟧ 就能登",
  "pskey: ⟦Zx9yWv8uT7sR6qP5oN4mL3kJ2iH1gF0e⟧",
  "夸克网盘 cookie __pus=⟦4a5b6c7d8e9f0a1b2c3d4e5f6a7b8c9d⟧ 转存老失败",
  "115 的 UID=12345678_A1_1701234567; CID=0a1b2c3d4e5f60718293a4b5c6d7e8f9; SEID=⟦a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f2a1b0⟧",
  "https://multimedia.nt.qq.com.cn/download?appid=1407&fileid=EhQ2N2E0ZDFi&rkey=⟦CAQSKAB6JWENi5LMtWVWVxS2RfZdDTI4Qa_Vjy9c0b2Jb4v8kHwQ6rI⟧&spec=0",
  "https://cdn.example.cn/v/a.mp4?auth_key=⟦1701234567-0-0-9f86d081884c7d659a2feaa0c55ad015⟧",
  "https://b-1250000000.cos.ap-guangzhou.myqcloud.com/a.png?q-sign-algorithm=sha1&q-signature=⟦5f2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b⟧",
  "https://storage.googleapis.com/b/o.png?X-Goog-Algorithm=GOOG4-RSA-SHA256&X-Goog-Signature=⟦7a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d⟧",
  "https://c.y.qq.com/v8/playsong.html?songmid=001&vkey=⟦8B3C9A1D2E4F5A6B7C8D9E0F1A2B3C4D5E6F7A8B⟧",
  "https://api.example.cn/v1/pay?appid=wx123&timestamp=1701234567&sign=⟦E10ADC3949BA59ABBE56E057F20F883E⟧",
  // A cloud drive's share code, after 提取 without 码: mixed letters and digits, or any four after the link.
  "网盘链接 https://pan.baidu.com/s/1AbCdEfG 提取: ⟦8kq3⟧",
  "资料在这 提取 ⟦x7k2⟧ 别外传",
  "https://pan.baidu.com/s/1QwErTyUi 提取 ⟦2931⟧",
  // A group robot's webhook: whoever holds the address posts into the group.
  "飞书机器人webhook https://open.feishu.cn/open-apis/bot/v2/hook/⟦8f3a2c1e-9b7d-4e6f-a1c2-5d8e9f0b3a47⟧ 直接往这发告警",
  "lark bot: https://open.larksuite.com/open-apis/bot/v2/hook/⟦0b1c2d3e-4f5a-6b7c-8d9e-0f1a2b3c4d5e⟧",
  "discord 通知 https://discord.com/api/webhooks/123456789012345678/⟦Xy9_ab-CDef0123456789GHijklMNOPqrstuvWXyz-0123456789abcdEFGH⟧",
] as const;

// The same names where no value is given, and links whose parameters give nothing away.
const NEAR_MISSES = [
  "B站的 SESSDATA 过期了怎么办",
  "skey 是什么东西",
  "把 SUB 字幕关了再看",
  "cookie 里要有 BDUSS 和 STOKEN 两项",
  "pt_key 在哪里找？F12 里吗",
  "我的 QQ 音乐 vkey 失效了",
  "https://www.bilibili.com/video/BV1xx411c7mD?p=2&share_source=copy_web",
  "https://example.com/account?sign=in",
  "https://multimedia.nt.qq.com.cn/download?appid=1407&fileid=EhQ2N2E0ZDFi&spec=0",
  "先提取 2024 年的数据",
  "提取 json 里的字段",
  "提取一下这个文件",
  "飞书机器人的 webhook 地址在群设置里找",
  "https://open.feishu.cn/document/client-docs/bot-v3/add-custom-bot",
] as const;

describe("platform login cookies and download keys", () => {
  it.for(POSITIVES)("masks the value in %s", (marked, { expect }) => {
    const values = [...marked.matchAll(/⟦([^⟧]+)⟧/g)].map((m) => m[1]);
    const text = marked.replace(/[⟦⟧]/g, "");
    expect(found(text)).toEqual(values);
    for (const v of values) expect(maskCredentials(text)).not.toContain(v);
  });

  it.for(NEAR_MISSES)("leaves %s as it is", (text, { expect }) => {
    expect(found(text)).toEqual([]);
  });
});
