//! A starter engine for ISAAC, FOUNDATIONS and HARI in Rust (no dependencies), written from SPEC.md
//! alone. The protocol (SPEC 9) is here; the rules are in rules.rs (HARI's slides in hari.rs) and the
//! notation in notation.rs.
//!
//! Build:  cargo build --release        (the engine is target/release/isaac-starter)
//! Try:    printf 'uci\nposition startpos\ngo movetime 100\nquit\n' | target/release/isaac-starter
//! Check:  isaac-referee check examples/rust/target/release/isaac-starter
//!
//! Every line written is flushed at once (say()): an unflushed `bestmove` is a move the referee never
//! reads. Diagnostics go to stderr (eprintln!), never to stdout. The player answers at once; a longer
//! search belongs in a thread of its own, with this loop answering `isready` and `stop` meanwhile.
//!
//! **Your player goes in choose_move()**; the time it may use is budget_ms().

mod hari;
mod notation;
mod rules;

use std::io::{self, BufRead, Write};
use std::time::Instant;

use notation::{format_move, format_position, parse_move, parse_position, BadNotation, Word};
use rules::{Game, Move, Play, Position, COLOUR};

const NAME: &str = "isaac-arena Rust starter 1.0";
/// Longer lines are read to their end and dropped (SPEC 9.1).
const MAX_LINE: usize = 65536;
const SEED_MAX: i128 = 2147483647;
/// Kept back from every budget for the pipe and a busy machine.
const RESERVE_MS: i128 = 30;

fn say(line: &str) {
    let mut out = io::stdout().lock();
    // A closed stdout means the referee is gone: nothing is left to do but stop.
    if writeln!(out, "{}", line).and_then(|_| out.flush()).is_err() {
        std::process::exit(0);
    }
}

/// A line the engine cannot obey: one error line, and nothing changes.
type Refused = String;

/// The limits of a `go` (SPEC 9.4), each None when not given.
#[derive(Default)]
struct Limits {
    time: [Option<i128>; 2],
    inc: [Option<i128>; 2],
    movestogo: Option<i128>,
    movetime: Option<i128>,
    depth: Option<i128>,
    nodes: Option<i128>,
    perft: Option<i128>,
    infinite: bool,
}

struct Engine {
    variant: Game,
    seed: u64,
    rng: u64,
    position: Position,
    /// After `go infinite`: the chosen move, printed on `stop`.
    held: Option<String>,
    /// How `position` reached self.position: the words before `moves`, and the moves.
    reached: Option<(String, Vec<String>)>,
}

// ---- choosing a move ----------------------------------------------------------------------------------

impl Engine {
    fn reseed(&mut self) {
        self.rng = 0x9E37_79B9_7F4A_7C15 ^ self.seed.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    }

    /// xorshift64*: a small seeded generator, so the same Seed and commands give the same games.
    fn random(&mut self, below: usize) -> usize {
        self.rng ^= self.rng >> 12;
        self.rng ^= self.rng << 25;
        self.rng ^= self.rng >> 27;
        (self.rng.wrapping_mul(2685821657736338717) % below as u64) as usize
    }

    /// The placeholder player: of the moves without slides, one the rule of thumb (preference()) likes
    /// best, ties broken at random. It looks no further, so it is weak: replace it with your search,
    /// keeping to budget_ms(limits, side) milliseconds from `started` (when `go` came).
    fn choose_move(&mut self, limits: &Limits, started: Instant) -> Move {
        let _ = (budget_ms(limits, self.position.side), started);
        let moves = rules::legal_moves(&self.position, false);
        let game = self.position.game;
        let best = moves.iter().map(|m| preference(game, m)).max().unwrap_or(0);
        let best: Vec<&Move> = moves.iter().filter(|m| preference(game, m) == best).collect();
        best[self.random(best.len())].clone()
    }
}

/// How long to think, in ms, from the limits of `go` (None: until stop, or no time limit).
fn budget_ms(limits: &Limits, side: usize) -> Option<i128> {
    if limits.infinite {
        return None;
    }
    if let Some(movetime) = limits.movetime {
        return Some((movetime - RESERVE_MS).max(1));
    }
    let left = limits.time[side]?;
    let share = left / limits.movestogo.unwrap_or(20) + limits.inc[side].unwrap_or(0) * 4 / 5;
    Some((share.min(left / 2) - RESERVE_MS).max(1))
}

