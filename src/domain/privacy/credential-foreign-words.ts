/**
 * The word "password" in the other languages people in a Chinese chat also write in — Japanese,
 * Korean, Thai, Russian, Spanish, Portuguese, German, French, Vietnamese, Polish, Turkish, Indonesian —
 * and the few words that may stand between it and its value: "パスワードは「…」", "비번 …",
 * "пароль от админки: …", "la contraseña del router es …", "das Passwort für den NAS ist …",
 * Thai "รหัสผ่าน…คือ …" and Indonesian "kata sandi nya …".
 * credential-phrases.ts reads them like its own keywords; after a bridge with no colon only a
 * random-looking value counts, so "das Passwort ist falsch" stays as it is
 * (docs/decisions/0580-credentials-in-other-forms.md).
 */

/**
 * Written inside other words ("サーバーのrootパスワード"), so read without a word boundary; 暗証番号
 * also as the detection text writes it, its 証 folded to 证.
 */
export const PASSWORD_FOREIGN_CJK =
  "パスワード|ぱすわーど|パスコード|暗証番号|暗证番号|비밀번호|비번|패스워드|암호|รหัสผ่าน";

/** Whole words only: "Passwort", not inside another word. */
export const PASSWORD_FOREIGN_WORDS = [
  "парол[ьяеюи]м?",
  "contraseñas?|contrasenas?|senhas?",
  "passw(?:ö|oe)rter|passwort|kennwort",
  "mots? de passe",
  "m[ậa]t kh[ẩa]u",
  "has[łl]o|[şs]ifre",
  "kata\\s?sandi",
].join("|");

/** A connector word that ends a bridge of words: "ist", "es", "est", "é", "là", "это". */
const CONNECTOR_WORD = "ist|lautet|es|era|est|était|é|è|là|это|adalah|nya|—";

/**
 * Between keyword and value: a particle (は, 는), then either up to four words ending on a colon
 * or a connector word, or only white space on the same line.
 */
export const BRIDGE_FOREIGN = String.raw`(?<bridge>[はがも는은이가]?(?:\p{Script=Thai}{0,24}?คือ|(?:[^\S\n]+[^\s:：=,，。!?！？]{1,24}){0,4}?[^\S\n]*(?:[:：=]|[^\S\n](?:${CONNECTOR_WORD})(?=\s)))?[^\S\n]*)`;
