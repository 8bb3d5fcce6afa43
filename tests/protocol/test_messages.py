"""Protocol messages parse what they format, and bad lines name the offending word and column."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from protocol.messages import (
    GoCommand,
    Info,
    OptionSpec,
    PositionCommand,
    ProtocolError,
    SetOption,
    parse_bestmove,
    parse_engine_line,
    parse_go,
    parse_info,
    parse_option_line,
    parse_position_command,
    parse_setoption,
    split_command,
)


def test_go_aliases_map_to_players():
    go = parse_go("go wtime 1000 btime 2000 winc 10 binc 20 movestogo 5")
    assert (go.p1time, go.p2time, go.p1inc, go.p2inc, go.movestogo) == (1000, 2000, 10, 20, 5)
    assert go.clock(0) == (1000, 10) and go.clock(1) == (2000, 20)


def test_go_round_trip():
    go = GoCommand(p1time=5, p2time=6, p1inc=0, movetime=None, depth=3, nodes=100, infinite=True)
    assert parse_go(go.format()) == go
    assert parse_go("go perft 2").format() == "go perft 2"


@pytest.mark.parametrize("parse,line,column,fragment", [
    (parse_go, "go depth x", 10, "whole number"),
    (parse_go, "go depth", 9, "needs a number"),
    (parse_go, "go foo 3", 4, "unknown parameter 'foo'"),
    (parse_go, "go depth 0", 10, "at least 1"),
    (parse_go, "go depth 3 depth 4", 12, "given twice"),
    (parse_go, "go wtime 3 p1time 4", 12, "given twice"),
    (parse_go, "go perft 2 depth 3", 1, "no other"),
    (parse_go, "go ponder", 4, "not supported"),
    (parse_position_command, "position", 9, "startpos"),
    (parse_position_command, "position foo", 10, "'foo'"),
    (parse_position_command, "position startpos a0a2", 19, "'moves'"),
    (parse_position_command, "position fen", 13, "needs a position"),
])
def test_bad_commands_name_the_column_and_the_fault(parse, line, column, fragment):
    with pytest.raises(ProtocolError) as e:
        parse(line)
    assert e.value.column == column and fragment in e.value.message


def test_position_commands():
    assert parse_position_command("position startpos") == PositionCommand(None, [])
    cmd = parse_position_command("position fen hari -/- 3/3 d - moves a0a2 x4")
    assert cmd == PositionCommand("hari -/- 3/3 d -", ["a0a2", "x4"])
    assert parse_position_command(cmd.format()) == cmd


def test_setoption_names_and_values_with_spaces():
    assert parse_setoption("setoption name UCI_Variant value hari") == SetOption("UCI_Variant", "hari")
    assert parse_setoption("setoption name Clear Hash") == SetOption("Clear Hash", None)
    assert parse_setoption("setoption name Book File value /a b/c") == SetOption("Book File", "/a b/c")
    with pytest.raises(ProtocolError, match="needs 'name"):
        parse_setoption("setoption UCI_Variant hari")
    with pytest.raises(ProtocolError, match="needs a value"):
        parse_setoption("setoption name Seed value")


def test_option_specs_coerce_with_clear_errors():
    combo = parse_option_line("option name Strategy type combo default search var search var greedy var random")
    assert combo.coerce("GREEDY") == "greedy"
    assert parse_option_line(combo.format()) == combo
    with pytest.raises(ProtocolError, match="one of search, greedy, random"):
        combo.coerce("minimax")
    spin = OptionSpec("Seed", "spin", "0", 0, 100)
    assert spin.coerce("7") == 7
    with pytest.raises(ProtocolError, match=r"0\.\.100"):
        spin.coerce("101")
    with pytest.raises(ProtocolError, match="whole number"):
        spin.coerce("seven")
    check = OptionSpec("Ponder", "check", "false")
    assert check.coerce("TRUE") is True
    with pytest.raises(ProtocolError):
        check.coerce("yes")


def test_info_round_trip_and_leniency():
    info = Info(depth=3, seldepth=5, time=50, nodes=100, nps=2000, visits=10, score_cp=-12,
                wdl=(500, 0, 500), pv=["a0a2", "b1b3"])
    assert parse_info(info.format()) == info
    assert parse_info("info currmove a0a2 depth 2 string hello  world").string == "hello  world"
    with pytest.raises(ProtocolError):
        parse_info("info depth many")


def test_engine_lines_are_classified():
    assert parse_engine_line("bestmove xc3c7:36").move == "xc3c7:36"
    assert parse_engine_line("bestmove pass ponder a0a2").move == "pass"
    assert parse_engine_line("id name Foo Bar").id_value == "Foo Bar"
    assert parse_engine_line("uciok").kind == "uciok"
    assert parse_engine_line("uciok now").kind == "other"
    assert parse_engine_line("hello").kind == "other"
    with pytest.raises(ProtocolError):
        parse_bestmove("bestmove")
    with pytest.raises(ProtocolError):
        parse_bestmove("bestmove a0a2 b0b2")


def test_split_command():
    assert split_command("  go   depth 3 ") == ("go", "depth 3")
    assert split_command("") == ("", "")


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40))
def test_parsers_raise_only_protocol_errors(text):
    for parser in (parse_go, parse_position_command, parse_setoption, parse_info, parse_option_line,
                   parse_engine_line):
        try:
            parser(text)
        except ProtocolError as e:
            assert e.column >= 1


@pytest.mark.parametrize("line, bad", [
    ("option name Seed type spin default 0 min 1_0 max 5", "min"),
    ("option name Seed type spin default 0 min 1 max ５", "max"),
    ("option name Seed type spin default 0 min +1 max 5", "min"),
])
def test_option_bounds_are_ascii_whole_numbers(line, bad):
    with pytest.raises(ProtocolError, match=f"{bad} is not a whole number") as info:
        parse_option_line(line)
    assert info.value.column == line.index(f" {bad} ") + 2
    assert parse_option_line("option name Seed type spin default 0 min -1 max 5").min == -1
