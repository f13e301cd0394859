"""The HTML report's page furniture: its style sheet and its one small inline script.

The page (:func:`causalcheck.report.document.render_html`) is a sidebar of the sections
beside the report itself.  Everything needed to browse it works without the script: the
sidebar's links are in-page anchors, every section is a ``<details>`` element that opens
and closes on a click of its heading, and a wide table scrolls inside its own box.  Below
:data:`NARROW` px the sidebar becomes a block above the report.

The script (:data:`SCRIPT`, inline, loading nothing) adds what HTML cannot do alone: a click
on a column heading sorts the table by that column (numbers by value, text alphabetically;
a total row stays last), a second click reverses the order; "expand all" / "collapse all"
buttons; the section a link points to (and every section around it) opens when the link is
followed — without the script, the link lands on the section's heading, one click from its
content; and on a narrow
screen the sidebar starts closed.
"""

from __future__ import annotations

__all__ = ["CSS", "NARROW", "SCRIPT", "SIDEBAR_WIDTH"]

#: Width of the sidebar (px).
SIDEBAR_WIDTH = 240
#: Below this window width (px) the sidebar sits above the report instead of beside it.
NARROW = 1000

CSS = (
    """
:root{color-scheme:light}
*{box-sizing:border-box}
body{font-family:system-ui,-apple-system,'Segoe UI','DejaVu Sans',sans-serif;margin:0;color:#1d1d1d;background:#fafafa;line-height:1.45}
.page{display:grid;grid-template-columns:"""
    + str(SIDEBAR_WIDTH)
    + """px minmax(0,1fr);max-width:1460px;margin:0 auto}
nav.side{position:sticky;top:0;align-self:start;max-height:100vh;overflow:auto;padding:14px 10px 40px 14px;font-size:.86em;
background:#f3f5f7;border-right:1px solid #e0e3e6}
nav.side>details>summary{font-weight:700;font-size:1.1em;margin-bottom:.3em}
nav.side ul{list-style:none;margin:0;padding-left:.9em}nav.side>details>ul{padding-left:0}
nav.side li{margin:.12em 0;overflow-wrap:break-word}nav.side a{color:#1d4f91;text-decoration:none}nav.side a:hover{text-decoration:underline}
nav.side details details>summary{cursor:pointer}
.tools{margin:.6em 0 .2em}.tools button{font:inherit;font-size:.92em;margin-right:.4em;padding:1px 7px;cursor:pointer}
main{min-width:0;padding:18px 22px 60px;background:#fff}
h1{font-size:1.6em;margin:.3em 0}
section>details>summary{cursor:pointer;list-style-position:outside;margin-left:1.1em}
summary>h2,summary>h3,summary>h4,summary>h5,summary>h6{display:inline;margin:0}
section{margin-top:1em}
h2{font-size:1.45em}h3{font-size:1.2em}h4{font-size:1.05em}
section.l2>details>summary{border-bottom:2px solid #ddd;padding-bottom:.2em;margin-top:1.2em}
p,caption,figcaption{overflow-wrap:anywhere}
table{border-collapse:collapse;margin:.5em 0 1em;font-size:.88em}
th,td{border:1px solid #d6d6d6;padding:3px 7px;vertical-align:top;text-align:left}
th{background:#f1f3f5}td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
th.sort{cursor:pointer}th.sort:after{content:" \\2195";color:#999;font-size:.85em}
th[aria-sort=ascending]:after{content:" \\25B2";color:#333}th[aria-sort=descending]:after{content:" \\25BC";color:#333}
td.iv{white-space:normal}td .ci{white-space:nowrap;color:#555;font-size:.9em}
td.hash{font-family:ui-monospace,'DejaVu Sans Mono',monospace;font-size:.92em;word-break:break-all;min-width:12em}
tr.mark td{background:#fde7e7;font-weight:600}
tr.total td{background:#eef2f6;font-weight:700;border-top:2px solid #8a949e}
caption{caption-side:top;text-align:left;font-weight:600;padding:4px 0}
figure{margin:.6em 0 1.2em;display:inline-block;vertical-align:top;max-width:100%}
figure svg{max-width:100%;height:auto}figcaption{font-size:.82em;color:#555;max-width:640px}
p.note{font-size:.85em;color:#555}
.scroll{max-height:420px;overflow:auto;border:1px solid #eee;margin-bottom:1em;max-width:100%}.wide{overflow-x:auto;max-width:100%}
.answer{border:1px solid #e2e2e2;padding:8px 10px;border-radius:6px;font-size:.9em;max-height:360px;overflow:auto;white-space:pre-wrap;overflow-wrap:anywhere}
.edu{border-radius:3px;padding:0 1px}.edu.a{background:#e8f1fb}.edu.b{background:#fff3dc}
.edu sup{font-size:.68em;color:#36557a;font-weight:700;margin-right:2px}
.edu.miss{outline:1px dashed #c62828}
.indep{letter-spacing:-.3em;margin-right:.3em}
code{background:#f3f3f3;padding:0 3px;border-radius:3px}
@media (max-width:"""
    + str(NARROW - 1)
    + """px){.page{display:block}nav.side{position:static;max-height:none;padding:8px 12px;border-right:0;border-bottom:1px solid #e0e3e6}
main{padding:14px 12px 40px}}
"""
)

