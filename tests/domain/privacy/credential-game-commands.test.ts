// A game server's sign-in command pasted into a group: "/login 苦瓜炒蛋", "/register Kx92pw Kx92pw"
// (docs/decisions/0850-game-server-sign-in-and-chinese-word-forms.md).
import { maskCredentials } from "@src/domain/privacy/credentials";
import { describe, it } from "vitest";

/** Each message with the values it gives. */
const GIVEN: readonly (readonly [string, readonly string[]])[] = [
  ["进服以后先 /login Kugua123 ，不然动不了", ["Kugua123"]],
  ["新人第一次进服输 /register mc2024ab mc2024ab 然后 /login mc2024ab", ["mc2024ab"]],
  ["/l 苦瓜炒蛋", ["苦瓜炒蛋"]],
  ["/reg 青椒肉丝 青椒肉丝", ["青椒肉丝"]],
  ["密码忘了就 /changepassword oldpw99 Newpw#88", ["oldpw99", "Newpw#88"]],
  ["我们服是 /dl 加密码登录的，我的 /dl xyz778", ["xyz778"]],
  // A user name first (decision 0960).
  ["/login lisi 白日依山尽", ["白日依山尽"]],
];
/** Talk about the commands, a link, and placeholders: nothing to mask. */
const NOT_GIVEN = [
  "/login 没反应啊 卡住了",
  "进服用 /login <密码> 登录",
  "先 /register 密码 密码 注册",
  "https://example.com/login 打不开",
  "输 /l 你的密码 就行",
  "/login 以后怎么传送",
  "服务器重启了 /list 看一下在线",
  "机器人 /log 2024 查一下日志",
] as const;

describe("a game server's sign-in command", () => {
  it("masks the password it gives, and leaves talk about it", ({ expect }) => {
    const changed = NOT_GIVEN.filter((text) => maskCredentials(text) !== text);
    const kept = GIVEN.filter(([text, values]) => values.some((v) => maskCredentials(text).includes(v)));
    expect({ changed, kept }).toEqual({ changed: [], kept: [] });
  });
});
