import { findLockValues } from "@src/domain/privacy/credential-lock-values";
import { maskCredentials } from "@src/domain/privacy/credentials";
import { describe, it } from "vitest";

const values = (text: string) => findLockValues(text).map((f) => text.slice(f.start, f.end));

describe("what a lock or a network takes, said in words", () => {
  // Each message with the one value it holds, or none: near misses use the same words.
  it.for([
    ["保险柜 先右转到十二 再左转到三十 最后右转到八", "先右转到十二 再左转到三十 最后右转到八"],
    ["the safe is left 36, right 12, left 4", "left 36, right 12, left 4"],
    ["家里wifi：abc12345 连不上再问我", "abc12345"],
    ["解锁图案是个Z，从左上角开始画", "Z"],
    ["我手机解锁是画个L 从左上角一直往下", "L"],
    ["unlock pattern is a big C starting top right", "C"],
    ["wifi名字叫TP-LINK_5G", null],
    ["wifi 6 的路由器", null],
    ["unlock pattern is a bit hard to draw", null],
    ["左转两个路口再右转 看到全家就到了", null],
    ["画个圆再画个正方形 这就是美术作业？？", null],
    // A keypad takes digits closed by "#": a door's code, said without the word code.
    ["仓库门 7391# 进去左手边", "7391#"],
    ["单元门按 1203#4567 就开了", "1203#4567"],
    ["楼下大门 按 *0815# 进", "*0815#"],
    ["buzz 2931# at the gate after ten", "2931#"],
    ["我住3#楼 1202", null],
    ["拨 10086 按 1# 转人工", null],
    ["C# 和 F# 都学过", null],
    ["#2024年终总结# 来了", null],
    ["订单号 #20231128 已发货", null],
    ["停在 12# 机位", null],
    // A lock's digits right after the lock, or after an arrow that ends its description.
    ["手机锁屏是0918 我生日，帮我看下有没有快递短信", "0918"],
    ["车锁4071 楼下蓝色那辆 骑完锁好", "4071"],
    ["储物柜 2580 里面有伞", "2580"],
    ["行李箱锁：306912", "306912"],
    ["bike lock is 7314, it's the red one", "7314"],
    ["店里保险箱是老板娘生日倒过来 → 90218 我也是刚知道😂", "90218"],
    ["锁屏是自动的 30秒就黑", null],
    ["车锁坏了 2024年买的", null],
    ["保险箱 2000块 京东买的", null],
    ["储物柜 2580 号是我的", null],
    ["门锁换了 型号 D4 装好了", null],
    ["车锁 3 位数的那种就够了", null],
    ["锁屏别设成 1234 太好猜", null],
    // A lock's password of three digits, beside the lock and the word password.
    ["门禁密码520 进门右转", "520"],
    ["锁的密码 886 别告诉别人", "886"],
    ["学校储物柜密码 731 里面有我的书", "731"],
    ["行李箱的密码：386", "386"],
    ["門禁密碼 731 記得按井字", "731"],
    ["门禁密码520号楼的物业管", null],
    ["锁的密码3位数的就够了", null],
    ["门禁密码不是 520 吗", null],
    ["锁的密码忘了 886", null],
    ["密码 886", null],
  ] as const)("reads %j as %j", ([text, value], { expect }) => {
    expect(values(text)).toEqual(value === null ? [] : [value]);
    if (value !== null) expect(maskCredentials(text)).not.toContain(value);
  });

  it("takes two dial turns as a combination only where a lock is named: the nursery rhyme stays", ({
    expect,
  }) => {
    expect(values("左三圈右三圈 脖子扭扭屁股扭扭")).toEqual([]);
    expect(values("保险箱密码 左三圈 右七圈")).toEqual(["左三圈 右七圈"]);
    expect(values("左三圈右七圈左九圈")).toEqual(["左三圈右七圈左九圈"]);
  });

  it("takes a wifi value only at a WPA password's length and never a network's name", ({ expect }) => {
    expect(values("wifi是1234567")).toEqual([]);
    expect(values("wifi是12345678")).toEqual(["12345678"]);
    expect(values("wifi是CMCC-5G-8a2b")).toEqual([]);
  });
});