/// A beginner's rule of thumb, bigger is better: in ISAAC's scoring phase the highest new score; in
/// FOUNDATIONS and HARI the shortest piece that fits (both let a player place pieces in non-decreasing
/// length only, so a long piece early ends the run), and a HARI discard only when nothing fits.
fn preference(game: Game, m: &Move) -> u32 {
    match m.play {
        Play::Remove { score, .. } => score,
        Play::Place { lo, hi, .. } if game != Game::Isaac => 8 - rules::length(lo, hi) as u32,
        _ => 0,
    }
}

// ---- reading commands ------------------------------------------------------------------------------------

/// The words of a line and their 1-based columns; blanks are spaces and tabs only (SPEC 9.1).
fn words(line: &str) -> Vec<Word<'_>> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, ch) in line.char_indices().chain(std::iter::once((line.len(), ' '))) {
        match (ch == ' ' || ch == '\t', start) {
            (true, Some(s)) => {
                out.push(Word { text: &line[s..i], col: line[..s].chars().count() + 1 });
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    out
}

/// A word for a message: quoted, at most 60 characters, control characters escaped.
fn quoted(text: &str) -> String {
    let cut: String = text.chars().take(60).flat_map(char::escape_default).collect();
    format!("'{}'{}", cut, if text.chars().count() > 60 { "..." } else { "" })
}

/// A whole number of ASCII digits with an optional minus, in [lo, hi], never clamped (SPEC 9.4).
fn whole_number(word: Option<&Word>, lo: i128, hi: i128, what: &str) -> Result<i128, Refused> {
    let word = word.ok_or(format!("{} needs a whole number", what))?;
    let digits = word.text.strip_prefix('-').unwrap_or(word.text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("{} needs a whole number, not {} (column {})", what, quoted(word.text), word.col));
    }
    let shown = if digits.len() > 18 { format!("a {}-digit number", digits.len()) } else { word.text.to_string() };
    match word.text.parse::<i128>() {
        Ok(v) if v > hi => Err(format!("{} must be at most {}, not {} (column {})", what, hi, shown, word.col)),
        Ok(v) if v < lo => Err(format!("{} must be at least {}, not {} (column {})", what, lo, shown, word.col)),
        Ok(v) => Ok(v),
        Err(_) => Err(format!(
            "{} must be at {} {}, not {} (column {})",
            what,
            if word.text.starts_with('-') { "least" } else { "most" },
            if word.text.starts_with('-') { lo } else { hi },
            shown,
            word.col
        )),
    }
}

fn parse_go(w: &[Word]) -> Result<Limits, Refused> {
    const TIME: i128 = 2147483647;
    let mut limits = Limits::default();
    let mut i = 1;
    while i < w.len() {
        let word = w[i].text;
        let (slot, lo, hi): (&mut Option<i128>, i128, i128) = match word {
            "infinite" if !limits.infinite => {
                limits.infinite = true;
                i += 1;
                continue;
            }
            "infinite" => return Err(format!("go: infinite given twice (column {})", w[i].col)),
            "p1time" | "wtime" => (&mut limits.time[0], 0, TIME),
            "p2time" | "btime" => (&mut limits.time[1], 0, TIME),
            "p1inc" | "winc" => (&mut limits.inc[0], 0, TIME),
            "p2inc" | "binc" => (&mut limits.inc[1], 0, TIME),
            "movestogo" => (&mut limits.movestogo, 1, 10000),
            "movetime" => (&mut limits.movetime, 0, TIME),
            "depth" => (&mut limits.depth, 1, 1000),
            "nodes" => (&mut limits.nodes, 1, i64::MAX as i128),
            "perft" => (&mut limits.perft, 0, 1000),
            _ => return Err(format!("go: unknown word {} at column {}", quoted(word), w[i].col)),
        };
        if slot.is_some() {
            return Err(format!("go: {} given twice (column {})", word, w[i].col));
        }
        *slot = Some(whole_number(w.get(i + 1), lo, hi, word)?);
        i += 2;
    }
    if limits.perft.is_some() && w.len() != 3 {
        return Err("go perft <n> takes no other word".into());
    }
    Ok(limits)
}

// ---- the commands --------------------------------------------------------------------------------------------

impl Engine {
    fn uci(&mut self) {
        say(&format!("id name {}", NAME));
        say("id author isaac-arena participants' kit");
        say("option name UCI_Variant type combo default isaac var isaac var foundations var hari");
        say(&format!("option name Seed type spin default 0 min 0 max {}", SEED_MAX));
        say("uciok");
    }

