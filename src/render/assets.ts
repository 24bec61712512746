/**
 * The inline stylesheet and script of the HTML page. Both are constants,
 * so the page's Content-Security-Policy can allow exactly this script by
 * its hash and nothing else. The script only adds conveniences (theme
 * toggle, expand all, search, opening the target of a link); without it
 * the page still reads in full.
 */

import { createHash } from "node:crypto";

export const CSS = `
:root{--bg:#fbfbfa;--fg:#1f2328;--muted:#5d6670;--border:#d8dee4;--panel:#fff;--code:#f4f6f8;
--user:#eef4ff;--user-b:#a9c7f5;--accent:#0b62d6;--tool:#f7f8fa;--tool-b:#dde2e8;--ok:#1a7f37;
--err:#c4222e;--err-bg:#fff1f0;--think:#6b5aa8;--mark:#ffe27a;--mark-cur:#ff9f1c;
--h-kw:#cf222e;--h-str:#0a3069;--h-num:#0550ae;--h-com:#6e7781;--h-fn:#8250df;--h-type:#953800;
--h-add:#116329;--h-add-bg:#e6ffec;--h-del:#82071e;--h-del-bg:#ffebe9;color-scheme:light}
:root[data-theme=dark]{--bg:#0f1216;--fg:#e4e8ee;--muted:#98a2ad;--border:#2d333b;--panel:#161a20;
--code:#1b2028;--user:#14243a;--user-b:#2f5288;--accent:#5ea6ff;--tool:#151a21;--tool-b:#2b323b;
--ok:#57c46c;--err:#ff7b72;--err-bg:#3a1719;--think:#b3a6ef;--mark:#6d5a00;--mark-cur:#b35c00;
--h-kw:#ff7b72;--h-str:#a5d6ff;--h-num:#79c0ff;--h-com:#8b949e;--h-fn:#d2a8ff;--h-type:#ffa657;
--h-add:#aff5b4;--h-add-bg:#0f3a1e;--h-del:#ffdcd7;--h-del-bg:#4a1518;color-scheme:dark}
@media (prefers-color-scheme:dark){:root:not([data-theme=light]){--bg:#0f1216;--fg:#e4e8ee;
--muted:#98a2ad;--border:#2d333b;--panel:#161a20;--code:#1b2028;--user:#14243a;--user-b:#2f5288;
--accent:#5ea6ff;--tool:#151a21;--tool-b:#2b323b;--ok:#57c46c;--err:#ff7b72;--err-bg:#3a1719;
--think:#b3a6ef;--mark:#6d5a00;--mark-cur:#b35c00;--h-kw:#ff7b72;--h-str:#a5d6ff;--h-num:#79c0ff;
--h-com:#8b949e;--h-fn:#d2a8ff;--h-type:#ffa657;--h-add:#aff5b4;--h-add-bg:#0f3a1e;--h-del:#ffdcd7;
--h-del-bg:#4a1518;color-scheme:dark}}
*{box-sizing:border-box}
html{scroll-padding-top:4rem}
body{margin:0;background:var(--bg);color:var(--fg);font:15px/1.6 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
code,pre,kbd{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"DejaVu Sans Mono","Liberation Mono",monospace;font-size:13px}
a{color:var(--accent)}a.file{color:inherit;text-decoration:underline dotted}
.bar{position:sticky;top:0;z-index:10;display:flex;gap:.5rem;align-items:center;padding:.5rem 1rem;
background:color-mix(in srgb,var(--bg) 88%,transparent);backdrop-filter:blur(6px);border-bottom:1px solid var(--border)}
.bar .brand{flex:1 1 auto;min-width:0;font-weight:600;color:var(--muted);white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.bar input{width:16rem;max-width:40vw;padding:.3rem .6rem;border:1px solid var(--border);border-radius:6px;background:var(--panel);color:var(--fg);font:inherit}
.bar button{white-space:nowrap;padding:.3rem .65rem;border:1px solid var(--border);border-radius:6px;background:var(--panel);color:var(--fg);font:inherit;font-size:13px;cursor:pointer}
.bar button:hover{border-color:var(--accent)}
#qcount{min-width:4.5rem;color:var(--muted);font-size:13px;text-align:right}
.layout{display:grid;grid-template-columns:15rem minmax(0,1fr);gap:2rem;max-width:76rem;margin:0 auto;padding:0 1rem}
.toc{position:sticky;top:3.5rem;align-self:start;max-height:calc(100vh - 4rem);overflow:auto;padding:1.25rem 0;font-size:13px}
.toc h2{font-size:12px;text-transform:uppercase;letter-spacing:.06em;color:var(--muted);margin:0 0 .5rem}
.toc ol{list-style:none;margin:0;padding:0}
.toc li a{display:flex;gap:.5rem;padding:.2rem .4rem;border-radius:5px;color:var(--fg);text-decoration:none;line-height:1.35}
.toc li a:hover{background:var(--code)}
.toc .n{color:var(--muted);min-width:1.5rem;text-align:right;font-variant-numeric:tabular-nums}
.toc .l{overflow:hidden;text-overflow:ellipsis;display:-webkit-box;-webkit-line-clamp:2;-webkit-box-orient:vertical}
main{min-width:0;padding:1.25rem 0 4rem;max-width:52rem}
.head h1{font-size:1.6rem;line-height:1.3;margin:.25rem 0 .75rem;overflow-wrap:anywhere}
.meta{display:grid;grid-template-columns:max-content 1fr;gap:.15rem 1rem;margin:0 0 1.5rem;font-size:13px;color:var(--muted)}
.meta dt{font-weight:600}.meta dd{margin:0;color:var(--fg);overflow-wrap:anywhere}
.turn{border-top:1px solid var(--border);padding-top:.75rem;margin-top:1.5rem}
.turn>h2{font-size:12px;text-transform:uppercase;letter-spacing:.06em;color:var(--muted);margin:0 0 .5rem}
.turn>h2 a{color:inherit;text-decoration:none}
.msg{margin:.75rem 0}
.who{display:flex;flex-wrap:wrap;gap:.35rem .6rem;align-items:baseline;font-size:13px;color:var(--muted);margin-bottom:.25rem}
.who .role{font-weight:650;color:var(--fg)}
.who .ord{margin-left:auto;color:var(--muted);text-decoration:none;font-variant-numeric:tabular-nums}
.msg.user .body{background:var(--user);border:1px solid var(--user-b);border-radius:10px;padding:.6rem .9rem}
.msg.user .role{color:var(--accent)}
.msg.assistant .role::before{content:"";display:inline-block;width:.55rem;height:.55rem;border-radius:50%;background:var(--ok);margin-right:.4rem}
.md>:first-child{margin-top:0}.md>:last-child{margin-bottom:0}
.md p{margin:.5rem 0}
.md pre,pre.code{background:var(--code);border:1px solid var(--border);border-radius:6px;padding:.55rem .75rem;overflow:auto;line-height:1.45;margin:.5rem 0;max-height:36rem}
.md code{background:var(--code);padding:.1rem .3rem;border-radius:4px;overflow-wrap:anywhere}
.md pre code{background:none;padding:0;border-radius:0;overflow-wrap:normal}
.md table{border-collapse:collapse;display:block;overflow:auto}.md th,.md td{border:1px solid var(--border);padding:.25rem .6rem}
.md blockquote{margin:.5rem 0;padding:0 .9rem;border-left:3px solid var(--border);color:var(--muted)}
.md img,.image img{max-width:100%;height:auto;border-radius:6px;border:1px solid var(--border)}
details>summary{cursor:pointer;color:var(--muted);font-size:13px;user-select:none}
details.thinking{margin:.5rem 0;border-left:3px solid var(--think);padding:.1rem .8rem}
details.thinking>summary{color:var(--think);font-style:italic}
details.thinking .md{color:var(--muted);font-size:14px}
.call{margin:.6rem 0;border:1px solid var(--tool-b);border-radius:8px;background:var(--tool);overflow:hidden}
.call-h{display:flex;flex-wrap:wrap;gap:.25rem .6rem;align-items:baseline;padding:.4rem .75rem;font-size:13px}
.call-h .tag{font-weight:650}.call-h .n{color:var(--muted);font-variant-numeric:tabular-nums}
.call-h .target{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"DejaVu Sans Mono",monospace;overflow-wrap:anywhere}
.call-h .note{color:var(--muted)}
.call-h .link{margin-left:auto;font-size:12px;white-space:nowrap}
.link{text-decoration:none}.link:hover{text-decoration:underline}
.call>pre.code,.call>details>pre.code{margin:0 .75rem .6rem;max-height:24rem}
.call>details{margin:0 .75rem .5rem}.call>details>pre.code{margin:.3rem 0 .2rem}
.result{border-top:1px dashed var(--tool-b);padding:.35rem .75rem .6rem}
.result>.rh,.result>summary{font-size:12px;color:var(--muted);display:flex;gap:.5rem;align-items:baseline}
.result>summary{display:list-item}
.result pre.code{margin:.35rem 0 0;background:var(--panel)}
.result.error{background:var(--err-bg)}
.badge{display:inline-block;font-size:11px;font-weight:650;padding:0 .4rem;border-radius:9px;border:1px solid currentColor;line-height:1.5}
.badge.error{color:var(--err)}.badge.ok{color:var(--ok)}
.call.error{border-color:var(--err)}
.empty{color:var(--muted);font-style:italic;font-size:13px}
.orphan{margin:.6rem 0}
.image{margin:.5rem 0}.image figcaption{font-size:12px;color:var(--muted)}
.anchor{display:block;height:0}
mark{background:var(--mark);color:inherit;border-radius:2px}mark.cur{background:var(--mark-cur);outline:2px solid var(--mark-cur)}
:target{animation:flash 1.2s ease-out}
@keyframes flash{from{box-shadow:0 0 0 3px var(--accent)}to{box-shadow:0 0 0 3px transparent}}
.hljs-keyword,.hljs-selector-tag,.hljs-meta .hljs-keyword,.hljs-doctag{color:var(--h-kw)}
.hljs-string,.hljs-regexp,.hljs-meta .hljs-string{color:var(--h-str)}
.hljs-number,.hljs-literal,.hljs-variable,.hljs-attr,.hljs-attribute,.hljs-symbol{color:var(--h-num)}
.hljs-comment,.hljs-quote{color:var(--h-com);font-style:italic}
.hljs-title,.hljs-section,.hljs-title.function_{color:var(--h-fn)}
.hljs-type,.hljs-built_in,.hljs-title.class_,.hljs-params,.hljs-meta,.hljs-name,.hljs-tag{color:var(--h-type)}
.hljs-addition{color:var(--h-add);background:var(--h-add-bg);display:inline-block;width:100%}
.hljs-deletion{color:var(--h-del);background:var(--h-del-bg);display:inline-block;width:100%}
.hljs-emphasis{font-style:italic}.hljs-strong{font-weight:bold}
@media (max-width:56rem){.bar{flex-wrap:wrap}.bar .brand{display:none}.bar input{flex:1 1 8rem;width:auto;max-width:none}
.layout{display:block}.toc{position:static;max-height:none;border-bottom:1px solid var(--border)}}
@media print{.bar,.toc,.link{display:none!important}.layout{display:block;max-width:none;padding:0}
body{background:#fff;color:#000;font-size:11pt}main{max-width:none;padding:0}
.md pre,pre.code{max-height:none;overflow:visible;white-space:pre-wrap;word-break:break-word}
.call,.msg.user .body,pre{break-inside:avoid-page}.turn{break-before:auto}
a{color:inherit;text-decoration:none}}
`;

