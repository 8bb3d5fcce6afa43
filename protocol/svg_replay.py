"""Whole games as self-contained HTML pages: every ply's board, stepped through in the browser.

Each ply's picture is ``svg.board_parts`` (the SVG cut into natural units); a
``PartTable`` stores each distinct part once, so a ply is a short list of part
numbers and the browser rebuilds the exact SVG by joining them. Pieces,
counters and hands repeat from ply to ply and across games, so a page holding
many games stays small; ``page_html(..., compress=True)`` also gzips the data
(base64 in the page, unpacked by the browser's DecompressionStream; no network).
The player: buttons and keys (left/right, Home/End, space to play), a clickable
move list, ``#game-<id>`` in the address opens a game.
"""

from __future__ import annotations

import base64
import gzip
import json
from dataclasses import dataclass, field

from . import game_from_position
from .board import DARK
from .errors import ArenaError
from .svg import board_parts


class PartTable:
    """Distinct SVG parts, numbered in order of first use."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self._index: dict[str, int] = {}

    def ids(self, parts: list[str]) -> list[int]:
        out = []
        for part in parts:
            number = self._index.get(part)
            if number is None:
                number = self._index[part] = len(self.parts)
                self.parts.append(part)
            out.append(number)
        return out

    def join(self, ids: list[int]) -> str:
        """The SVG a ply's part numbers stand for (what the browser builds)."""
        return "".join(self.parts[i] for i in ids)


@dataclass
class ReplayGame:
    """One game ready for the player: moves (notation) and, per ply, its board's part numbers."""

    id: str
    title: str
    moves: list[str]
    plies: list[list[int]]
    opening_plies: int = 0
    error: str | None = None
    notes: list[str] = field(default_factory=list)
    """Per move: what the record says about it (time, depth, score, PV), shown beside the move."""

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"id": self.id, "title": self.title, "moves": self.moves,
                                  "plies": self.plies, "opening": self.opening_plies}
        if any(self.notes):
            out["notes"] = self.notes[:len(self.moves)]
        if self.error:
            out["error"] = self.error
        return out


def move_note(move: object) -> str:
    """'97 ms, depth 4, score 52 cp, pv a9c9 j0j2' from a record's move entry (SPEC 10.4)."""
    if not isinstance(move, dict):
        return ""
    parts = [f"{move['ms']} ms"] if isinstance(move.get("ms"), int) else []
    info = move.get("info")
    if isinstance(info, dict):
        if info.get("depth") is not None:
            parts.append(f"depth {info['depth']}")
        if info.get("score_cp") is not None:
            parts.append(f"score {info['score_cp']} cp")
        if info.get("score_mate") is not None:
            parts.append(f"mate {info['score_mate']}")
        pv = info.get("pv")
        if isinstance(pv, list) and len(pv) > 1:
            parts.append("pv " + " ".join(str(m) for m in pv[:8]))
    return ", ".join(parts)


def record_moves(record: dict[str, object]) -> tuple[list[str], list[str], int]:
    """(moves, notes, opening plies) of a game record: the opening first, then the engines' moves."""
    opening = [str(m) for m in _list(record.get("opening"))]
    played = _list(record.get("moves"))
    moves = opening + [str(_dict(m).get("move", "")) for m in played]
    notes = ["book"] * len(opening) + [move_note(m) for m in played]
    return moves, notes, len(opening)


def replay(table: PartTable, game_id: str, title: str, start_position: str, moves: list[str], *,
           opening_plies: int = 0, orientation: int = DARK, size: int | None = None,
           players: tuple[str, str] | None = None, notes: list[str] | None = None) -> ReplayGame:
    """Play `moves` from `start_position`, drawing every ply; stops at the first bad move, naming it."""
    out = ReplayGame(game_id, title, [], [], opening_plies, notes=list(notes or []))
    try:
        game = game_from_position(start_position)
    except ArenaError as exc:
        out.error = f"bad start position: {exc}"
        return out
    out.plies.append(table.ids(board_parts(game, orientation=orientation, size=size, players=players)))
    for number, text in enumerate(moves, 1):
        try:
            move = game.play(text)
        except ArenaError as exc:
            out.error = f"ply {number}: {exc}"
            break
        out.moves.append(str(move))
        out.plies.append(table.ids(board_parts(game, orientation=orientation, size=size, players=players,
                                               last_move=move)))
    return out


