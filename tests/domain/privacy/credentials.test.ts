import { memoryNodeId } from "@src/domain/memory/memory";
import { looksLikeCredential } from "@src/domain/memory/sensitivity";
import { statesACredential } from "@src/domain/privacy/credential-statements";
import {
  CREDENTIAL_MASK,
  containsCredential,
  findCredentials,
  maskCredentials,
  maskSensitiveData,
} from "@src/domain/privacy/credentials";
import { describe, it } from "vitest";
import { NEGATIVES, POSITIVES } from "./credential-corpus";

describe("credential corpus", () => {
  it("is large enough to mean something", ({ expect }) => {
    expect(POSITIVES.length).toBeGreaterThanOrEqual(80);
    expect(NEGATIVES.length).toBeGreaterThanOrEqual(60);
    expect(new Set(POSITIVES.map((p) => p[2])).size).toBeGreaterThanOrEqual(15);
  });

  it.for(POSITIVES.map(([text, secret]) => [text, secret] as const))(
    "masks %s",
    ([text, secret], { expect }) => {
      expect(text).toContain(secret);
      expect(containsCredential(text)).toBe(true);
      const masked = maskCredentials(text);
      expect(masked).toContain(CREDENTIAL_MASK);
      expect(masked).not.toContain(secret);
    },
  );

  it.for(NEGATIVES)("leaves alone %s", (text, { expect }) => {
    expect(findCredentials(text)).toEqual([]);
    expect(maskCredentials(text)).toBe(text);
  });
});

describe("masking", () => {
  it("keeps the surrounding words", ({ expect }) => {
    expect(maskCredentials("我的QQ密码改成了 Qq778899")).toBe(`我的QQ密码改成了 ${CREDENTIAL_MASK}`);
    expect(maskCredentials("邮箱密码 mail2024!，别告诉别人")).toBe(`邮箱密码 ${CREDENTIAL_MASK}，别告诉别人`);
    expect(maskCredentials("my password is now Summer2024! ok?")).toBe(
      `my password is now ${CREDENTIAL_MASK} ok?`,
    );
    expect(maskCredentials("key sk-abcdefghijklmnopqrstuvwx 和 ghp_0123456789abcdefghijABCDEFGHIJ")).toBe(
      `key ${CREDENTIAL_MASK} 和 ${CREDENTIAL_MASK}`,
    );
    expect(maskCredentials("postgres://admin:Pg_s3cret@db.example.com/app")).toBe(
      `postgres://admin:${CREDENTIAL_MASK}@db.example.com/app`,
    );
  });

  it("is idempotent: masked text has nothing left to find", ({ expect }) => {
    for (const [text] of POSITIVES) {
      const once = maskCredentials(text);
      expect(maskCredentials(once)).toBe(once);
      expect(findCredentials(once)).toEqual([]);
    }
  });

  it("names the rule and merges overlapping findings into one span", ({ expect }) => {
    const spans = findCredentials("token=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.abc");
    expect(spans).toHaveLength(1);
    expect(spans[0]).toMatchObject({ start: 6 });
    expect(findCredentials("AKIAIOSFODNN7EXAMPLE")[0]?.rule).toBe("aws-access-key-id");
    expect(findCredentials("密码是abc12345")[0]?.rule).toBe("password-phrase");
  });

  it("masks a password after an account and a slash whole, not split at the word inside it", ({ expect }) => {
    expect(maskCredentials("登录：用户名 root / Passw0rd!")).toBe(`登录：用户名 root / ${CREDENTIAL_MASK}`);
    expect(maskCredentials("user: admin/admin")).toBe(`user: admin/${CREDENTIAL_MASK}`);
    expect(maskCredentials("输入 username / password 登录")).toBe("输入 username / password 登录");
  });

  it("leaves a variable, a link or a file that stands for the secret: the value is elsewhere", ({
    expect,
  }) => {
    for (const text of [
      'curl -H "Authorization: Bearer $TOKEN" http://127.0.0.1:8000/api',
      'mongo "mongodb://admin:${MONGO_PWD}@10.0.0.12:27017/admin"',
      "wget --user=admin --ask-password http://10.0.0.3/files/release-1.4.tar.gz",
      "mount -t cifs //nas/share /mnt -o credentials=/root/.smbcred,uid=1000",
    ])
      expect(maskCredentials(text)).toBe(text);
  });

  it("returns text without secrets unchanged, and empty text as is", ({ expect }) => {
    expect(maskCredentials("")).toBe("");
    expect(maskCredentials("你好")).toBe("你好");
  });
});

