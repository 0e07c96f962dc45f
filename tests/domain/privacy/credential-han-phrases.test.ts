import { findHanPhrases } from "@src/domain/privacy/credential-han-phrases";
import { maskSensitiveData } from "@src/domain/privacy/credentials";
import { detectionText } from "@src/domain/text/detection-text";
import { describe, it } from "vitest";

/** Read as the detector reads a message: traditional characters folded to simplified ones. */
const values = (text: string) => {
  const read = detectionText(text).text;
  return findHanPhrases(read).map((f) => read.slice(f.start, f.end));
};

describe("a password said in Chinese words", () => {
  // Each message with the words that are its password: kept whole in the log and in memory
  // they are the password, whoever reads them.
  it.for([
    ["wifi密码是天王盖地虎", "天王盖地虎"],
    // Pointed back at, set apart by emoji or arrows, after 密钥 or 解锁 (decision 0960); these were
    // written before their rules. "一起去看海" after "口令 ⇒" stays: 看 also says where a password is.
    ["“青山不改”，我刚看了 咱们群文件的密码就是这个", "青山不改"],
    ["【小猪佩奇】这个就是新的wifi密码", "小猪佩奇"],
    ["《长亭外古道边》这就是门口的暗号", "长亭外古道边"],
    ["🌙月光宝盒🌙 这是咱宿舍的wifi", "月光宝盒"],
    ["群口令 ⇒ 一起去海边 ⇐ 别打错", "一起去海边"],
    ["仓库口令 >>> 红烧狮子头 <<<", "红烧狮子头"],
    ["路由器 密钥 今天也要加油", "今天也要加油"],
    ["电脑解锁：芝麻开门吧", "芝麻开门吧"],
    ["论坛账号 wangwu 密码 长风破浪会有时！", "长风破浪会有时"],
    ["QQ密码：我爱吃苹果", "我爱吃苹果"],
    ["电脑开机密码就是 我爱北京天安门，别乱改", "我爱北京天安门"],
    ["保险箱密码改成了 猪八戒背媳妇", "猪八戒背媳妇"],
    ["暗号：宝塔镇河妖", "宝塔镇河妖"],
    ["the password is 春眠不觉晓", "春眠不觉晓"],
    ["压缩包密码为 西红柿炒鸡蛋", "西红柿炒鸡蛋"],
    ["我手机锁屏密码是 小鸭子嘎嘎", "小鸭子嘎嘎"],
    ["網銀密碼是 月光寶盒", "月光宝盒"],
    ["口令是 他乡遇故知", "他乡遇故知"],
    ["密码是 你好世界", "你好世界"],
    ["wifi 密码：一路向北，连上跟我说", "一路向北"],
    ["新密码是 风吹麦浪啊", "风吹麦浪"],
    // Further from the keyword: a later colon, the new one, an account, typed, listed, answered.
    ["网盘密码就是我家猫的名字加个号：咪咪三号", "咪咪三号"],
    ["服务器口令换了，新的是 蓝莓山药", "蓝莓山药"],
    ["监控后台 admin / 荷塘月色", "荷塘月色"],
    ["输 百年好合 就能开门", "百年好合"],
    ["用 前程似锦 登录就行", "前程似锦"],
    ["接头的时候我说“山高月小”，你回“水落石出”", "山高月小"],
    ["接头的时候我说“山高月小”，你回“水落石出”", "水落石出"],
    ["两个密码记一下：\n1. 保险柜：金玉满堂\n2. 门禁：平安喜乐", "金玉满堂"],
    ["两个密码记一下：\n1. 保险柜：金玉满堂\n2. 门禁：平安喜乐", "平安喜乐"],
    ["三个密码：\n1. 打印机：不用密码\n2. 阁楼：春江花月", "春江花月"],
    ["门禁口令改成了《小城故事》", "小城故事"],
    ["解压码 山川异域", "山川异域"],
    ["进群答案：风月同天", "风月同天"],
    ["密吗是 豆沙包子", "豆沙包子"],
    ["密码就桂林米粉2024", "桂林米粉2024"],
    ["服务器root密码 Qx长城@88", "Qx长城@88"],
    ["路由器我设的是 守株待兔 记住了", "守株待兔"],
    ["wifi：晴天娃娃\n门禁：刷卡进", "晴天娃娃"],
    ["拿 火锅底料 当口令", "火锅底料"],
    ["敲 小王子 三个字进去，那是电脑开机密码", "小王子"],
    ["对暗号：我问“吃了没”，你答“吃的饺子”", "吃了没"],
    ["平板密码改成了我奶奶的名字 李桂兰 ，别告诉她", "李桂兰"],
    ["Q：相册密码多少？\nA：荷花池塘", "荷花池塘"],
    ["入群问题答案：张家的狗", "张家的狗"],
    ["路由器密码我设了 大圣归来 别乱改", "大圣归来"],
    ["电脑密码就是你外公的名字陈福生", "陈福生"],
    ["秘码换了 新的是 葡萄干面包", "葡萄干面包"],
    // 暗语 and 密语 name a countersign; an arrow gives a value; a gate's question answered in one line.
    ["今晚的接头暗语：月亮代表我的心", "月亮代表我的心"],
    ["咱们小队的密語改成「鹹酥雞配珍奶」了", "鹹酥雞配珍奶"],
    ["相册密码→ 樱花飘落时 ←记一下", "樱花飘落时"],
    ["加群问题：本群吉祥物叫什么？答案：胖橘猫", "胖橘猫"],
    ["进群问题问你老家在哪个镇 你就填 青石镇", "青石镇"],
    ["口领 老树开花 晚上对", "老树开花"],
    ["开机的时候输 孙悟空三打白骨精 就行", "孙悟空三打白骨精"],
    ["你打 我要吃火锅 这几个字就能解锁", "我要吃火锅"],
    ["個門密碼我改咗做 菠蘿包 記住", "菠萝包"],
    ["对暗号，上句 月亮圆圆 下句 星星闪闪", "月亮圆圆"],
    ["问题：我们宿舍的楼长叫什么\n答案：胖哥哥", "胖哥哥"],
    ["网盘我设了密码，就叫 周末不加班", "周末不加班"],
    ["日记的密码 秘密是一个人的事 不准看", "秘密是一个人的事"],
  ] as const)("masks %j", ([text, secret], { expect }) => {
    expect(values(text).join(" ")).toContain(detectionText(secret).text);
    expect(maskSensitiveData(text)).not.toContain(secret);
  });

  // The same words where a value could stand, saying what the password is made of, where it
  // is, or how it feels: no value.
  it.for([
    "密码是老样子",
    "密码是原来那个",
    "密码是区分大小写的",
    "wifi密码是免费的",
    "密码是单独发你",
    "达芬奇密码是一部好电影",
    "密码是我老婆的生日",
    "密码是身份证后六位",
    "密码是你手机尾号",
    "密码是和上次一样",
    "密码是不是改过了",
    "开机密码是必须设置的吗",
    "这个密码是真难记",
    "密码是空的 直接连",
    "密码是没有设置",
    "密码是公司统一的",
    "新密码是要八位以上",
    "密码是对的但是登不上",
    "wifi密码是店里免费提供的",
    "密码是管理员刚改的",
    "密码是你自己设的那个",
    "密码是我们家门牌号",
    "密码 已发 注意查收",
    "账号密码 都在群文件里",
    "wifi密码 贴在冰箱上了",
    "改密码 记得用大写",
    "输入密码 就能看",
    "设置密码 要求八位",
    "发个wifi密码 谢谢",
    "QQ密码 被盗了",
    "密码 发我一下",
    "开机密码 取消了",
    "我的密码 你别乱动",
    "管理员密码 只有我知道",
    "原来的密码 不能用了",
    "password 太长了",
    "wifi密码[表情]连不上",
    "行李箱密码锁坏了 转不动",
    "昨晚看了达芬奇密码 还行吧",
    "别用中文当密码 有的系统不支持",
    "压缩包没密码 直接解",
    "王者号被盗了，密码改了三次还是被顶号",
    "smtp发信要用授权码不是QQ密码，去设置里生成",
    "unzip -P 你的密码 资料.zip",
    "key: password\n这样引用就行",
    "密码规则：至少八位",
    "修改密码步骤：打开设置",
    "密码提示：宠物的名字",
    "暗号是“一句诗”，见面再说",
    "密码规则如下：\n1. 长度：至少八位\n2. 字符：大小写加数字",
    "进群答案在群公告里",
    "输入支付密码即可完成付款",
    "密码中间好像有个空格，你是不是漏打了",
    "密码就在群里",
    "密码就不告诉你了",
    "密码是我名字 你猜",
    // Advice on what a password is made of, then why: no value follows the description.
    // A Cantonese question: 咩 is 什么.
    "wifi密码系咩呀",
    "设密码别用生日 容易被撞库",
    "密码千万不要用名字 太好猜了",
    "密码不要用生日 容易被盗",
    "wifi：连不上\n门禁：刷卡进",
    "Q：wifi密码多少？\nA：问前台",
    "听说搞个家庭暗号防骗子挺管用",
    "平板密码被孩子乱改了，现在全家都进不去",
    "密码是一个成语",
    "同名主打歌在iTunes上架第一天即登台湾",
    // Cantonese: 俾 and 畀 give, as 给 does.
    "屋企個wifi密碼俾我吖",
    "密码畀我下啦",
    "家里wifi密码再发一遍",
    "暗语是什么意思啊",
    "问题：中国的首都在哪？答案：北京",
    "相册密码→在群公告里",
    // Sichuan's 好多 and Hunan's 么子 ask, as 多少 and 什么 do.
    "妈 屋头wifi密码是好多",
    "那个锁的密码是么子咯",
    // Decision 0960's near misses.
    "“青山不改”是一首老歌",
    "【通知】这个就是新的wifi密码规则，大家看看",
    "群口令 ⇒ 看群公告",
    "密钥在群文件里自己下",
    "电脑解锁：用指纹就行",
    "🌙晚安🌙 明天见",
  ])("leaves %j as written", (text, { expect }) => {
    expect(values(text)).toEqual([]);
    expect(maskSensitiveData(text)).toBe(text);
  });
});
