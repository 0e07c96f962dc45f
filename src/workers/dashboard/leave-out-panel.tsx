/**
 * "Leave a person out" on the Identity page (docs/settings.md#privacy-leaving-a-person-out): the do-not-record
 * list, an add form (with the option to forget what was kept in the same step) and a remove
 * button per account. The forms go through the same privacy service as the API and CLI.
 */
import { CSRF_FIELD } from "../auth/csrf";

export function LeaveOutPanel(props: {
  csrf: string | null;
  accounts: readonly string[];
  fromConfig: readonly string[];
}) {
  const csrf = props.csrf && <input type="hidden" name={CSRF_FIELD} value={props.csrf} />;
  return (
    <>
      <h2 id="leave-out">不记录名单</h2>
      <p class="muted">
        不记录名单：名单上的账号 @机器人 时照常回答，但消息和回答不写入记录、不进入记忆整理和每日总结，OneBot
        回填也跳过。只对列出的账号生效；同一人物的其它账号要分别加入。
      </p>
      {props.accounts.length === 0 ? (
        <p class="muted">名单为空。</p>
      ) : (
        <ul id="left-out-accounts">
          {props.accounts.map((a) => (
            <li>
              <code>{a}</code>{" "}
              {props.fromConfig.includes(a) ? (
                <span class="muted">（来自部署配置，只能在那里移除）</span>
              ) : (
                <form method="post" action="/admin/identity/leave-out/remove" class="inline">
                  {csrf}
                  <input type="hidden" name="account" value={a} />
                  <button type="submit">移出</button>
                </form>
              )}
            </li>
          ))}
        </ul>
      )}
      <form method="post" action="/admin/identity/leave-out" class="filters">
        {csrf}
        <label>
          账号
          <input name="account" placeholder="账号标识" required />
        </label>
        <label>
          <input type="checkbox" name="forget" value="1" />{" "}
          同时删除已保存的消息、个人记忆和观察记录（不可恢复）
        </label>
        <button type="submit">加入不记录名单</button>
      </form>
    </>
  );
}