// The bot names its memory items, knowledge nodes and plans in replies and audit rows, and
// memory_forget takes the id back: a masked id would break what it points at.
it("keeps the ids this system mints readable, and still masks a random key of their length", ({ expect }) => {
  const ids = Array.from({ length: 200 }, (_, i) => memoryNodeId("chat:qq:group:G1", `第${i}条`, String(i)));
  const text = `记住的条目：${ids.join("、")}`;
  expect(findCredentials(text)).toEqual([]);
  expect(
    maskCredentials(
      "文档 d_0123456789abcdef01234567 节点 n_89abcdef0123456789abcdef 计划 plan-1700000000000-1a2b3c4d",
    ),
  ).toBe("文档 d_0123456789abcdef01234567 节点 n_89abcdef0123456789abcdef 计划 plan-1700000000000-1a2b3c4d");
  // A key shaped like the ids but not one of them (upper case, another prefix) is masked.
  expect(containsCredential("m_Q7xk2Lp9Zr4Tw8Yb3Nc6Vd")).toBe(true);
  expect(containsCredential("k_7xk2lp9zr4tw8yb3nc6vd1")).toBe(true);
});

// A minted id is base 36, so a credential keyword can sit inside it: "m_0neu0c7cvv826ccjosbjfi"
// holds "cvv 826…", and a masked target once cut an admin's edit off its audit row.
it.for(["cvv", "cvc", "pin", "otp", "pwd", "psk", "mima", "mm", "pass", "key", "code", "token", "2fa"])(
  "keeps a minted id whole when %j sits inside it, in every text that names it",
  (word, { expect }) => {
    const filler = "0neu0c7826ccjosbjfi4q8z1x";
    const ids = [0, 3, 9].map((at) => `m_${`${filler.slice(0, at)}${word}${filler.slice(at)}`.slice(0, 22)}`);
    // The last holds a mobile number's digits, which personal data would mask.
    for (const id of [...ids, "m_0neu0c7cvv826ccjosbjfi", "m_ab13912345678cdefghijk"]) {
      for (const text of [id, `memory:${id}`, `已忘记 #${id}`, `（记忆·本聊天·2026-12-07 #${id}）`])
        expect(maskSensitiveData(text), text).toBe(text);
    }
  },
);

// Gamers' 房密 is a room's password: "房密8860" gives it; 住房密集 is no password.
it("reads 房密 as a password's name", ({ expect }) => {
  expect(maskCredentials("五排开了 房号 3317 房密 2290 速来")).not.toContain("2290");
  expect(maskCredentials("房密8860")).not.toContain("8860");
  expect(maskCredentials("这一片住房密集 3317 户")).toBe("这一片住房密集 3317 户");
});

// A luggage lock takes three digits: given by a connector they are the password, beside the
// keyword alone they may be chat ("密码 886" is also "bye").
it("reads three digits a connector gives as a password", ({ expect }) => {
  for (const text of ["行李箱密码是386", "储物柜的密码：047", "the locker password is 295"])
    expect(maskCredentials(text), text).not.toMatch(/386|047|295/);
  for (const text of ["密码 886", "密码是6位", "密码是 3 位数"]) expect(maskCredentials(text)).toBe(text);
});

describe("memory's credential check uses the detector", () => {
  it("refuses every positive, and its masked form", ({ expect }) => {
    for (const [text] of POSITIVES) {
      expect(looksLikeCredential(text), text).toBe(true);
      expect(looksLikeCredential(maskCredentials(text)), text).toBe(true);
    }
  });

  // Memory also refuses a statement of what a secret is, however its value reads
  // (credential-statements.ts): chat near misses such as "密码是 / 好的谢谢" are refused as memory
  // text, and nothing else is.
  it("lets every negative through, but a statement of what a secret is", ({ expect }) => {
    for (const text of NEGATIVES) {
      expect(containsCredential(text), text).toBe(false);
      expect(looksLikeCredential(text), text).toBe(statesACredential(text));
    }
  });
});

describe("cost", () => {
  it("masks 100 kB of adversarial text quickly (no catastrophic backtracking)", ({ expect }) => {
    const pieces = ["密码", "password ", "Bearer ", "-----BEGIN RSA PRIVATE KEY-----", "sk-", "a".repeat(50)];
    let text = "";
    for (let i = 0; text.length < 100_000; i++) text += pieces[(i * 7) % pieces.length];
    const described = [
      "密码全是1 ".repeat(15_000),
      "门禁 三个五".repeat(15_000),
      "left 12 ".repeat(12_000),
      "密码 1 2 3 4 ".repeat(9_000),
      "大写A 小写b ".repeat(12_000),
    ];
    // Commands in a row each read the words after them (credential-command-lines.ts).
    const commands = ["sshpass -p ".repeat(9_000), "--pass ".repeat(14_000), "mysql -uroot -p".repeat(7_000)];
    for (const t of [
      text,
      "密码 ".repeat(30_000),
      "password is ".repeat(8_000),
      "x".repeat(100_000),
      ...described,
      ...commands,
    ]) {
      const started = performance.now();
      maskCredentials(t);
      expect(performance.now() - started).toBeLessThan(2_000);
    }
  });
});
