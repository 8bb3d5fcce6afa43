//! The rules of ISAAC, FOUNDATIONS and HARI (SPEC.md sections 1-5), written from SPEC.md alone.
//!
//! A `Position` holds exactly the fields of a position string (SPEC 7); everything else is derived
//! from them. `legal_moves` lists every legal move (HARI slides included), `count_moves` counts them
//! without building them (for perft), `make_move` checks a move and returns the next position, or
//! the rule it breaks. HARI's slides are in hari.rs; reading and writing moves and positions in
//! notation.rs.

use crate::hari;

pub const DARK: usize = 0;
pub const LIGHT: usize = 1;
pub const COLOUR: [&str; 2] = ["Dark", "Light"];
/// Pieces of each length in one set, and the value of each length.
pub const SET_COUNT: [u8; 8] = [0, 0, 0, 5, 4, 3, 2, 1];
pub const VALUE: [u32; 8] = [0, 0, 0, 1, 2, 3, 4, 6];
pub const LENGTHS: [usize; 5] = [3, 4, 5, 6, 7];
/// FOUNDATIONS: a set cannot build higher.
pub const MAX_LEVEL: usize = 8;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Game {
    Isaac,
    Foundations,
    Hari,
}

impl Game {
    pub const ALL: [Game; 3] = [Game::Isaac, Game::Foundations, Game::Hari];

    pub fn name(self) -> &'static str {
        match self {
            Game::Isaac => "isaac",
            Game::Foundations => "foundations",
            Game::Hari => "hari",
        }
    }

    pub fn from_name(text: &str) -> Option<Game> {
        Game::ALL.iter().copied().find(|g| g.name() == text)
    }
}

// ---- cells and segments: a cell is rank * 10 + file (a0 = 0, j9 = 99) ----------------------------

pub fn step(lo: usize, hi: usize) -> usize {
    if lo % 10 == hi % 10 && lo != hi {
        10
    } else {
        1
    }
}

pub fn length(lo: usize, hi: usize) -> usize {
    (hi - lo) / step(lo, hi) + 1
}

pub fn cells(lo: usize, hi: usize) -> impl Iterator<Item = usize> {
    (lo..=hi).step_by(step(lo, hi))
}

pub fn cell_name(c: usize) -> String {
    format!("{}{}", (b'a' + (c % 10) as u8) as char, c / 10)
}

pub fn seg_name(lo: usize, hi: usize) -> String {
    cell_name(lo) + &cell_name(hi)
}

/// Every segment of one length: along rows, then along columns.
pub(crate) fn segments(len: usize) -> Vec<(usize, usize)> {
    let rows = (0..10).flat_map(move |r| (0..=10 - len).map(move |f| (r * 10 + f, r * 10 + f + len - 1)));
    let cols = (0..=10 - len).flat_map(move |r| (0..10).map(move |f| (r * 10 + f, (r + len - 1) * 10 + f)));
    rows.chain(cols).collect()
}

/// The board's cells as bits of a u128 (cell c is bit c).
pub(crate) type Bits = u128;
pub(crate) const ALL_CELLS: Bits = (1 << 100) - 1;

pub(crate) fn bits(lo: usize, hi: usize) -> Bits {
    cells(lo, hi).fold(0, |b, c| b | 1 << c)
}

/// The cells where a piece of `len` cells along a row can start (it must not run into the next row).
const fn row_starts(len: usize) -> Bits {
    let (mut b, mut c) = (0, 0);
    while c < 100 {
        if c % 10 + len <= 10 {
            b |= 1 << c;
        }
        c += 1;
    }
    b
}

const ROW_STARTS: [Bits; 8] = [0, 0, 0, row_starts(3), row_starts(4), row_starts(5), row_starts(6), row_starts(7)];

/// How many segments of `len` cells lie on the `empty` cells (rows and columns).
pub(crate) fn placement_count(empty: Bits, len: usize) -> u32 {
    let (mut across, mut up) = (empty, empty);
    for k in 1..len {
        across &= empty >> k;
        up &= empty >> (10 * k);
    }
    (across & ROW_STARTS[len]).count_ones() + up.count_ones()
}