    /// setoption name <name> [value <value>]: names and combo values are case-insensitive.
    fn setoption(&mut self, w: &[Word]) -> Result<(), Refused> {
        let v = w.iter().position(|x| x.text == "value");
        if w.len() < 3 || w[1].text != "name" || v == Some(2) {
            return Err("setoption: expected 'setoption name <name> value <value>'".into());
        }
        let name: Vec<&str> = w[2..v.unwrap_or(w.len())].iter().map(|x| x.text).collect();
        let name = name.join(" ");
        let value = match v {
            Some(v) if v + 2 == w.len() => &w[v + 1],
            _ => return Err(format!("option {} needs one word as its value", quoted(&name))),
        };
        match name.to_lowercase().as_str() {
            "uci_variant" => match Game::from_name(&value.text.to_lowercase()) {
                Some(game) => {
                    self.variant = game;
                    self.position = Position::start(game); // choosing a game resets the position
                    self.reached = None;
                }
                None => {
                    return Err(format!(
                        "option UCI_Variant has no value {} (column {}); values: isaac, foundations, hari",
                        quoted(value.text),
                        value.col
                    ))
                }
            },
            "seed" => {
                self.seed = whole_number(Some(value), 0, SEED_MAX, "option Seed")? as u64;
                self.reseed();
            }
            _ => {
                return Err(format!(
                    "unknown option {} (column {}); options: UCI_Variant, Seed",
                    quoted(&name),
                    w[2].col
                ))
            }
        }
        Ok(())
    }

    /// position startpos|fen <position string> [moves ...]: checked as a whole before anything changes,
    /// so a refused command leaves the previous position in place. A referee sends the whole game
    /// before every move: when it extends the position reached last, only the new moves are read.
    fn position(&mut self, w: &[Word]) -> Result<(), Refused> {
        let at = w.iter().position(|x| x.text == "moves").unwrap_or(w.len());
        let start: Vec<&str> = w[1.min(w.len())..at].iter().map(|x| x.text).collect();
        let (start, moves) = (start.join(" "), w.iter().skip(at + 1).map(|x| x.text.to_string()).collect::<Vec<_>>());
        let known = match &self.reached {
            Some((from, done)) if *from == start && moves.starts_with(done) => Some(done.len()),
            _ => None,
        };
        let mut p = match w.get(1).map(|x| x.text) {
            _ if known.is_some() => self.position.clone(),
            Some("startpos") if at == 2 => Position::start(self.variant),
            Some("fen") if at > 2 => {
                let p = parse_position(&w[2..at]).map_err(|e: BadNotation| {
                    format!("position: bad position string at column {}: {}", e.column, e.message)
                })?;
                if p.game != self.variant {
                    return Err(format!(
                        "position: a {} position, but UCI_Variant is {} (send setoption name \
                                        UCI_Variant value {} first)",
                        p.game.name(),
                        self.variant.name(),
                        p.game.name()
                    ));
                }
                p
            }
            _ => return Err("position: expected 'startpos' or 'fen <position string>', then 'moves ...'".into()),
        };
        for (number, word) in w.iter().skip(at + 1).enumerate().skip(known.unwrap_or(0)) {
            let shown = format!("move {} {}", number + 1, quoted(word.text));
            let m = parse_move(p.game, word.text).map_err(|e| {
                format!("position: {} at column {}: bad notation: {}", shown, word.col + e.column - 1, e.message)
            })?;
            p = rules::make_move(&p, &m)
                .map_err(|why| format!("position: {} at column {}: illegal: {}", shown, word.col, why))?;
        }
        self.position = p;
        self.reached = Some((start, moves));
        Ok(())
    }

    fn go(&mut self, w: &[Word]) -> Result<(), Refused> {
        if self.held.is_some() {
            return Err("go: a search is running; send stop first".into());
        }
        let started = Instant::now();
        let limits = parse_go(w)?;
        let p = &self.position;
        if let Some(depth) = limits.perft {
            let mut total = if depth == 0 { 1 } else { 0 };
            for m in rules::legal_moves(p, true).iter().filter(|_| depth > 0) {
                let count = rules::perft(&rules::make_move(p, m).expect("a legal move"), depth as u32 - 1);
                say(&format!("{}: {}", format_move(m), count));
                total += count;
            }
            say("");
            say(&format!("Nodes searched: {}", total));
            return Ok(());
        }
        if p.is_over() {
            // answered at once, also after go infinite
            say(&format!("info string game over: {}", rules::describe_result(p)));
            say("bestmove (none)");
            return Ok(());
        }
        let m = self.choose_move(&limits, started);
        let text = format_move(&m);
        if limits.infinite && m.play != Play::Pass {
            self.held = Some(text); // printed on stop
        } else {
            say(&format!("bestmove {}", text));
        }
        Ok(())
    }

