//! HARI's slides (SPEC 5): where a piece may slide, the distinct slide sets of a turn, their canonical
//! order (SPEC 6), and the moves, counted and listed, and checked when the opponent plays them.

use std::collections::HashSet;

use crate::rules::{
    add_piece, bits, cell_name, cells, length, need_hand, placement_count, seg_name, segments, step, Bits, Move, Piece,
    Play, Position, Slide, ALL_CELLS, COLOUR, VALUE,
};

/// Where a piece on lo..hi may slide on this board: each new low cell, and None (off the board) if
/// the way to an edge is clear in either direction.
fn slide_ends(occupied: Bits, lo: usize, hi: usize) -> Vec<Option<usize>> {
    let (step, span) = (step(lo, hi), hi - lo);
    let along = |c: usize| if step == 1 { c % 10 } else { c / 10 };
    let mut out = Vec::new();
    let mut off = false;
    let mut c = lo;
    loop {
        if along(c) == 0 {
            off = true;
            break;
        }
        c -= step;
        if occupied >> c & 1 == 1 {
            break;
        }
        out.push(Some(c));
    }
    c = hi;
    loop {
        if along(c) == 9 {
            off = true;
            break;
        }
        c += step;
        if occupied >> c & 1 == 1 {
            break;
        }
        out.push(Some(c - span));
    }
    if off {
        out.push(None);
    }
    out
}

fn slide_text(s: &Slide) -> String {
    let to = s.to.map_or("off".to_string(), |(lo, hi)| seg_name(lo, hi));
    format!("slide {}>{}", seg_name(s.lo, s.hi), to)
}

/// Why the slide is not possible on this board now, or None.
fn slide_problem(occupied: Bits, s: &Slide) -> Option<String> {
    let (to, to_hi) = match s.to {
        None if slide_ends(occupied, s.lo, s.hi).contains(&None) => return None,
        None => return Some(format!("{} is blocked both ways", slide_text(s))),
        Some(to) => to,
    };
    let along = step(s.lo, s.hi);
    let same_line = if along == 1 { to / 10 == s.lo / 10 } else { to % 10 == s.lo % 10 };
    if to == s.lo || step(to, to_hi) != along || length(to, to_hi) != length(s.lo, s.hi) || !same_line {
        return Some(format!("{}: a piece slides at least one cell along its own line", slide_text(s)));
    }
    let (first, last) = if to < s.lo { (to, s.lo - along) } else { (s.hi + along, to_hi) };
    let blocked = (first..=last).step_by(along).find(|&c| occupied >> c & 1 == 1);
    blocked.map(|c| format!("{} is blocked at {}", slide_text(s), cell_name(c)))
}

fn slide_bits(occupied: Bits, s: &Slide) -> Bits {
    let without = occupied & !bits(s.lo, s.hi);
    s.to.map_or(without, |(lo, hi)| without | bits(lo, hi))
}

/// One distinct slide set: what each of the mover's pieces did (None: it stayed), its value, the board after.
struct SlideSet {
    slides: Vec<Option<Slide>>,
    key: u128,
    value: u32,
    occupied: Bits,
}

/// Each distinct legal slide set of the mover once (the empty one first), with the board after it.
/// A set is identified by the pieces slid and where they went, whatever the order (SPEC 5), so the
/// walk over slide sequences drops a sequence that reaches a set already found; sets worth more
/// than the most valuable playable piece are pruned. The mover's pieces are taken in canonical order
/// (by low cell, then high cell), the order of `SlideSet::slides`.
fn slide_sets(p: &Position, lengths: &[usize]) -> Vec<SlideSet> {
    let budget = lengths.last().map_or(0, |&len| VALUE[len]);
    let mut movers: Vec<Piece> = p.pieces.iter().copied().filter(|q| q.owner == p.side).collect();
    movers.sort_by_key(|q| (q.lo, q.hi));
    let mut sets = vec![SlideSet { slides: vec![None; movers.len()], key: 0, value: 0, occupied: p.occupied() }];
    let mut seen = HashSet::new();
    let mut k = 0;
    while k < sets.len() {
        for (i, m) in movers.iter().enumerate() {
            let value = sets[k].value + VALUE[length(m.lo, m.hi)];
            if sets[k].slides[i].is_some() || value > budget {
                continue;
            }
            for end in slide_ends(sets[k].occupied, m.lo, m.hi) {
                // the key: 7 bits a piece (at most 15 pieces), 1 + the new low cell, or 101 for off
                let key = sets[k].key | (end.map_or(101, |c| c as u128 + 1) << (7 * i));
                if seen.insert(key) {
                    let slide = Slide { lo: m.lo, hi: m.hi, to: end.map(|c| (c, c + m.hi - m.lo)) };
                    let mut slides = sets[k].slides.clone();
                    slides[i] = Some(slide);
                    let occupied = slide_bits(sets[k].occupied, &slide);
                    sets.push(SlideSet { slides, key, value, occupied });
                }
            }
        }
        k += 1;
    }
    sets
}

