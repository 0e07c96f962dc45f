import { parseCqString, unescapeCq } from "@src/adapters/onebot/cq-code";
import { describe, it } from "vitest";

describe("parseCqString", () => {
  it("splits text and codes in order", ({ expect }) => {
    expect(parseCqString("[CQ:at,qq=10001] 看[CQ:image,file=abc.jpg,url=https://x.test/a.jpg]")).toEqual([
      { type: "at", data: { qq: "10001" } },
      { type: "text", data: { text: " 看" } },
      { type: "image", data: { file: "abc.jpg", url: "https://x.test/a.jpg" } },
    ]);
  });

  it("unescapes text and parameter values", ({ expect }) => {
    expect(parseCqString("a&amp;b &#91;x&#93;[CQ:file,name=a&#44;b&#93;.txt]")).toEqual([
      { type: "text", data: { text: "a&b [x]" } },
      { type: "file", data: { name: "a,b].txt" } },
    ]);
  });

  it("reads codes without parameters and keys with = in the value", ({ expect }) => {
    expect(parseCqString('[CQ:shake][CQ:json,data={"a"=1}]')).toEqual([
      { type: "shake", data: {} },
      { type: "json", data: { data: '{"a"=1}' } },
    ]);
  });

  it("leaves brackets that do not form a code as text", ({ expect }) => {
    expect(parseCqString("[CQ:at,qq=1 and [not a code]")).toEqual([
      { type: "text", data: { text: "[CQ:at,qq=1 and [not a code]" } },
    ]);
  });

  it("returns no segments for an empty string", ({ expect }) => {
    expect(parseCqString("")).toEqual([]);
  });
});

describe("unescapeCq", () => {
  it("unescapes only the CQ entities, once", ({ expect }) => {
    expect(unescapeCq("&amp;#91; &lt; &#44;")).toBe("&#91; &lt; ,");
  });
});