export const SCRIPT = `(function(){
"use strict";
var root=document.documentElement,main=document.querySelector("main");
var themeBtn=document.getElementById("theme"),expandBtn=document.getElementById("expand");
var q=document.getElementById("q"),count=document.getElementById("qcount");
var themes=["auto","light","dark"];
function setTheme(t){root.setAttribute("data-theme",t);themeBtn.textContent="Theme: "+t;
try{localStorage.setItem("txcript-theme",t)}catch(e){}}
var saved=null;try{saved=localStorage.getItem("txcript-theme")}catch(e){}
setTheme(themes.indexOf(saved)>=0?saved:"auto");
themeBtn.addEventListener("click",function(){setTheme(themes[(themes.indexOf(root.getAttribute("data-theme"))+1)%3])});
var expanded=false;
expandBtn.addEventListener("click",function(){expanded=!expanded;
document.querySelectorAll("main details").forEach(function(d){d.open=expanded});
expandBtn.textContent=expanded?"Collapse all":"Expand all";expandBtn.setAttribute("aria-pressed",String(expanded))});
function reveal(el){for(var n=el;n&&n!==main;n=n.parentElement){if(n.tagName==="DETAILS")n.open=true}}
function go(id){var el=id&&document.getElementById(id);if(!el)return;reveal(el);if(el.tagName==="DETAILS")el.open=true}
document.addEventListener("click",function(e){var a=e.target.closest&&e.target.closest('a[href^="#"]');
if(a)go(decodeURIComponent(a.getAttribute("href").slice(1)))});
window.addEventListener("hashchange",function(){go(decodeURIComponent(location.hash.slice(1)))});
if(location.hash)go(decodeURIComponent(location.hash.slice(1)));
var marks=[],cur=-1,timer=0,LIMIT=2000;
function clear(){marks.forEach(function(m){var p=m.parentNode;if(!p)return;
p.replaceChild(document.createTextNode(m.textContent),m);p.normalize()});marks=[];cur=-1}
function show(k){if(!marks.length)return;if(cur>=0)marks[cur].classList.remove("cur");
cur=(k+marks.length)%marks.length;var m=marks[cur];m.classList.add("cur");reveal(m);
m.scrollIntoView({block:"center"});count.textContent=(cur+1)+" / "+marks.length+(marks.length>=LIMIT?"+":"")}
function search(text){clear();var needle=text.toLowerCase();
if(needle.length<2){count.textContent="";return}
var w=document.createTreeWalker(main,NodeFilter.SHOW_TEXT,null),nodes=[];
while(w.nextNode())nodes.push(w.currentNode);
outer:for(var i=0;i<nodes.length;i++){var node=nodes[i],hay=node.nodeValue.toLowerCase(),at=hay.indexOf(needle),off=0;
while(at>=0){var hit=node.splitText(at-off);node=hit.splitText(needle.length);
var mk=document.createElement("mark");hit.parentNode.replaceChild(mk,hit);mk.appendChild(hit);marks.push(mk);
off=at+needle.length;if(marks.length>=LIMIT)break outer;at=hay.indexOf(needle,off)}}
if(marks.length)show(0);else count.textContent="no match"}
q.addEventListener("input",function(){clearTimeout(timer);timer=setTimeout(function(){search(q.value)},150)});
q.addEventListener("keydown",function(e){if(e.key==="Enter"){e.preventDefault();
if(!marks.length)search(q.value);else show(cur+(e.shiftKey?-1:1))}
else if(e.key==="Escape"){q.value="";search("")}});
document.getElementById("next").addEventListener("click",function(){show(cur+1)});
document.getElementById("prev").addEventListener("click",function(){show(cur-1)});
document.addEventListener("keydown",function(e){if(e.key==="/"&&document.activeElement!==q){e.preventDefault();q.focus()}});
var before=[];
window.addEventListener("beforeprint",function(){before=[];document.querySelectorAll("main details").forEach(function(d){if(!d.open){before.push(d);d.open=true}})});
window.addEventListener("afterprint",function(){before.forEach(function(d){d.open=false});before=[]});
root.classList.add("js");
})();`;

/** `'sha256-…'` of the script, for the page's Content-Security-Policy. */
export const SCRIPT_HASH = `'sha256-${createHash("sha256").update(SCRIPT).digest("base64")}'`;
