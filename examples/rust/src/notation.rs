//! Moves (SPEC 6) and position strings (SPEC 7), read and written. Reading fails with a
//! `BadNotation`: the 1-based column where the text went wrong and what was expected there.

use crate::rules::{
    length, position_problem, seg_name, Game, Move, Piece, Play, Position, Slide, DARK, LENGTHS, LIGHT,
};

#[derive(Debug)]
pub struct BadNotation {
    pub column: usize,
    pub message: String,
}

type Parsed<T> = Result<T, BadNotation>;

fn bad<T>(column: usize, message: impl Into<String>) -> Parsed<T> {
    Err(BadNotation { column, message: message.into() })
}

/// A reader over one word: cells, segments and the little words of the notation.
struct Cursor<'a> {
    text: &'a [u8],
    at: usize,
}

impl<'a> Cursor<'a> {
    fn new(text: &'a str) -> Cursor<'a> {
        Cursor { text: text.as_bytes(), at: 0 }
    }

    /// The 1-based column of a byte offset: columns count characters (the cursor only ever
    /// stops after ASCII, so the offset is on a character boundary).
    fn column(&self, offset: usize) -> usize {
        std::str::from_utf8(&self.text[..offset]).map_or(offset, |s| s.chars().count()) + 1
    }

    fn fail<T>(&self, expected: &str) -> Parsed<T> {
        bad(self.column(self.at), format!("expected {}", expected))
    }

    fn take(&mut self, word: &str) -> bool {
        let found = self.text[self.at..].starts_with(word.as_bytes());
        if found {
            self.at += word.len();
        }
        found
    }

    fn at_end(&self) -> bool {
        self.at == self.text.len()
    }

    fn end(&self) -> Parsed<()> {
        if self.at_end() {
            Ok(())
        } else {
            self.fail("the end of the move")
        }
    }

    fn number(&mut self, what: &str) -> Parsed<u32> {
        let digits = self.text[self.at..].iter().take_while(|b| b.is_ascii_digit()).count();
        if digits == 0 || digits > 6 {
            return self.fail(what);
        }
        let text = std::str::from_utf8(&self.text[self.at..self.at + digits]).unwrap_or("0");
        self.at += digits;
        Ok(text.parse().unwrap_or(0))
    }

    fn cell(&mut self) -> Parsed<usize> {
        match self.text.get(self.at..self.at + 2) {
            Some(&[f @ b'a'..=b'j', r @ b'0'..=b'9']) => {
                self.at += 2;
                Ok((r - b'0') as usize * 10 + (f - b'a') as usize)
            }
            _ => self.fail("a cell (a0 to j9)"),
        }
    }

    /// Two end cells of a piece, either end first: (lo, hi).
    fn segment(&mut self) -> Parsed<(usize, usize)> {
        let start = self.at;
        let (a, b) = (self.cell()?, self.cell()?);
        let (lo, hi) = (a.min(b), a.max(b));
        let on_line = lo / 10 == hi / 10 || (lo % 10 == hi % 10 && lo != hi);
        if !on_line || length(lo, hi) < 3 || length(lo, hi) > 7 {
            let shown = String::from_utf8_lossy(&self.text[start..self.at]);
            return bad(
                self.column(start),
                format!(
                    "'{}' is not a piece: its ends must lie on one row or column, 3 to 7 cells \
                                           long counting both ends",
                    shown
                ),
            );
        }
        Ok((lo, hi))
    }
}

/// A move of `game` from its text, in any accepted spelling (SPEC 6).
pub fn parse_move(game: Game, text: &str) -> Parsed<Move> {
    let mut at = Cursor::new(text);
    let plain = |play| Move { slides: Vec::new(), play };
    if text == "pass" {
        return Ok(plain(Play::Pass));
    }
    match game {
        Game::Isaac if at.take("x") => {
            let (lo, hi) = at.segment()?;
            if !at.take(":") {
                return at.fail("':' and the new score");
            }
            let score = at.number("the new score")?;
            at.end()?;
            Ok(plain(Play::Remove { lo, hi, score }))
        }
        Game::Isaac | Game::Foundations => {
            let (lo, hi) = at.segment()?;
            let level = if game == Game::Foundations && at.take("^") { at.number("a level")? as usize } else { 1 };
            at.end()?;
            if level < 1 {
                return bad(at.column(at.at - 1), "expected a level of 1 or more");
            }
            Ok(plain(Play::Place { lo, hi, level }))
        }
        Game::Hari => {
            let mut slides = Vec::new(); // slides, each followed by ',', then the play
            loop {
                if at.take("x") {
                    let len = at.number("a length to discard (3 to 7)")? as usize;
                    if !(3..=7).contains(&len) {
                        return bad(at.column(at.at - 1), "expected a length to discard (3 to 7)");
                    }
                    at.end()?;
                    return Ok(Move { slides, play: Play::Discard(len) });
                }
                let (lo, hi) = at.segment()?;
                if at.at_end() {
                    return Ok(Move { slides, play: Play::Place { lo, hi, level: 1 } });
                }
                if !at.take(">") {
                    return at.fail("'>' (a slide) or the end of the move");
                }
                let to = if at.take("off") { None } else { Some(at.segment()?) };
                slides.push(Slide { lo, hi, to });
                if !at.take(",") {
                    return at.fail("',' and the next slide or the play");
                }
            }
        }
    }
}

pub fn format_move(m: &Move) -> String {
    let mut out = String::new();
    for s in &m.slides {
        let to = s.to.map_or("off".to_string(), |(lo, hi)| seg_name(lo, hi));
        out += &format!("{}>{},", seg_name(s.lo, s.hi), to);
    }
    match m.play {
        Play::Pass => out + "pass",
        Play::Remove { lo, hi, score } => format!("x{}:{}", seg_name(lo, hi), score),
        Play::Discard(len) => format!("{}x{}", out, len),
        Play::Place { lo, hi, level } if level > 1 => format!("{}{}^{}", out, seg_name(lo, hi), level),
        Play::Place { lo, hi, .. } => out + &seg_name(lo, hi),
    }
}

// ---- position strings --------------------------------------------------------------------------------

/// A word of a command line and its 1-based column.
pub struct Word<'a> {
    pub text: &'a str,
    pub col: usize,
}