// ---- positions and moves ----------------------------------------------------------------------------

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Piece {
    pub lo: usize,
    pub hi: usize,
    pub owner: usize,
    /// FOUNDATIONS: 1 is the board, k >= 2 lies on level k - 1; 1 in the other games.
    pub level: usize,
}

/// Exactly the fields of a position string.
#[derive(Clone, Debug)]
pub struct Position {
    pub game: Game,
    pub pieces: Vec<Piece>,
    /// hand[colour][length]: pieces of that length in hand.
    pub hand: [[u8; 8]; 2],
    pub side: usize,
    /// Who has passed in this phase (ISAAC) or game, first passer first.
    pub passes: Vec<usize>,
    /// ISAAC: the scoring phase (else the placement phase), and the scores.
    pub scoring: bool,
    pub scores: [u32; 2],
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Play {
    Pass,
    Place { lo: usize, hi: usize, level: usize },
    Remove { lo: usize, hi: usize, score: u32 },
    Discard(usize),
}

/// HARI: one slide, naming the piece by the segment it is on when the turn starts; `to` is the
/// segment it goes to, or None when it leaves the board.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Slide {
    pub lo: usize,
    pub hi: usize,
    pub to: Option<(usize, usize)>,
}

#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Move {
    pub slides: Vec<Slide>,
    pub play: Play,
}

impl Move {
    pub(crate) fn plain(play: Play) -> Move {
        Move { slides: Vec::new(), play }
    }
}

impl Position {
    pub fn start(game: Game) -> Position {
        Position {
            game,
            pieces: Vec::new(),
            hand: [SET_COUNT, SET_COUNT],
            side: DARK,
            passes: Vec::new(),
            scoring: false,
            scores: [0, 0],
        }
    }

    pub fn is_over(&self) -> bool {
        if self.game == Game::Isaac && self.scores.iter().any(|&s| s >= 100) {
            return true; // score-limit
        }
        self.passes.len() == 2 && (self.game != Game::Isaac || self.scoring) // both-passed
    }

    fn on_board(&self, colour: usize, len: usize) -> u8 {
        self.pieces.iter().filter(|q| q.owner == colour && length(q.lo, q.hi) == len).count().min(255) as u8
    }

    /// ISAAC: pieces neither in hand nor on the board were removed; the next removal is at least as long.
    fn longest_removed(&self, colour: usize) -> usize {
        let gone = |len: usize| self.hand[colour][len].saturating_add(self.on_board(colour, len)) < SET_COUNT[len];
        LENGTHS.iter().rev().copied().find(|&len| gone(len)).unwrap_or(0)
    }

    /// HARI: plays never get shorter, and every piece not in hand was played.
    pub(crate) fn longest_played(&self, colour: usize) -> usize {
        LENGTHS.iter().rev().copied().find(|&len| self.hand[colour][len] < SET_COUNT[len]).unwrap_or(0)
    }

    /// FOUNDATIONS: a player's current level is the highest holding one of its pieces (1 if none).
    fn current_level(&self, colour: usize) -> usize {
        self.pieces.iter().filter(|q| q.owner == colour).map(|q| q.level).max().unwrap_or(1)
    }

    fn longest_on_level(&self, colour: usize, level: usize) -> usize {
        let mine = self.pieces.iter().filter(|q| q.owner == colour && q.level == level);
        mine.map(|q| length(q.lo, q.hi)).max().unwrap_or(0)
    }

    /// Which piece lies on each cell of each level (level 1 is the board).
    fn grid(&self) -> Vec<[Option<usize>; 100]> {
        let mut at = vec![[None; 100]; MAX_LEVEL + 2];
        for (i, q) in self.pieces.iter().enumerate() {
            for c in cells(q.lo, q.hi) {
                at[q.level][c] = Some(i);
            }
        }
        at
    }

    pub(crate) fn occupied(&self) -> Bits {
        self.pieces.iter().fold(0, |b, q| b | bits(q.lo, q.hi))
    }

    /// HARI: the lengths the mover may play, ascending: in hand, not shorter than its last play.
    pub(crate) fn playable_lengths(&self) -> Vec<usize> {
        let shortest = self.longest_played(self.side);
        LENGTHS.iter().copied().filter(|&len| len >= shortest && self.hand[self.side][len] > 0).collect()
    }
}