    /// d: the board for people (each cell's top piece, FOUNDATIONS with its level) and the position string.
    fn display(&self) {
        let p = &self.position;
        say("    a  b  c  d  e  f  g  h  i  j");
        for rank in (0..10).rev() {
            let mut row = format!(" {}  ", rank);
            for cell in rank * 10..rank * 10 + 10 {
                let top =
                    p.pieces.iter().filter(|q| rules::cells(q.lo, q.hi).any(|c| c == cell)).max_by_key(|q| q.level);
                let level = match top {
                    Some(q) if p.game == Game::Foundations => q.level.to_string(),
                    _ => " ".to_string(),
                };
                row += &format!("{}{} ", top.map_or('.', |q| ['D', 'L'][q.owner]), level);
            }
            say(&format!("{} {}", row, rank));
        }
        if p.is_over() {
            say(&format!("Game over: {}", rules::describe_result(p)));
        } else {
            say(&format!("Side to move: {}", COLOUR[p.side]));
        }
        say(&format!("Position: {}", format_position(p)));
    }

    fn moves(&self, w: &[Word]) -> Result<(), Refused> {
        if w.len() != 1 {
            return Err("moves: only the bare form is supported".into());
        }
        if self.held.is_some() {
            return Err("moves: a search is running; send stop first".into());
        }
        let listed: Vec<String> = rules::legal_moves(&self.position, true).iter().map(format_move).collect();
        say(format!("moves {}", listed.join(" ")).trim_end());
        Ok(())
    }

    /// Obey one line; Err: the one error line it gets.
    fn handle(&mut self, line: &str) -> Result<(), Refused> {
        let w = words(line);
        let first = match w.first() {
            Some(first) => first,
            None => return Ok(()), // an empty line, or blanks only
        };
        match first.text {
            "uci" => self.uci(),
            "isready" => say("readyok"),
            "setoption" => self.setoption(&w)?,
            "ucinewgame" => {
                self.position = Position::start(self.variant);
                self.reached = None;
                self.reseed();
            }
            "position" => self.position(&w)?,
            "go" => self.go(&w)?,
            "stop" => {
                if let Some(held) = self.held.take() {
                    say(&format!("bestmove {}", held)); // nothing running: ignored in silence
                }
            }
            "d" => self.display(),
            "moves" => self.moves(&w)?,
            "debug" => {}
            "ponderhit" => return Err("ponderhit: pondering is not supported".into()),
            "quit" => std::process::exit(0),
            _ => {
                return Err(format!(
                    "unknown command {} (column {}); commands are uci, isready, setoption, ucinewgame, \
                                    position, go, stop, d, moves, debug, ponderhit, quit",
                    quoted(first.text),
                    first.col
                ))
            }
        }
        Ok(())
    }
}

// ---- input: whole lines, UTF-8 with bad bytes read as U+FFFD -------------------------------------------------

/// The next line without its LF (and a CR before it) into `line`; None at the end of input,
/// Some(true) for a line over MAX_LINE bytes, read to its end and dropped.
fn read_line(input: &mut impl BufRead, line: &mut Vec<u8>) -> io::Result<Option<bool>> {
    line.clear();
    let (mut any, mut too_long) = (false, false);
    loop {
        let (used, newline) = {
            let buf = input.fill_buf()?;
            if buf.is_empty() {
                return Ok(if any { Some(too_long) } else { None });
            }
            let end = buf.iter().position(|&b| b == b'\n');
            let chunk = &buf[..end.unwrap_or(buf.len())];
            if line.len() + chunk.len() <= MAX_LINE + 1 {
                line.extend_from_slice(chunk);
            } else {
                too_long = true;
            }
            (end.map_or(buf.len(), |e| e + 1), end.is_some())
        };
        input.consume(used);
        any = true;
        if newline {
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            return Ok(Some(too_long || line.len() > MAX_LINE));
        }
    }
}

fn main() {
    let mut engine = Engine {
        variant: Game::Isaac,
        seed: 0,
        rng: 0,
        position: Position::start(Game::Isaac),
        held: None,
        reached: None,
    };
    engine.reseed();
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let mut line = Vec::new();
    // the end of input (or an unreadable stdin) ends the engine, like quit
    while let Ok(Some(too_long)) = read_line(&mut input, &mut line) {
        let answer = if too_long {
            Err(format!("line longer than {} bytes dropped; nothing of it was obeyed", MAX_LINE))
        } else {
            engine.handle(&String::from_utf8_lossy(&line))
        };
        if let Err(why) = answer {
            say(&format!("info string error: {}", why));
        }
    }
}
