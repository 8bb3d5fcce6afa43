"""report.html and the game pages, built from a real small run between the built-in engines.

The run (a three-engine ISAAC tournament, three games) is played once per module;
the tests read the page back structurally: every game present, every ply's board
present and equal to the picture protocol/svg.py draws for that position.
"""

from __future__ import annotations

import json
import os
import sys
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pytest

from protocol import game_from_position
from protocol.svg import board_svg
from protocol.svg_replay import PartTable, decode_data
from referee.cli import main as referee_main
from referee.pictures import main as svg_main
from referee.results.report import REPORT, LiveReport, build_report
from referee.results.tally import RunTally
from tests.support.paths import REPO


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("run") / "t"
    old = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = str(REPO) + (os.pathsep + old if old else "")
    try:
        engines = []
        for name in ("greedy", "random", "search"):
            engines += ["-engine", f"name={name}", f"cmd={sys.executable} -m engine", f"option.Strategy={name}"]
        code = referee_main(["tournament", "--game", "isaac", "--games", "1", "--seed", "3", *engines,
                             "-each", "tc=st=0.05 margin=2000", "--out", str(out), "--concurrency", "1"])
    finally:
        if old is None:
            os.environ.pop("PYTHONPATH", None)
        else:
            os.environ["PYTHONPATH"] = old
    assert code == 0
    return out


def _records(run_dir: Path) -> list[dict]:
    return [json.loads(line) for line in (run_dir / "records.jsonl").read_text().splitlines() if line.strip()]