/// ISAAC: Dark's counter for score s is on cell s, Light's on 99 - s; off the board from 100.
pub fn counter_cell(colour: usize, score: u32) -> Option<usize> {
    match (score >= 100, colour) {
        (true, _) => None,
        (false, DARK) => Some(score as usize),
        _ => Some(99 - score as usize),
    }
}

// ---- placing a piece ------------------------------------------------------------------------------

/// Why `colour` may not cover lo..hi on `level` (None if it may): the cells only. FOUNDATIONS also
/// forbids building under a higher piece, and above level 1 both ends rest on two different own
/// pieces of the level below (the middle may bridge anything).
fn placement_problem(
    p: &Position,
    at: &[[Option<usize>; 100]],
    colour: usize,
    lo: usize,
    hi: usize,
    level: usize,
) -> Option<String> {
    for c in cells(lo, hi) {
        if let Some(i) = at[level][c] {
            let q = p.pieces[i];
            return Some(format!(
                "cell {} is taken by {}'s piece {}",
                cell_name(c),
                COLOUR[q.owner],
                seg_name(q.lo, q.hi)
            ));
        }
        if let Some(up) = (level + 1..=MAX_LEVEL).find(|&up| at[up][c].is_some()) {
            return Some(format!(
                "cell {} lies under a piece on level {}: nothing is built underneath",
                cell_name(c),
                up
            ));
        }
    }
    if level >= 2 {
        let own = |c: usize| at[level - 1][c].filter(|&i| p.pieces[i].owner == colour);
        match (own(lo), own(hi)) {
            (Some(a), Some(b)) if a == b => {
                return Some("both ends rest on one piece; they need two different pieces".into())
            }
            (Some(_), Some(_)) => {}
            _ => return Some(format!("both ends must rest on your own pieces on level {}", level - 1)),
        }
    }
    None
}

/// Every placement of the mover's pieces from length `shortest` up on `level`.
fn placements(p: &Position, at: &[[Option<usize>; 100]], level: usize, shortest: usize) -> Vec<Move> {
    let lengths = LENGTHS.iter().copied().filter(|&len| len >= shortest && p.hand[p.side][len] > 0);
    let segments = lengths.flat_map(segments);
    let free = segments.filter(|&(lo, hi)| placement_problem(p, at, p.side, lo, hi, level).is_none());
    free.map(|(lo, hi)| Move::plain(Play::Place { lo, hi, level })).collect()
}

/// Whether any placement fits, without listing them.
fn can_place(p: &Position, at: &[[Option<usize>; 100]], level: usize, shortest: usize) -> bool {
    let lengths = LENGTHS.iter().copied().filter(|&len| len >= shortest && p.hand[p.side][len] > 0);
    lengths.flat_map(segments).any(|(lo, hi)| placement_problem(p, at, p.side, lo, hi, level).is_none())
}

/// FOUNDATIONS compulsion: (level, shortest length) where the mover must place (SPEC 4).
fn foundations_target(p: &Position, at: &[[Option<usize>; 100]]) -> (usize, usize) {
    let level = p.current_level(p.side);
    let shortest = p.longest_on_level(p.side, level);
    if level == MAX_LEVEL || can_place(p, at, level, shortest) {
        (level, shortest)
    } else {
        (level + 1, 0)
    }
}

// ---- ISAAC's scoring phase ---------------------------------------------------------------------------

/// Points for removing piece i: N x V x M (SPEC 3).
fn earned(p: &Position, i: usize) -> u32 {
    let r = p.pieces[i];
    let vertical = step(r.lo, r.hi) == 10;
    let across = |c: usize| if vertical { c % 10 } else { c / 10 };
    let line = across(r.lo);
    let others =
        p.pieces.iter().enumerate().filter(|&(j, q)| j != i && across(q.lo) <= line && line <= across(q.hi)).count();
    let counters =
        [DARK, LIGHT].iter().filter_map(|&c| counter_cell(c, p.scores[c])).filter(|&c| across(c) == line).count();
    (others as u32 * VALUE[length(r.lo, r.hi)]) << counters
}

