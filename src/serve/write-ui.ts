/**
 * The session page's writes, offered only when `txcript serve` runs with
 * --allow-write: a bar to continue the session in another harness (the
 * copy `txcript continue` writes; its resume command shown after) and to
 * delete it (asked twice: the button opens a confirmation naming what
 * goes). The HTML is built here with every value escaped; the script
 * (served as part of /assets/session.js, never inline) posts to the write
 * endpoints from this origin, so the browser sends the Origin the guard
 * checks and the token cookie opening the printed URL left. Every answer
 * reaches the page as text.
 */

import { escapeHtml } from "../render/highlight.js";
import { HARNESS_LABELS, type HarnessId, STORED_HARNESS_IDS } from "../transcript.js";

/** The target a continue offers first: Claude Code, or the first other stored harness. */
function defaultTarget(from: HarnessId): HarnessId {
  if (from !== "claude_code") return "claude_code";
  return STORED_HARNESS_IDS.find((h) => h !== from) ?? "codex";
}

/**
 * The continue and delete controls of a served session page; no delete
 * when `deletable` is false (a session in the archive).
 */
export function writeBar(
  harness: HarnessId,
  id: string,
  title: string | undefined,
  deletable = true,
): string {
  const first = defaultTarget(harness);
  const options = STORED_HARNESS_IDS.map(
    (h) =>
      `<option value="${h}"${h === first ? " selected" : ""}>${escapeHtml(HARNESS_LABELS[h])}</option>`,
  ).join("");
  const what = escapeHtml(title ?? id);
  const remove = deletable
    ? ` <button type="button" id="delete" class="danger">Delete…</button></p>` +
      `<div id="delete-confirm" role="alertdialog" aria-labelledby="delete-question" hidden>` +
      `<p id="delete-question">Delete “${what}” from its ${escapeHtml(HARNESS_LABELS[harness])} store? Its files are removed; this cannot be undone.</p>` +
      `<p><button type="button" id="delete-yes" class="danger">Delete it</button> <button type="button" id="delete-no">Cancel</button></p></div>`
    : "</p>";
  return (
    `<div class="serve-write" id="serve-write" data-harness="${escapeHtml(harness)}" data-id="${escapeHtml(id)}">` +
    `<p><label>Continue in <select id="continue-target">${options}</select></label> ` +
    `<button type="button" id="continue">Continue</button>${remove}` +
    `<div id="write-result" role="status" aria-live="polite"></div></div>`
  );
}

/** Styles of the write bar (the page's CSP allows inline styles, not scripts). */
export const WRITE_STYLE =
  ".serve-write .danger{border-color:#c4222e;color:#c4222e}#delete-confirm{margin:.5rem 0;padding:.5rem .75rem;border:1px solid #c4222e;border-radius:8px}#write-result:empty{display:none}#write-result{margin:.5rem 0}#write-result.bad{color:#c4222e}";

/**
 * The write bar's behaviour, appended to the session page's script. It
 * does nothing on a page without the bar (a read-only server).
 */
export const WRITE_SCRIPT = `
(function(){
"use strict";
var bar=document.getElementById("serve-write");
if(!bar)return;
var harness=bar.getAttribute("data-harness")||"",id=bar.getAttribute("data-id")||"";
var base="/api/sessions/"+encodeURIComponent(harness)+"/"+encodeURIComponent(id)+"/";
var out=document.getElementById("write-result");
var confirmBox=document.getElementById("delete-confirm");
var buttons=bar.querySelectorAll("button,select");
function busy(on){for(var i=0;i<buttons.length;i++)buttons[i].disabled=on}
function node(tag,text,attrs){var e=document.createElement(tag);if(text)e.textContent=text;if(attrs)for(var k in attrs)e.setAttribute(k,attrs[k]);return e}
function say(bad){out.className=bad?"bad":"";out.replaceChildren.apply(out,Array.prototype.slice.call(arguments,1))}
function post(what,body){
busy(true);
return fetch(base+what,{method:"POST",credentials:"same-origin",headers:body?{"Content-Type":"application/json"}:{},body:body?JSON.stringify(body):undefined})
.then(function(r){return r.json().then(function(j){return{ok:r.ok,status:r.status,body:j}},function(){return{ok:false,status:r.status,body:{}}})})
.then(function(a){busy(false);return a},function(e){busy(false);return{ok:false,status:0,body:{error:String(e)}}});}
function failed(a){
var why=a.body&&typeof a.body.error==="string"?a.body.error:"the server answered "+a.status;
if(a.status===401)why+=" (open the URL txcript serve printed, the one with ?token=, to write from this browser)";
say(true,node("span","Failed: "+why));}
document.getElementById("continue").addEventListener("click",function(){
var target=document.getElementById("continue-target").value;
say(false,node("span","Continuing…"));
post("continue",{target:target}).then(function(a){
if(!a.ok)return failed(a);
var b=a.body,href="/s/"+encodeURIComponent(String(b.harness))+"/"+encodeURIComponent(String(b.id));
var parts=[node("span","Continued as "),node("a",String(b.harness)+" "+String(b.id),{href:href,id:"continued"})];
if(typeof b.path==="string")parts.push(node("span",", written to "),node("code",b.path,{id:"continued-path"}));
parts.push(node("span","."));
if(typeof b.resume==="string"){
var code=node("code",b.resume,{id:"continued-resume"}),copy=node("button","Copy",{type:"button"});
copy.addEventListener("click",function(){if(navigator.clipboard)navigator.clipboard.writeText(b.resume).then(function(){copy.textContent="Copied"},function(){copy.textContent="Copy failed"})});
parts.push(node("br"),node("span","Resume it: "),code,node("span"," "),copy);}
say.apply(null,[false].concat(parts));});});
if(!confirmBox)return;
document.getElementById("delete").addEventListener("click",function(){confirmBox.hidden=false;document.getElementById("delete-no").focus()});
document.getElementById("delete-no").addEventListener("click",function(){confirmBox.hidden=true;document.getElementById("delete").focus()});
document.getElementById("delete-yes").addEventListener("click",function(){
post("delete").then(function(a){
confirmBox.hidden=true;
if(!a.ok)return failed(a);
var n=Array.isArray(a.body.removed)?a.body.removed.length:0;
busy(true);
say(false,node("span","Deleted ("+n+" file"+(n===1?"":"s")+" removed). "),node("a","Back to all sessions",{href:"/",id:"deleted-back"}));});});
})();
`;