def encode_data(table: PartTable, games: list[ReplayGame], compress: bool) -> tuple[str, str]:
    """(encoding, text) of the data script: 'json' or 'gzip-base64'; bytes depend only on the input.

    The JSON is the text of ``json.dumps({"parts": ..., "games": [...]})``, encoded one part and
    one game at a time: one call over a thousand games (9 MB) holds the interpreter lock for about
    90 ms, and the referee builds its live report in a thread beside the loop that times the
    engines' moves (referee/results/report.py); gzip lets go of the lock while it works."""
    def dumps(value: object) -> str:
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False)

    pieces = ['{"parts":[', ",".join(dumps(part) for part in table.parts), '],"games":[',
              ",".join(dumps(game.to_json()) for game in games), "]}"]
    if not compress:
        return "json", "".join(pieces).replace("</", "<\\/")
    packed = gzip.compress(b"".join(piece.encode("utf-8") for piece in pieces), compresslevel=6, mtime=0)
    return "gzip-base64", base64.b64encode(packed).decode("ascii")


def decode_data(encoding: str, text: str) -> dict[str, object]:
    """Inverse of encode_data (for tests and tools reading a page back)."""
    if encoding == "gzip-base64":
        text = gzip.decompress(base64.b64decode(text)).decode("utf-8")
    data: dict[str, object] = json.loads(text)
    return data


STYLE = """
body{font-family:DejaVu Sans,Verdana,Arial,sans-serif;margin:1.2em;color:#222;background:#fbf8f1}
h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.4em}
table{border-collapse:collapse;margin:.4em 0}td,th{border:1px solid #d8ccb3;padding:.25em .55em;text-align:right}
th{background:#f0e8d8}td.l,th.l{text-align:left}tr.sel{background:#fff3c4}
#viewer{display:flex;gap:1em;flex-wrap:wrap;align-items:flex-start;margin-top:.6em}
#vboard svg{max-width:100%;height:auto}
#vcontrols button{font-size:1em;min-width:2.6em;margin-right:.2em}
#vmoves{max-height:430px;overflow:auto;min-width:14em;margin:0;padding-left:3em;font-family:monospace}
#vmoves li{cursor:pointer;padding:0 .3em}#vmoves li.cur{background:#fff3c4}#vmoves li.op{color:#777}
.err{color:#b00}.muted{color:#666}
"""

SCRIPT = """
(function(){
'use strict';
const el=document.getElementById('replay-data');
async function load(){
  let text=el.textContent;
  if(el.dataset.encoding==='gzip-base64'){
    const bin=Uint8Array.from(atob(text.trim()),c=>c.charCodeAt(0));
    const stream=new Blob([bin]).stream().pipeThrough(new DecompressionStream('gzip'));
    text=await new Response(stream).text();
  }
  return JSON.parse(text);
}
load().then(function(data){
  const parts=data.parts, games=new Map();
  data.games.forEach(g=>games.set(String(g.id),g));
  const $=id=>document.getElementById(id);
  const board=$('vboard'), list=$('vmoves'), info=$('vply'), title=$('vtitle'), box=$('vbox');
  let cur=null, ply=0, timer=null;
  function show(){
    board.innerHTML=cur.plies[ply].map(i=>parts[i]).join('');
    const note=ply>0&&cur.notes?cur.notes[ply-1]:'';
    info.textContent='ply '+ply+' / '+(cur.plies.length-1)+(note?' \u00b7 '+note:'');
    list.querySelectorAll('li').forEach(li=>li.classList.toggle('cur',Number(li.dataset.ply)===ply));
    const li=list.querySelector('li.cur'); if(li) li.scrollIntoView({block:'nearest'});
    board.dataset.ply=String(ply);
  }
  function go(p){ if(!cur) return; ply=Math.max(0,Math.min(cur.plies.length-1,p)); show(); }
  function stop(){ if(timer){clearInterval(timer);timer=null;$('btn-play').textContent='\\u25b6';} }
  function play(){
    if(timer){stop();return;}
    if(ply>=cur.plies.length-1) ply=0;
    $('btn-play').textContent='\\u275a\\u275a';
    timer=setInterval(()=>{ if(ply>=cur.plies.length-1) stop(); else go(ply+1); },700);
  }
  function open(id){
    const g=games.get(String(id)); if(!g) return false;
    stop(); cur=g; ply=0; box.hidden=false; title.textContent=g.title;
    $('verr').textContent=g.error||'';
    list.innerHTML='';
    g.moves.forEach((m,i)=>{const li=document.createElement('li');li.textContent=m;li.dataset.ply=String(i+1);
      if(i<(g.opening||0)) li.className='op'; if(g.notes&&g.notes[i]) li.title=g.notes[i]; li.onclick=()=>{stop();go(i+1);}; list.appendChild(li);});
    document.querySelectorAll('tr[data-game]').forEach(tr=>tr.classList.toggle('sel',tr.dataset.game===String(id)));
    board.dataset.game=String(id);
    show(); return true;
  }
  $('btn-first').onclick=()=>{stop();go(0);};
  $('btn-prev').onclick=()=>{stop();go(ply-1);};
  $('btn-next').onclick=()=>{stop();go(ply+1);};
  $('btn-last').onclick=()=>{stop();go(cur.plies.length-1);};
  $('btn-play').onclick=play;
  document.addEventListener('keydown',e=>{
    if(!cur||e.target.tagName==='INPUT') return;
    const k={ArrowLeft:()=>go(ply-1),ArrowRight:()=>go(ply+1),Home:()=>go(0),
             End:()=>go(cur.plies.length-1),' ':play}[e.key];
    if(k){ if(e.key!==' ') stop(); k(); e.preventDefault(); }
  });
  document.querySelectorAll('a[data-game]').forEach(a=>a.addEventListener('click',e=>{
    if(open(a.dataset.game)){ history.replaceState(null,'','#game-'+a.dataset.game); box.scrollIntoView(); e.preventDefault(); }
  }));
  const m=/^#game-(.+)$/.exec(location.hash);
  if(!(m&&open(decodeURIComponent(m[1])))&&data.games.length===1) open(data.games[0].id);
  document.body.dataset.ready='1';
}).catch(function(err){
  document.getElementById('verr').textContent='cannot read the game data: '+err;
  document.body.dataset.ready='error';
});
})();
"""