class _Page(HTMLParser):
    """Collects table ids, rows' data-game, links and the data script of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[str] = []
        self.rows: list[str] = []
        self.links: list[str] = []
        self.data: tuple[str, str] | None = None
        self._in_data: str | None = None
        self._text: list[str] = []
        self.network: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "table" and a.get("id"):
            self.tables.append(str(a["id"]))
        if tag == "tr" and a.get("data-game"):
            self.rows.append(str(a["data-game"]))
        if tag == "a" and a.get("data-game"):
            self.links.append(str(a["data-game"]))
        if tag == "script" and a.get("id") == "replay-data":
            self._in_data = str(a.get("data-encoding"))
        for key in ("src", "href"):
            value = a.get(key) or ""
            if value.startswith(("http:", "https:", "//")):
                self.network.append(value)

    def handle_data(self, data: str) -> None:
        if self._in_data is not None:
            self._text.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "script" and self._in_data is not None:
            self.data = (self._in_data, "".join(self._text))
            self._in_data = None


def _page(path: Path) -> tuple[_Page, dict]:
    page = _Page()
    page.feed(path.read_text(encoding="utf-8"))
    assert page.data is not None, "no replay data in the page"
    return page, decode_data(*page.data)


def _check_game(data: dict, game: dict, record: dict) -> None:
    parts = data["parts"]
    moves = list(record["opening"]) + [m["move"] for m in record["moves"]]
    assert "error" not in game
    assert game["moves"] == moves
    assert len(game["notes"]) == len(moves) and all(" ms" in note for note in game["notes"])
    assert len(game["plies"]) == len(moves) + 1            # the start and every ply
    for ids in game["plies"]:
        svg = "".join(parts[i] for i in ids)
        cells = [e for e in ET.fromstring(svg).iter() if e.get("data-cell")]
        assert len(cells) == 100
    last_svg = "".join(parts[i] for i in game["plies"][-1])
    final = game_from_position(record["final_position"])
    names = (record["dark"]["name"], record["light"]["name"])
    assert last_svg == board_svg(final, last_move=moves[-1] if moves else None, players=names)


def test_the_runner_writes_the_report(run_dir: Path) -> None:
    records = _records(run_dir)
    assert len(records) == 3
    page, data = _page(run_dir / REPORT)
    assert page.data is not None and page.data[0] == "gzip-base64"
    assert sorted(g["id"] for g in data["games"]) == sorted(str(r["game_id"]) for r in records)


def test_report_command_rebuilds_every_game_with_every_ply(run_dir: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    (run_dir / REPORT).unlink()
    assert referee_main(["report", str(run_dir)]) == 0
    assert capsys.readouterr().out.strip() == str(run_dir / REPORT)
    page, data = _page(run_dir / REPORT)
    records = _records(run_dir)
    ids = [str(r["game_id"]) for r in records]
    assert {"standings", "crosstable", "terminations", "engines", "games"} <= set(page.tables)
    assert sorted(page.rows) == sorted(ids) and sorted(page.links) == sorted(ids)
    assert page.network == []
    games = {g["id"]: g for g in data["games"]}
    for record in records:
        _check_game(data, games[str(record["game_id"])], record)
    text = (run_dir / REPORT).read_text()
    for name in ("greedy", "random", "search"):
        assert f'<td class="l">{name}</td>' in text


def test_report_is_deterministic(run_dir: Path) -> None:
    first = build_report(run_dir).read_bytes()
    assert build_report(run_dir).read_bytes() == first


def test_report_command_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        referee_main(["report", str(tmp_path)])
    assert stop.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "no records.jsonl in" in err[0]


def test_game_page_from_records(run_dir: Path, tmp_path: Path) -> None:
    record = _records(run_dir)[1]
    out = tmp_path / "game.html"
    assert svg_main(["--records", str(run_dir), "--game-id", str(record["game_id"]), "-o", str(out)]) == 0
    page, data = _page(out)
    assert page.data is not None and page.data[0] == "json"
    assert len(data["games"]) == 1
    _check_game(data, data["games"][0], record)


def test_one_ply_of_a_recorded_game(run_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = _records(run_dir)[0]
    moves = [m["move"] for m in record["moves"]]
    assert svg_main(["--records", str(run_dir), "--game-id", str(record["game_id"]), "--ply", "5",
                     "--highlight", "a0"]) == 0
    game = game_from_position(record["start_position"])
    for move in moves[:5]:
        last = game.play(move)
    names = (record["dark"]["name"], record["light"]["name"])
    assert capsys.readouterr().out == board_svg(game, last_move=last, highlights=["a0"], players=names) + "\n"
    assert svg_main(["--records", str(run_dir), "--game-id", str(record["game_id"]), "--ply", "9999"]) == 2
    assert "is outside the game" in capsys.readouterr().err


def test_a_record_that_does_not_replay_is_shown_up_to_the_bad_move(tmp_path: Path) -> None:
    start = "hari -/- 333334444555667/333334444555667 d -"
    record = {"game_id": 5, "game_type": "hari", "start_position": start, "opening": [],
              "dark": {"name": "a"}, "light": {"name": "b"}, "result": "1-0", "termination": "normal",
              "reason": "r", "moves": [{"move": "c3c7", "ms": 1}, {"move": "c3c7", "ms": 1}],
              "rules_version": "1", "time_control": {"dark": None, "light": None},
              "final_scores": [], "final_position": start}
    (tmp_path / "records.jsonl").write_text(json.dumps(record) + "\n")
    page, data = _page(build_report(tmp_path))
    game = data["games"][0]
    assert game["moves"] == ["c3c7"] and len(game["plies"]) == 2
    assert game["error"].startswith("ply 2: illegal move 'c3c7'")
    assert "replay stopped: ply 2: illegal move" in (tmp_path / REPORT).read_text()


def test_game_page_unknown_game(run_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert svg_main(["--records", str(run_dir / "records.jsonl"), "--game-id", "77"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "no game 77 in" in err[0]


def test_live_report_reports_a_failure_once_and_carries_on(tmp_path: Path, run_dir: Path) -> None:
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("x")
    errors: list[str] = []
    tally = RunTally([])
    live = LiveReport(blocker, tally, errors.append)
    for record in _records(run_dir):
        tally.add(record)
        live.shown.add(record)
        live.game_finished()
    live.close()
    assert len(errors) == 1 and errors[0].startswith("report.html not updated:")


def test_parts_are_shared_between_plies() -> None:
    table = PartTable()
    a = table.ids(["<a/>", "<b/>"])
    b = table.ids(["<b/>", "<c/>"])
    assert a == [0, 1] and b == [1, 2] and table.join(b) == "<b/><c/>"


def test_replay_data_is_the_json_of_every_part_and_game_encoded_piece_by_piece(run_dir: Path) -> None:
    """encode_data writes one json.dumps per part and per game (one call over a long run's report holds
    the interpreter lock for ~90 ms beside the loop that times the engines): the text must be exactly
    the one call's, with and without gzip."""
    import base64
    import gzip

    from protocol.svg_replay import encode_data
    from referee.results.report import builder_for

    builder = builder_for(run_dir)
    for record in _records(run_dir):
        builder.add(record)
    table, games = builder.drawings.draw(builder.shown.records())
    assert len(games) == 3
    for chosen in (games, games[:1], []):
        whole = json.dumps({"parts": table.parts, "games": [g.to_json() for g in chosen]},
                           separators=(",", ":"), ensure_ascii=False)
        assert encode_data(table, chosen, compress=False) == ("json", whole.replace("</", "<\\/"))
        encoding, text = encode_data(table, chosen, compress=True)
        assert encoding == "gzip-base64"
        assert gzip.decompress(base64.b64decode(text)).decode("utf-8") == whole
