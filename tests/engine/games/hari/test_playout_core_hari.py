"""HARI's `fastmc` core (engine/games/hari/_playout_core.c): its slides, held to the rules.

test_partner_cores.py holds every core to its contract; here the HARI-only parts: the root
offers every slide-free placement, the shortest piece's discard and moves that slide one own
piece to make room; playouts slide (an upgrade) only when no playable length fits, and never
slide a piece off the board for less than it is worth."""

from __future__ import annotations

from engine.games.hari import playout_core as partner
from protocol.board import VALUE, count_placements
from protocol.moves import HariMove
from tests.support.playout_positions import varied_positions

POSITIONS = varied_positions("hari", 150, seed=31)


def _fits(game) -> bool:
    """Whether some playable length of the side to move fits without a slide."""
    lengths = game.playable_lengths(game.turn)
    return bool(lengths) and count_placements(game.empty_cells(), lengths) > 0


def test_the_root_offers_every_plain_placement_the_discard_and_slides():
    slides = 0
    for game in POSITIONS:
        if not game.playable_lengths(game.turn):
            continue
        moves = [partner.to_move(m) for m in partner.core().candidates(partner.position_tuple(game), partner.DEFAULTS.params())]
        plain = {str(m) for m in moves if isinstance(m, HariMove) and not m.slides}
        base = next(game.slide_sets())
        expected = {str(m) for m in game.plays_after(base) if m.place is not None}
        assert expected <= plain, game.position()
        assert f"x{game.playable_lengths(game.turn)[0]}" in plain
        slides += sum(1 for m in moves if isinstance(m, HariMove) and m.slides)
    assert slides >= 20


def test_playouts_slide_only_to_upgrade_when_nothing_fits():
    upgrades = 0
    for i, game in enumerate(POSITIONS):
        natives, _, _ = partner.core().playout(partner.position_tuple(game), partner.DEFAULTS.params(), i)
        position = game.copy()
        for native in natives:
            move = position.check_move(partner.to_move(native))
            if isinstance(move, HariMove) and move.slides:
                upgrades += 1
                assert not _fits(position), position.position()
                assert move.place is not None
                lost = sum(s.start.value for s in move.slides if s.end is None)
                assert VALUE[move.place.length] > lost
            position.push(move)
    assert upgrades >= 20


def test_the_root_offers_slides_that_take_the_opponents_room():
    """Moves sliding an own piece along its line into the room of the opponent's next piece, then placing."""
    blocking = 0
    for game in POSITIONS:
        theirs = game.playable_lengths(1 - game.turn)
        if not game.playable_lengths(game.turn) or not theirs or (1 - game.turn) in game.passes:
            continue
        before = count_placements(game.empty_cells(), theirs[:1])
        for native in partner.core().candidates(partner.position_tuple(game), partner.DEFAULTS.params()):
            move = game.check_move(partner.to_move(native))
            if isinstance(move, HariMove) and move.slides and move.slides[0].end is not None:
                slide = move.slides[0]
                after = (game.empty_cells() | slide.start.mask) & ~slide.end.mask
                blocking += count_placements(after, theirs[:1]) < before
    assert blocking >= 20