SCRIPT = (
    """
(function(){
'use strict';
function key(td){
  if(!td)return null;
  var t=td.getAttribute('data-v')||td.textContent.trim();
  var m=/^[-\\u2212]?\\d+(\\.\\d+)?(e[-+]?\\d+)?/i.exec(t.replace(/^\\u2212/,'-'));
  return m?parseFloat(m[0].replace('\\u2212','-')):null;
}
function sortBy(th){
  var table=th.closest('table'),body=table.tBodies[0],col=th.cellIndex,numeric=th.getAttribute('data-numeric')==='1';
  var dir=th.getAttribute('aria-sort')==='ascending'?-1:1;
  Array.prototype.forEach.call(th.parentNode.cells,function(c){c.removeAttribute('aria-sort');});
  th.setAttribute('aria-sort',dir>0?'ascending':'descending');
  var rows=Array.prototype.slice.call(body.rows),fixed=rows.filter(function(r){return r.classList.contains('total');});
  rows=rows.filter(function(r){return !r.classList.contains('total');});
  rows.forEach(function(r,i){r._i=i;});
  rows.sort(function(a,b){
    var x=a.cells[col],y=b.cells[col],c;
    if(numeric){var p=key(x),q=key(y);
      if(p===null&&q===null)c=0;else if(p===null)return 1;else if(q===null)return -1;else c=p-q;}
    else c=(x?x.textContent:'').localeCompare(y?y.textContent:'');
    return c*dir||a._i-b._i;
  });
  rows.concat(fixed).forEach(function(r){body.appendChild(r);});
}
document.querySelectorAll('main table').forEach(function(table){
  var head=table.tHead;if(!head||!table.tBodies[0]||table.tBodies[0].rows.length<2)return;
  var row=head.rows[head.rows.length-1];
  Array.prototype.forEach.call(row.cells,function(th){
    var first=table.tBodies[0].rows[0].cells[th.cellIndex];
    th.classList.add('sort');th.tabIndex=0;th.title='sort by this column';
    if(first&&first.classList.contains('n'))th.setAttribute('data-numeric','1');
    th.addEventListener('click',function(){sortBy(th);});
    th.addEventListener('keydown',function(e){if(e.key==='Enter'||e.key===' '){e.preventDefault();sortBy(th);}});
  });
});
function reveal(){
  var id=decodeURIComponent(location.hash.slice(1));var el=id&&document.getElementById(id);
  if(!el)return;
  var own=el.querySelector(':scope>details');if(own)own.open=true;
  for(var d=el;d;d=d.parentElement)if(d.tagName==='DETAILS')d.open=true;
  el.scrollIntoView();
}
window.addEventListener('hashchange',reveal);if(location.hash)reveal();
var nav=document.querySelector('nav.side>details');
if(nav&&window.matchMedia('(max-width:"""
    + str(NARROW - 1)
    + """px)').matches)nav.open=false;
var tools=document.getElementById('tools');
if(tools){
  [['expand all',true],['collapse all',false]].forEach(function(b){
    var btn=document.createElement('button');btn.type='button';btn.textContent=b[0];
    btn.addEventListener('click',function(){document.querySelectorAll('main section>details').forEach(function(d){d.open=b[1];});});
    tools.appendChild(btn);
  });
}
})();
"""
)
