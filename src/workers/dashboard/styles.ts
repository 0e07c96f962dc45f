/**
 * The dashboard's one stylesheet, served at /admin/app.css: small, responsive, no framework.
 * Pages carry no style attribute (the Content-Security-Policy refuses them, security-headers.ts):
 * what varies per element is a class, such as a document tree's indentation.
 */

/** The deepest indentation a document tree draws; deeper sections stay at it. */
export const TREE_DEPTHS = 8;

export const DASHBOARD_CSS = `
:root{--fg:#1d2330;--muted:#667085;--line:#e3e6ec;--bg:#f7f8fa;--card:#fff;--accent:#2f5bea;--bad:#c62828;--warn:#a15c00;--ok:#1b7f3a}
*{box-sizing:border-box}
body{margin:0;font:15px/1.45 system-ui,-apple-system,"Segoe UI","PingFang SC","Noto Sans CJK SC",sans-serif;color:var(--fg);background:var(--bg)}
a{color:var(--accent)}
header{display:flex;flex-wrap:wrap;align-items:center;gap:.25rem 1rem;padding:.6rem 1rem;background:var(--card);border-bottom:1px solid var(--line)}
header strong{margin-right:auto}
nav{display:flex;flex-wrap:wrap;gap:.2rem .8rem}
nav a{text-decoration:none;padding:.15rem 0}
nav a[aria-current=page]{font-weight:600;border-bottom:2px solid var(--accent)}
main{max-width:72rem;margin:0 auto;padding:1rem}
h1{font-size:1.3rem;margin:.2rem 0 1rem}
h2{font-size:1.05rem;margin:1.4rem 0 .6rem}
.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(9rem,1fr));gap:.6rem}
.card{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:.7rem}
.card b{display:block;font-size:1.4rem}
.card span{color:var(--muted);font-size:.85rem}
.pair{display:grid;grid-template-columns:repeat(auto-fit,minmax(18rem,1fr));gap:.8rem;margin-bottom:1rem}
.pair pre{white-space:pre-wrap;margin:.4rem 0;font-size:.9rem}
table{width:100%;border-collapse:collapse;background:var(--card);border:1px solid var(--line)}
th,td{text-align:left;padding:.4rem .5rem;border-bottom:1px solid var(--line);vertical-align:top}
th{font-size:.8rem;color:var(--muted);font-weight:600}
.scroll{overflow-x:auto}
form.filters,div.filters{display:flex;flex-wrap:wrap;gap:.5rem;align-items:end;margin-bottom:.8rem}
label{display:flex;flex-direction:column;font-size:.8rem;color:var(--muted);gap:.15rem}
input,select,textarea,button{font:inherit;padding:.35rem .5rem;border:1px solid var(--line);border-radius:6px;background:#fff;color:var(--fg)}
textarea{width:100%;min-height:16rem;font-family:ui-monospace,monospace;font-size:.85rem}
button{background:var(--accent);color:#fff;border-color:var(--accent);cursor:pointer}
button.quiet{background:#fff;color:var(--accent)}
button.danger{background:var(--bad);border-color:var(--bad)}
.tag{display:inline-block;padding:0 .4rem;border-radius:4px;font-size:.75rem;background:#eef1f6}
.tag.private{background:#fff4e0;color:var(--warn)}
.tag.secret_like{background:#fde8e8;color:var(--bad)}
.error{border:1px solid var(--bad);background:#fdf0f0;color:var(--bad);padding:.6rem;border-radius:6px}
.notice{border:1px solid var(--ok);background:#eefaf1;color:var(--ok);padding:.6rem;border-radius:6px}
.muted{color:var(--muted)}
.login{max-width:22rem;margin:10vh auto;background:var(--card);border:1px solid var(--line);border-radius:10px;padding:1.2rem}
.login form{display:flex;flex-direction:column;gap:.7rem}
svg.chart{width:100%;height:auto;background:var(--card);border:1px solid var(--line);border-radius:8px}
svg.chart rect{fill:var(--accent)}
svg.chart text{font-size:9px;fill:var(--muted)}
.inline{display:inline}
.risk{display:inline-block;padding:0 .4rem;border-radius:4px;font-size:.75rem;font-weight:600;background:var(--bad);color:#fff}
.no-risk{color:var(--ok);font-size:.85rem}
.scope-read{display:inline-block;margin:0 .6rem .2rem 0}
.scope-read code{word-break:break-all}
.scope-read.risky code{color:var(--bad)}
.drop{border:2px dashed var(--line);border-radius:8px;padding:1.2rem;text-align:center;background:var(--card);color:var(--muted)}
.drop.over{border-color:var(--accent);color:var(--accent)}
.uploads{list-style:none;padding:0;margin:.6rem 0}
.uploads li{background:var(--card);border:1px solid var(--line);border-radius:6px;padding:.45rem .6rem;margin-bottom:.4rem}
.uploads progress{width:100%;height:.6rem}
.uploads .ok{color:var(--ok)}
.uploads .bad{color:var(--bad)}
.tree{list-style:none;padding-left:0}
.tree li{padding:.1rem 0}
${Array.from({ length: TREE_DEPTHS + 1 }, (_, d) => `.tree .depth-${d}{padding-left:${(d * 1.1).toFixed(1)}rem}`).join("\n")}
label.wide{width:100%}
fieldset{border:1px solid var(--line);border-radius:8px;background:var(--card);margin:0 0 1rem;padding:.6rem .9rem}
legend{font-weight:600;padding:0 .3rem}
.field{display:flex;flex-direction:column;gap:.2rem;margin:.5rem 0 .9rem;max-width:40rem}
.field label{flex-direction:row;align-items:baseline;gap:.5rem;font-size:.9rem;color:var(--fg)}
.field label code{font-size:.75rem;color:var(--muted)}
.field small,.field span{font-size:.8rem}
.field.invalid input,.field.invalid select,.field.invalid textarea{border-color:var(--bad)}
.field-error{color:var(--bad);margin:0;font-size:.85rem}
textarea.short{min-height:5rem;font-family:inherit}
details{margin:1rem 0}
summary{cursor:pointer;font-weight:600}
@media (max-width:600px){th,td{padding:.3rem}body{font-size:14px}header strong{width:100%}}
`;