/// The new scores the mover may choose after earning e: s..min(99, s + e) except the opponent's
/// counter cell, and s + e itself when it reaches 100 (which ends the game).
fn score_choices(p: &Position, e: u32) -> Vec<u32> {
    let s = p.scores[p.side];
    let theirs = counter_cell(1 - p.side, p.scores[1 - p.side]);
    let mut out: Vec<u32> = (s..=99.min(s + e)).filter(|&t| counter_cell(p.side, t) != theirs).collect();
    if s + e >= 100 {
        out.push(s + e);
    }
    out
}

fn removal_problem(p: &Position, i: usize) -> Option<String> {
    let r = p.pieces[i];
    let seg = seg_name(r.lo, r.hi);
    if r.owner != p.side {
        return Some(format!("{} is {}'s piece, not yours", seg, COLOUR[r.owner]));
    }
    let (len, shortest) = (length(r.lo, r.hi), p.longest_removed(p.side));
    if len < shortest {
        return Some(format!("{} has length {}, shorter than a piece you removed before ({})", seg, len, shortest));
    }
    for colour in [DARK, LIGHT] {
        if let Some(c) = counter_cell(colour, p.scores[colour]).filter(|&c| cells(r.lo, r.hi).any(|x| x == c)) {
            return Some(format!("{} lies under {}'s counter on {}", seg, COLOUR[colour], cell_name(c)));
        }
    }
    None
}

fn removals(p: &Position) -> Vec<Move> {
    let mut out = Vec::new();
    for (i, q) in p.pieces.iter().enumerate() {
        if removal_problem(p, i).is_none() {
            for score in score_choices(p, earned(p, i)) {
                out.push(Move::plain(Play::Remove { lo: q.lo, hi: q.hi, score }));
            }
        }
    }
    out
}

// ---- the legal moves --------------------------------------------------------------------------------

/// Every legal move; with `with_slides` false, HARI's moves without slides only (a mid-game HARI
/// position can have a million moves, most of them with slides).
pub fn legal_moves(p: &Position, with_slides: bool) -> Vec<Move> {
    if p.is_over() {
        return Vec::new();
    }
    let at = p.grid();
    let moves = match p.game {
        Game::Hari => return hari::moves(p, with_slides),
        Game::Isaac if p.scoring => removals(p),
        Game::Isaac => placements(p, &at, 1, 0),
        Game::Foundations => {
            let (level, shortest) = foundations_target(p, &at);
            placements(p, &at, level, shortest)
        }
    };
    if moves.is_empty() {
        vec![Move::plain(Play::Pass)]
    } else {
        moves
    }
}

/// How many legal moves there are, without building HARI's (perft's last ply).
pub fn count_moves(p: &Position) -> u64 {
    if p.game != Game::Hari || p.is_over() {
        return legal_moves(p, true).len() as u64;
    }
    hari::count_moves(p)
}

pub fn perft(p: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => count_moves(p),
        _ => legal_moves(p, true).iter().map(|m| perft(&make_move(p, m).expect("a legal move"), depth - 1)).sum(),
    }
}

// ---- playing a move ------------------------------------------------------------------------------------

/// The turn passes on after every move, passes included; a player who has passed is skipped while
/// the other still moves. ISAAC: the second pass of the placement phase starts the scoring phase,
/// begun by the first passer (whom the turn passes to).
fn end_turn(q: &mut Position, mover: usize, passed: bool) {
    if passed {
        q.passes.push(mover);
    }
    q.side = if q.passes.contains(&(1 - mover)) && !passed { mover } else { 1 - mover };
    if q.game == Game::Isaac && !q.scoring && q.passes.len() == 2 {
        q.scoring = true;
        q.passes.clear();
    }
}

pub(crate) fn add_piece(q: &mut Position, colour: usize, lo: usize, hi: usize, level: usize) {
    q.pieces.push(Piece { lo, hi, owner: colour, level });
    q.hand[colour][length(lo, hi)] -= 1;
}

pub(crate) fn need_hand(p: &Position, len: usize) -> Result<(), String> {
    match p.hand[p.side][len] {
        0 => Err(format!("you have no piece of length {} in hand", len)),
        _ => Ok(()),
    }
}

