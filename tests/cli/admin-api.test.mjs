// The admin API's problem() answers as the CLI says them: labelled by their codes in the chosen
// language, said in full where the command knows the code, the Worker's own words kept as data.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { problemMessage } from "../../scripts/cli/admin-api.mjs";
import { setLang } from "../../scripts/cli/i18n/lang.mjs";

describe("problemMessage", () => {
  it("problem() answers become one line, in Chinese by default", () => {
    setLang("zh-CN");
    assert.equal(
      problemMessage(404, { error: "not-found", what: "memory item m_1" }),
      "HTTP 404 不存在：memory item m_1",
    );
    // A code the command knows is said in full; the Worker's English reason is not read.
    assert.equal(
      problemMessage(
        400,
        { error: "invalid", field: "status", reason: "only an active item can be archived" },
        { "invalid:status": () => "只有有效的条目才能归档" },
      ),
      "HTTP 400：只有有效的条目才能归档",
    );
    assert.equal(problemMessage(502, { raw: "Bad gateway" }), "HTTP 502: Bad gateway");
  });

  it("in English the labels are the API's own codes", () => {
    setLang("en");
    try {
      assert.equal(
        problemMessage(400, { error: "invalid", field: "since", reason: "must be epoch milliseconds" }),
        "HTTP 400 invalid: since must be epoch milliseconds",
      );
      // A kind this CLI does not know yet is shown as it came.
      assert.equal(problemMessage(418, { error: "teapot", reason: "short" }), "HTTP 418 teapot: short");
    } finally {
      setLang("zh-CN");
    }
  });

  it("a schema issue the Worker gives as data is worded in the chosen language, not the Worker's", () => {
    const answer = {
      error: "invalid",
      field: "notices.modelErrors",
      reason: "Too small: expected number to be >=1",
      issue: { origin: "number", code: "too_small", minimum: 1, inclusive: true },
    };
    setLang("zh-CN");
    assert.equal(
      problemMessage(400, answer),
      "HTTP 400 输入无效：notices.modelErrors 数值过小：期望 number >=1",
    );
    setLang("en");
    try {
      assert.equal(
        problemMessage(400, answer),
        "HTTP 400 invalid: notices.modelErrors Too small: expected number to be >=1",
      );
    } finally {
      setLang("zh-CN");
    }
    // An issue with no code is not one: the Worker's words stand.
    assert.match(problemMessage(400, { ...answer, issue: { minimum: 1 } }), /Too small/);
  });
});
