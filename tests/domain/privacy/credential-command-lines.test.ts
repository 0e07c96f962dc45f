import { findCommandLineValues, isCommandValue } from "@src/domain/privacy/credential-command-lines";
import { findSnippetValues } from "@src/domain/privacy/credential-command-snippets";
import { maskCredentials } from "@src/domain/privacy/credentials";
import { describe, it } from "vitest";

const values = (text: string) =>
  [...findCommandLineValues(text), ...findSnippetValues(text)].map((f) => text.slice(f.start, f.end));

describe("passwords given to a command on its command line, set in SQL or echoed into a prompt", () => {
  // Each line with the values it holds; near misses use the same tools and the same letters.
  it.for([
    ["连不上 mysql -uroot -pQwe!2024 -h 10.0.0.5 帮我看看", ["Qwe!2024"]],
    ["/usr/local/mysql/bin/mysqldump -u root -p'db pass 1' shop > shop.sql", ["db pass 1"]],
    ["mysqladmin -u root -pold1234 password new5678", ["old1234", "new5678"]],
    ["redis-cli -h 10.1.1.2 -p 6379 -a foobared", ["foobared"]],
    ["sshpass -p 'Zq8#kk' ssh -p 22022 root@10.0.0.9", ["Zq8#kk"]],
    ["curl -u admin:lemon7 http://nas.local/api", ["lemon7"]],
    ["http -a bob:melon42 GET localhost:8080", ["melon42"]],
    ["docker login -u bob -p reg0Pass harbor.example.com", ["reg0Pass"]],
    ["7z a -pTopSecret9 -mhe=on backup.7z docs", ["TopSecret9"]],
    ["zip -P 5521 out.zip a.txt", ["5521"]],
    ["openssl pkcs12 -export -in a.crt -passout pass:kiwi123 -out a.p12", ["kiwi123"]],
    ["keytool -list -keystore app.jks -storepass s3cretJks", ["s3cretJks"]],
    ["smbclient //nas/share -U bob%plum99", ["plum99"]],
    ["sqlcmd -S db -U sa -P 'Sa_2024!'", ["Sa_2024!"]],
    ["xfreerdp /u:admin /p:Winter2026 /v:10.0.0.3", ["Winter2026"]],
    ["net user bob Passw0rd! /add", ["Passw0rd!"]],
    ["net use Z: \\\\srv\\share Hunter22x /user:bob", ["Hunter22x"]],
    ["htpasswd -bc /etc/nginx/.htpasswd admin Ngx_1234", ["Ngx_1234"]],
    ["sqlplus scott/tiger@orcl", ["tiger"]],
    ["rabbitmqctl add_user bob rabbit77", ["rabbit77"]],
    ["nmcli dev wifi connect Home password homewifi8", ["homewifi8"]],
    ["mongosh --host db --password m0ngoPw", ["m0ngoPw"]],
    ["./backup.sh --db-pass=hardtoguess1", ["hardtoguess1"]],
    ["mysql8 -uroot -p123456 -e 'show databases'", ["123456"]],
    ["mysql -uroot -p -h 10.0.0.5", []],
    ["mysql -u root -P 3306 -p shop", []],
    ["ssh -p 2222 root@host", []],
    ["docker run -u 1000 -p8080:80 -p 443:443 nginx", []],
    ["curl -u bob https://api.example.com", []],
    ['curl -u "$USER:$PASS" https://api.example.com', []],
    ["redis-cli -a $REDIS_PASSWORD", []],
    ["sqlcmd -S db -U sa -P %SA_PASSWORD%", []],
    ["mysql -uroot -p<password>", []],
    ["mysql -uroot -p你的密码", []],
    ["docker login --password-stdin -u bob", []],
    ["pg_dump --no-password mydb > a.sql", []],
    ["ansible-playbook --ask-become-pass site.yml", []],
    ["rsync --password-file=/etc/rsync.pass src/ host::dst", []],
    ["mkdir -p /data/mysql && chown -R mysql /data", []],
    ["7z x backup.7z -o/tmp", []],
    ["net user bob /active:yes", []],
    ["htpasswd -c /etc/nginx/.htpasswd admin", []],
    ["mysql 的 -p 参数后面直接跟密码吗", []],
    // SQL, redis configuration and a value echoed into a prompt (credential-command-snippets.ts).
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
    for (const value of found) expect(maskCredentials(text)).not.toContain(value);
  });

  it("reads a wrapper's flags up to the command it runs: sshpass's -p, not ssh's", ({ expect }) => {
    expect(values("sshpass -p pw123456 ssh -p 22022 root@h")).toEqual(["pw123456"]);
    expect(values('sshpass -p "$SSH_PASS" ssh -p 22022 root@h')).toEqual([]);
  });

  it("reads a command continued over lines, and stops where the next command or prose begins", ({
    expect,
  }) => {
    expect(values("mysql -uroot \\\n  -pLine2Pass \\\n  -h db")).toEqual(["Line2Pass"]);
    expect(values("sshpass -p pw1234 ssh h; ls -p 12345")).toEqual(["pw1234"]);
    expect(values("docker login -u bob\n然后 -p 是端口")).toEqual([]);
  });

  it("takes any argument as a value but a prompt's absence, a variable, a placeholder or a path", ({
    expect,
  }) => {
    const taken = ["abc", "MyRedisPass1", "Qwe!2024", "db pass 1"];
    const notValues = [
      "ab",
      "$PASS",
      "<password>",
      "my_password",
      "your-token",
      "DB_PASSWORD",
      "****",
      "/etc/pass",
      "密码",
    ];
    expect(taken.filter((v) => !isCommandValue(v))).toEqual([]);
    expect(notValues.filter(isCommandValue)).toEqual([]);
  });
});
