import { describe, it } from "vitest";
import { findSnippetValues } from "../../../src/domain/privacy/credential-command-snippets";

const values = (text: string) => findSnippetValues(text).map((f) => text.slice(f.start, f.end));

describe("passwords set in SQL, redis configuration and echoed into a prompt", () => {
  it.for([
    ["ALTER USER 'root'@'localhost' IDENTIFIED BY 'Root#2026';", ["Root#2026"]],
    ['CREATE USER app IDENTIFIED WITH mysql_native_password BY "app_pw_9";', ["app_pw_9"]],
    ["CREATE ROLE bob LOGIN PASSWORD 'pgBob77';", ["pgBob77"]],
    ["SET PASSWORD FOR 'u'@'%' = PASSWORD('oldStyle1');", ["oldStyle1"]],
    ["CREATE LOGIN web WITH PASSWORD = 'Web!2026x';", ["Web!2026x"]],
    ["redis.conf 里写了 requirepass foobared2", ["foobared2"]],
    ["127.0.0.1:6379> AUTH redisPw9", ["redisPw9"]],
    ["echo Sudo1234 | sudo -S apt update", ["Sudo1234"]],
    ["echo 'reg-Pw_1' | docker login -u bob --password-stdin harbor.local", ["reg-Pw_1"]],
    ["echo 'root:Chg_pw77' | chpasswd", ["Chg_pw77"]],
    ["ALTER USER app IDENTIFIED BY '${APP_PASSWORD}';", []],
    ["echo $PASS | sudo -S reboot", []],
    ["echo hello | grep h", []],
    ["requirepass 后面填什么", []],
    ["忘了 AUTH 命令怎么用", []],
  ] as const)("reads %j as %j", ([text, found], { expect }) => {
    expect(values(text)).toEqual(found);
  });
});