/// The slides of a set in canonical order: of all orders legal one after another, the
/// lexicographically smallest by the movers' order (SPEC 6).
fn canonical_slides(occupied: Bits, slides: &[Slide]) -> Option<Vec<Slide>> {
    if slides.is_empty() {
        return Some(Vec::new());
    }
    for (i, s) in slides.iter().enumerate() {
        if slide_problem(occupied, s).is_none() {
            let rest: Vec<Slide> = slides.iter().enumerate().filter(|&(j, _)| j != i).map(|(_, s)| *s).collect();
            if let Some(tail) = canonical_slides(slide_bits(occupied, s), &rest) {
                return Some(std::iter::once(*s).chain(tail).collect());
            }
        }
    }
    None
}

pub(crate) fn moves(p: &Position, with_slides: bool) -> Vec<Move> {
    let lengths = p.playable_lengths();
    if lengths.is_empty() {
        return vec![Move::plain(Play::Pass)];
    }
    let sets = if with_slides {
        slide_sets(p, &lengths)
    } else {
        vec![SlideSet { slides: Vec::new(), key: 0, value: 0, occupied: p.occupied() }]
    };
    let mut out = Vec::new();
    for set in &sets {
        let slid: Vec<Slide> = set.slides.iter().flatten().copied().collect();
        let slides = canonical_slides(p.occupied(), &slid).expect("a slide set found by sliding");
        for &len in lengths.iter().filter(|&&len| VALUE[len] >= set.value) {
            out.push(Move { slides: slides.clone(), play: Play::Discard(len) });
            for (lo, hi) in segments(len) {
                if set.occupied & bits(lo, hi) == 0 {
                    out.push(Move { slides: slides.clone(), play: Play::Place { lo, hi, level: 1 } });
                }
            }
        }
    }
    out
}

/// How many legal moves there are, counted by slide set without building them (perft's last ply).
pub(crate) fn count_moves(p: &Position) -> u64 {
    let lengths = p.playable_lengths();
    if lengths.is_empty() {
        return 1;
    }
    let plays = |set: &SlideSet, len: usize| 1 + placement_count(ALL_CELLS & !set.occupied, len) as u64;
    let per_set = |set: &SlideSet| -> u64 {
        lengths.iter().filter(|&&len| VALUE[len] >= set.value).map(|&len| plays(set, len)).sum()
    };
    slide_sets(p, &lengths).iter().map(per_set).sum()
}

/// Check HARI move m (its slides in the order given, then its play) and play it on q, p's copy.
pub(crate) fn play(p: &Position, m: &Move, q: &mut Position) -> Result<(), String> {
    let mut occupied = p.occupied();
    let (mut slid, mut value) = (Vec::new(), 0);
    for s in &m.slides {
        // in the order given: each must be legal after the ones before
        let i = p.pieces.iter().position(|r| r.lo == s.lo && r.hi == s.hi);
        let i = i.ok_or(format!("{}: no piece lies on {}", slide_text(s), seg_name(s.lo, s.hi)))?;
        if p.pieces[i].owner != p.side {
            return Err(format!(
                "{}: {} is {}'s piece, not yours",
                slide_text(s),
                seg_name(s.lo, s.hi),
                COLOUR[p.pieces[i].owner]
            ));
        }
        if slid.contains(&i) {
            return Err(format!("{}: a piece slides at most once a turn", slide_text(s)));
        }
        slide_problem(occupied, s).map_or(Ok(()), Err)?;
        occupied = slide_bits(occupied, s);
        slid.push(i);
        value += VALUE[length(s.lo, s.hi)];
        match s.to {
            Some((lo, hi)) => q.pieces[i] = Piece { lo, hi, ..q.pieces[i] },
            None => q.pieces[i].level = 0, // leaves the game after the play
        }
    }
    let len = match m.play {
        Play::Discard(len) => len,
        Play::Place { lo, hi, .. } => length(lo, hi),
        _ => return Err("this kind of move belongs to another game".into()),
    };
    need_hand(p, len)?;
    let shortest = p.longest_played(p.side);
    if len < shortest {
        return Err(format!("length {} is shorter than a piece you played before ({})", len, shortest));
    }
    if VALUE[len] < value {
        return Err(format!("the slid pieces are worth {}, more than the played piece ({})", value, VALUE[len]));
    }
    q.pieces.retain(|r| r.level > 0);
    match m.play {
        Play::Place { lo, hi, .. } => match cells(lo, hi).find(|&c| occupied >> c & 1 == 1) {
            Some(c) => return Err(format!("cell {} is taken", cell_name(c))),
            None => add_piece(q, p.side, lo, hi, 1),
        },
        _ => q.hand[p.side][len] -= 1,
    }
    Ok(())
}