/// "dark/light" of a field: each half read by `read(text, column, colour)`.
fn halves<T>(field: &Word, what: &str, mut read: impl FnMut(&str, usize, usize) -> Parsed<T>) -> Parsed<[T; 2]> {
    match field.text.split_once('/') {
        Some((dark, light)) if !light.contains('/') => {
            Ok([read(dark, field.col, DARK)?, read(light, field.col + dark.len() + 1, LIGHT)?])
        }
        _ => bad(field.col, format!("expected {} as <dark>/<light>", what)),
    }
}

fn read_pieces(game: Game, text: &str, col: usize, colour: usize) -> Parsed<Vec<Piece>> {
    let mut out = Vec::new();
    let mut offset = 0;
    for item in text.split(',').filter(|_| text != "-") {
        let mut at = Cursor::new(item);
        let shift = |e: BadNotation| BadNotation { column: col + offset + e.column - 1, ..e };
        let (lo, hi) = at.segment().map_err(shift)?;
        let level =
            if game == Game::Foundations && at.take("^") { at.number("a level").map_err(shift)? as usize } else { 1 };
        at.end().map_err(shift)?;
        if !(1..=8).contains(&level) {
            return bad(col + offset, "expected a level from 1 to 8");
        }
        out.push(Piece { lo, hi, owner: colour, level });
        offset += item.len() + 1;
    }
    Ok(out)
}

fn read_hand(text: &str, col: usize, _colour: usize) -> Parsed<[u8; 8]> {
    let mut hand = [0u8; 8];
    for (k, b) in text.bytes().enumerate().filter(|_| text != "-") {
        if !(b'3'..=b'7').contains(&b) {
            return bad(col + k, "expected piece lengths (digits 3 to 7) or -");
        }
        hand[(b - b'0') as usize] = hand[(b - b'0') as usize].saturating_add(1);
    }
    Ok(hand)
}

/// A position from the fields of a position string.
pub fn parse_position(fields: &[Word]) -> Parsed<Position> {
    let game = match Game::from_name(fields[0].text) {
        Some(game) => game,
        None => return bad(fields[0].col, "expected a game: isaac, foundations or hari"),
    };
    let want = if game == Game::Isaac { 7 } else { 5 };
    if fields.len() != want {
        let shown = &fields[fields.len().min(want) - 1];
        return bad(shown.col, format!("{} position strings have {} fields, not {}", game.name(), want, fields.len()));
    }
    let mut p = Position::start(game);
    let [dark, light] = halves(&fields[1], "pieces", |text, col, colour| read_pieces(game, text, col, colour))?;
    p.pieces = dark.into_iter().chain(light).collect();
    p.hand = halves(&fields[2], "hands", read_hand)?;
    p.side = match fields[3].text {
        "d" => DARK,
        "l" => LIGHT,
        _ => return bad(fields[3].col, "expected side to move (d or l)"),
    };
    p.passes = match fields[4].text {
        "-" | "d" | "l" | "dl" | "ld" => {
            fields[4].text.bytes().filter(|&b| b != b'-').map(|b| (b == b'l') as usize).collect()
        }
        _ => return bad(fields[4].col, "expected passes (-, d, l, dl or ld)"),
    };
    if game == Game::Isaac {
        p.scoring = match fields[5].text {
            "place" => false,
            "score" => true,
            _ => return bad(fields[5].col, "expected phase (place or score)"),
        };
        p.scores = halves(&fields[6], "scores", |text, col, _| match text.parse::<u32>() {
            Ok(score) if text.len() <= 3 && text.bytes().all(|b| b.is_ascii_digit()) => Ok(score),
            _ => bad(col, "expected a score"),
        })?;
    }
    match position_problem(&p) {
        Some(problem) => bad(fields[0].col, problem),
        None => Ok(p),
    }
}

pub fn format_position(p: &Position) -> String {
    let pieces: Vec<String> = [DARK, LIGHT]
        .iter()
        .map(|&colour| {
            let mut mine: Vec<&Piece> = p.pieces.iter().filter(|q| q.owner == colour).collect();
            mine.sort_by_key(|q| (q.level, q.lo, q.hi));
            let shown: Vec<String> = mine
                .iter()
                .map(|q| seg_name(q.lo, q.hi) + &if q.level > 1 { format!("^{}", q.level) } else { String::new() })
                .collect();
            if shown.is_empty() {
                "-".to_string()
            } else {
                shown.join(",")
            }
        })
        .collect();
    let hands: Vec<String> = p
        .hand
        .iter()
        .map(|h| {
            let digits: String = LENGTHS.iter().map(|&len| len.to_string().repeat(h[len] as usize)).collect();
            if digits.is_empty() {
                "-".to_string()
            } else {
                digits
            }
        })
        .collect();
    let passes: String = p.passes.iter().map(|&c| ['d', 'l'][c]).collect();
    let passes = if passes.is_empty() { "-".to_string() } else { passes };
    let text = format!("{} {} {} {} {}", p.game.name(), pieces.join("/"), hands.join("/"), ['d', 'l'][p.side], passes);
    if p.game == Game::Isaac {
        format!("{} {} {}/{}", text, if p.scoring { "score" } else { "place" }, p.scores[0], p.scores[1])
    } else {
        text
    }
}