fn isaac_move(p: &Position, play: Play, q: &mut Position) -> Result<(), String> {
    let at = p.grid();
    match (p.scoring, play) {
        (false, Play::Place { lo, hi, .. }) => {
            need_hand(p, length(lo, hi))?;
            placement_problem(p, &at, p.side, lo, hi, 1).map_or(Ok(()), Err)?;
            add_piece(q, p.side, lo, hi, 1);
            Ok(())
        }
        (false, _) => Err("pieces are removed in the scoring phase; this is the placement phase".into()),
        (true, Play::Remove { lo, hi, score }) => {
            let i = p
                .pieces
                .iter()
                .position(|r| r.lo == lo && r.hi == hi)
                .ok_or(format!("no piece lies on {}", seg_name(lo, hi)))?;
            removal_problem(p, i).map_or(Ok(()), Err)?;
            let (e, s) = (earned(p, i), p.scores[p.side]);
            if !score_choices(p, e).contains(&score) {
                let reach = if s + e >= 100 { format!(" or {}", s + e) } else { String::new() };
                return Err(format!(
                    "score {} is not allowed: removing {} earns {} from {}, so {}..{}{}, never on your \
                                    opponent's counter",
                    score,
                    seg_name(lo, hi),
                    e,
                    s,
                    s,
                    99.min(s + e),
                    reach
                ));
            }
            q.pieces.remove(i);
            q.scores[p.side] = score;
            Ok(())
        }
        (true, _) => Err("the placement phase is over: remove one of your pieces (x<segment>:<score>)".into()),
    }
}

fn foundations_move(p: &Position, play: Play, q: &mut Position) -> Result<(), String> {
    let (lo, hi, level) = match play {
        Play::Place { lo, hi, level } => (lo, hi, level),
        _ => return Err("this kind of move belongs to another game".into()),
    };
    let at = p.grid();
    let (current, len) = (p.current_level(p.side), length(lo, hi));
    let (target, shortest) = foundations_target(p, &at);
    if level != target {
        return Err(if level < current {
            format!("level {} is below your current level {}", level, current)
        } else if target == current {
            format!("you must place on level {} while you can", current)
        } else {
            format!("you must place on level {} now", target)
        });
    }
    need_hand(p, len)?;
    if len < shortest {
        return Err(format!("length {} is shorter than your last piece on this level ({})", len, shortest));
    }
    placement_problem(p, &at, p.side, lo, hi, level).map_or(Ok(()), Err)?;
    add_piece(q, p.side, lo, hi, level);
    Ok(())
}

/// The position after move m, or the rule it breaks.
pub fn make_move(p: &Position, m: &Move) -> Result<Position, String> {
    if p.is_over() {
        return Err("the game is over".into());
    }
    let mut q = p.clone();
    if m.play == Play::Pass {
        let can_move = match p.game {
            Game::Hari => !p.playable_lengths().is_empty(),
            _ => legal_moves(p, false)[0].play != Play::Pass,
        };
        if can_move || !m.slides.is_empty() {
            return Err("you may pass only when no other move is legal".into());
        }
        end_turn(&mut q, p.side, true);
        return Ok(q);
    }
    if !m.slides.is_empty() && p.game != Game::Hari {
        return Err("slides belong to HARI".into());
    }
    match p.game {
        Game::Isaac => isaac_move(p, m.play, &mut q)?,
        Game::Foundations => foundations_move(p, m.play, &mut q)?,
        Game::Hari => hari::play(p, m, &mut q)?,
    }
    end_turn(&mut q, p.side, false);
    Ok(q)
}

// ---- results ---------------------------------------------------------------------------------------------

fn value_on_board(p: &Position, colour: usize, level: Option<usize>) -> u32 {
    let counted = |q: &&Piece| q.owner == colour && level.map_or(true, |l| q.level == l);
    p.pieces.iter().filter(counted).map(|q| VALUE[length(q.lo, q.hi)]).sum()
}

/// The game's own measure, [Dark, Light] (SPEC 3-5): ISAAC score, FOUNDATIONS value in hand (lower is
/// better), HARI value on the board.
pub fn scores(p: &Position) -> [u32; 2] {
    let in_hand = |c: usize| LENGTHS.iter().map(|&len| p.hand[c][len] as u32 * VALUE[len]).sum();
    match p.game {
        Game::Isaac => p.scores,
        Game::Foundations => [in_hand(DARK), in_hand(LIGHT)],
        Game::Hari => [value_on_board(p, DARK, None), value_on_board(p, LIGHT, None)],
    }
}

