/**
 * A password in Chinese words named by what it opens rather than by a keyword beside it
 * (docs/decisions/0730-passwords-in-chinese-words.md): typed to open something ("填 西红柿炒蛋
 * 就能开"), used to log in ("用 万事如意 登录就行"), used as the password ("用的 东方明珠塔 做密码"),
 * set on a lockable thing ("保险箱我设的是 画蛇添足"), given after a lockable thing's name and a
 * colon ("wifi：烤红薯真香"), or after an admin account ("admin / 我爱吃西瓜").
 */
import { CLOSE, hanMatches, KEYWORD, OPEN, rx, SHUT, VALUE } from "./credential-han-words";
import type { PhraseMatch } from "./credential-phrases";

/** An admin account and its password in words: "路由器 admin / 我爱吃西瓜". */
const ACCOUNT_SLASH = rx(
  String.raw`(?<![A-Za-z0-9])(?:admin|root|administrator|guest|user)\s*[/／]\s*${OPEN}${VALUE}${CLOSE}`,
);
/**
 * Typed to open something: "填 西红柿炒蛋 就能开", "输入「月光寶盒」就可以打開", "…加密了 输入 X 就能看".
 * A one-character verb takes a space or a quote after it: "主打歌在iTunes上架第一天即登…" types nothing.
 */
const TYPED = rx(
  String.raw`(?:(?:输入|輸入)\s*|(?<![主击拍殴])(?:输|輸|填|敲|打)(?:\s+|(?=[“「『【"'《])))${OPEN}${VALUE}${SHUT}\s*(?:这几个字|這幾個字|这[两三四五六七八]个字)?\s*(?:就|即)(?:能|可以|可|会|會)?(?<opens>打开|打開|开|開|进|進|解|登|看|行|好)`,
);
/** Used to log in or unlock: "用 万事如意 登录就行". */
const USED_TO_OPEN = rx(
  String.raw`用\s+${OPEN}${VALUE}${SHUT}\s+(?:就能|就可以|就)?(?:登录|登陆|登入|解锁|解鎖|开锁|開鎖|打开|打開)`,
);
/** 看 opens something only where something is locked: "相册加密了 输入 X 就能看". */
const LOCKED = /加密|锁|鎖|密|登录|登錄|登陆|解锁|开机|開機/;

/** A thing that locks: its name stands for its password beside a setting verb or a colon. */
const LOCKABLE = String.raw`(?:wifi|WiFi|WIFI|Wi-Fi|无线|無線|门禁|門禁|保险箱|保险柜|保險箱|保險櫃|路由器|开机|開機|锁屏|鎖屏|网盘|網盤|压缩包|壓縮包|相册|相冊|日记本?|日記本?|仓库锁|倉庫鎖|平板|电脑|電腦)`;
const LOCKABLE_NAMED = new RegExp(LOCKABLE, "u");
/** Set on a lockable thing: "保险箱我设的是 画蛇添足", "游戏仓库锁设成了 风吹麦浪". */
const SET_ON = rx(
  String.raw`${LOCKABLE}[^\n，。！？,.!?]{0,8}?(?:设的是?|設的是?|设成了?|設成了?|设置成|设置为|改成了?|换成了?|換成了?)\s*${OPEN}${VALUE}${CLOSE}`,
);
/** A lockable thing's name and a colon, at the start of a line or a clause: "wifi：烤红薯真香". */
const LOCKABLE_LABEL = rx(
  String.raw`(?:^|[\n，。！？；,;]|\d[.、)．]\s*)\s*[^\n:：，。]{0,6}?${LOCKABLE}[:：]\s*${OPEN}${VALUE}${CLOSE}`,
);
/** Used as the password: "用的 东方明珠塔 做密码", "拿 火锅底料 当口令". */
const USED_AS_KEYWORD = rx(
  String.raw`(?:用|拿)的?\s*${OPEN}${VALUE}${SHUT}\s*(?:做|作|当|當|作为|作為)${KEYWORD}`,
);
/** Typed, and the keyword further on: "打 老张头 三个字就行，那是电脑开机密码". */
const TYPED_FOR = rx(String.raw`(?:输入|輸入|输|輸|填|打|敲)\s+${VALUE}\s[^\n。！？!?]{0,16}?${KEYWORD}`);

/** `named`: whether `text` names a keyword (NAMES_KEYWORD), which the last two forms need. */
export function findOpeningValues(text: string, named: boolean): PhraseMatch[] {
  const lockable = LOCKABLE_NAMED.test(text);
  return [
    ...hanMatches(text, TYPED, (m) => !/^[看行好]$/.test(m.groups?.opens ?? "") || LOCKED.test(text)),
    ...hanMatches(text, USED_TO_OPEN, () => true),
    ...hanMatches(text, ACCOUNT_SLASH, () => true),
    ...(lockable ? hanMatches(text, SET_ON, () => true) : []),
    ...(lockable ? hanMatches(text, LOCKABLE_LABEL, () => true) : []),
    ...(named ? hanMatches(text, USED_AS_KEYWORD, () => true) : []),
    ...(named
      ? hanMatches(
          text,
          TYPED_FOR,
          (m) => ((m.groups?.value ?? "").match(/\p{Script=Han}/gu) ?? []).length >= 3,
        )
      : []),
  ];
}