VIEWER = """<div id="vbox" hidden><h2 id="vtitle"></h2><p id="verr" class="err"></p>
<div id="vcontrols"><button id="btn-first" title="start (Home)">|&#9664;</button><button id="btn-prev"
 title="back (left arrow)">&#9664;</button><button id="btn-play" title="play / pause (space)">&#9654;</button><button
 id="btn-next" title="forward (right arrow)">&#9654;|</button><button id="btn-last"
 title="end (End)">&#9654;&#9654;|</button> <span id="vply" class="muted"></span></div>
<div id="viewer"><div id="vboard"></div><ol id="vmoves" start="1"></ol></div></div>"""


def _esc(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def page_html(title: str, body_html: str, table: PartTable, games: list[ReplayGame], *,
              compress: bool = False) -> str:
    """A complete page: `body_html` (already escaped), then the viewer and its data; no network."""
    encoding, data = encode_data(table, games, compress)
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>{_esc(title)}</title>'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<style>{STYLE}</style></head>\n<body>\n{body_html}\n{VIEWER}\n"
            f'<script type="application/json" id="replay-data" data-encoding="{encoding}">{data}</script>\n'
            f"<script>{SCRIPT}</script>\n</body></html>\n")


def game_page(record: dict[str, object], *, orientation: int = DARK, size: int | None = None) -> str:
    """The HTML page of one game record (SPEC 10.4): its header and the replay."""
    table = PartTable()
    dark, light = _name(record.get("dark")), _name(record.get("light"))
    moves, notes, opening = record_moves(record)
    gid = str(record.get("game_id", "?"))
    game = replay(table, gid, f"Game {gid}: {dark} (Dark) vs {light} (Light)",
                  str(record.get("start_position", "")), moves, opening_plies=opening,
                  orientation=orientation, size=size, players=(dark, light), notes=notes)
    head = (f"<h1>{_esc(game.title)}</h1><p>{_esc(str(record.get('game_type', '')).upper())} "
            f"&middot; result <b>{_esc(str(record.get('result', '')))}</b> "
            f"({_esc(str(record.get('termination', '')))}: {_esc(str(record.get('reason', '')))})</p>")
    return page_html(game.title, head, table, [game])


def _name(side: object) -> str:
    return str(_dict(side).get("name", "?"))


def _dict(value: object) -> dict[str, object]:
    return value if isinstance(value, dict) else {}


def _list(value: object) -> list[object]:
    return value if isinstance(value, list) else []