/// The result of a finished game: "1-0 (Dark has the higher score, 40-31)".
pub fn describe_result(p: &Position) -> String {
    let [d, l] = scores(p);
    let pick = |dark_wins: bool| if dark_wins { DARK } else { LIGHT };
    let outcome: Option<(usize, String)> = match p.game {
        Game::Isaac if d != l => Some((pick(d > l), "has the higher score".into())),
        Game::Isaac => {
            // the longer line of unplayed pieces (fewer pieces is longer), then Dark
            let line = |c: usize| {
                let cells: usize = LENGTHS.iter().map(|&len| len * p.hand[c][len] as usize).sum();
                let count: usize = LENGTHS.iter().map(|&len| p.hand[c][len] as usize).sum();
                (cells, std::cmp::Reverse(count))
            };
            Some((pick(line(DARK) >= line(LIGHT)), "wins the tie on the longer line of unplayed pieces".into()))
        }
        Game::Foundations if d != l => Some((pick(d < l), "has the lower value in hand".into())),
        Game::Foundations => (1..=MAX_LEVEL).rev().find_map(|level| {
            // fewer points on the highest level where they differ
            let (a, b) = (value_on_board(p, DARK, Some(level)), value_on_board(p, LIGHT, Some(level)));
            (a != b).then(|| (pick(a < b), format!("has fewer points on level {} ({}-{})", level, a, b)))
        }),
        Game::Hari => (d != l).then(|| (pick(d > l), "has the higher value on the board".into())),
    };
    match outcome {
        None => format!("1/2-1/2 (draw, {}-{})", d, l),
        Some((w, why)) => format!("{} ({} {}, {}-{})", ["1-0", "0-1"][w], COLOUR[w], why, d, l),
    }
}

/// The checks of SPEC 7 "Validation" every position string must pass (None if it does). The further
/// checks of what cannot arise from the start (turn order and the like) are left out: a referee only
/// sends positions that arose.
pub fn position_problem(p: &Position) -> Option<String> {
    for colour in [DARK, LIGHT] {
        for len in LENGTHS {
            let n = p.hand[colour][len].saturating_add(p.on_board(colour, len));
            if n > SET_COUNT[len] {
                return Some(format!(
                    "{} has {} pieces of length {}; a set has {}",
                    COLOUR[colour], n, len, SET_COUNT[len]
                ));
            }
            if p.game == Game::Isaac && !p.scoring && n != SET_COUNT[len] {
                return Some(format!(
                    "no piece leaves the game in the placement phase, but {} lacks a piece of length {}",
                    COLOUR[colour], len
                ));
            }
        }
    }
    let mut at = vec![[None; 100]; MAX_LEVEL + 2];
    for (i, q) in p.pieces.iter().enumerate() {
        for c in cells(q.lo, q.hi) {
            if at[q.level][c].is_some() {
                return Some(format!("two pieces on cell {} (level {})", cell_name(c), q.level));
            }
            at[q.level][c] = Some(i);
        }
    }
    for q in p.pieces.iter().filter(|q| q.level >= 2) {
        let own = |c: usize| at[q.level - 1][c].filter(|&i| p.pieces[i].owner == q.owner);
        if !matches!((own(q.lo), own(q.hi)), (Some(a), Some(b)) if a != b) {
            return Some(format!(
                "{}^{} does not rest on two different {} pieces of level {}",
                seg_name(q.lo, q.hi),
                q.level,
                COLOUR[q.owner],
                q.level - 1
            ));
        }
    }
    if p.passes.len() == 1 && p.passes[0] == p.side {
        return Some(format!("{} has passed, so it cannot be to move", COLOUR[p.side]));
    }
    if p.game == Game::Isaac {
        if !p.scoring && (p.scores != [0, 0] || p.passes.len() == 2) {
            return Some("in the placement phase the scores are 0/0 and at most one player has passed".into());
        }
        if p.scores.iter().all(|&s| s >= 100) {
            return Some("only one score can reach 100".into());
        }
        if counter_cell(DARK, p.scores[0]).is_some()
            && counter_cell(DARK, p.scores[0]) == counter_cell(LIGHT, p.scores[1])
        {
            return Some("both counters on one cell".into());
        }
    }
    None
}
