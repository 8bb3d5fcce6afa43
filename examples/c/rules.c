/* rules.c: the rules of the three games (SPEC.md sections 1-5, 7).
 *
 * One function, make_move(), checks a move and plays it on a copy: the position changes only when
 * the whole move is legal, and an illegal move comes back with the rule it breaks. legal_moves()
 * lists the moves this engine may choose from; it leaves out HARI moves with slides (the starter
 * never slides) but make_move() accepts them, so the opponent's slides are tracked exactly.
 */
#include "isaac.h"

#include <stdio.h>
#include <string.h>

const char *const GAME_NAMES[3] = {"isaac", "foundations", "hari"};
const int SET_COUNT[MAX_LEN + 1] = {0, 0, 0, 5, 4, 3, 2, 1};
const int VALUE[MAX_LEN + 1] = {0, 0, 0, 1, 2, 3, 4, 6};

static const char *const COLOUR[2] = {"Dark", "Light"};

/* ---- cells and segments ------------------------------------------------------------------ */

int segment_ok(int a, int b)
{
    int lo = a < b ? a : b, hi = a < b ? b : a, cells;
    if (lo / 10 == hi / 10)
        cells = hi - lo + 1;                      /* along a row */
    else if (lo % 10 == hi % 10)
        cells = (hi - lo) / 10 + 1;               /* along a column */
    else
        return 0;
    return cells >= MIN_LEN && cells <= MAX_LEN;
}

int segment_step(int lo, int hi) { return lo % 10 == hi % 10 ? 10 : 1; }

int segment_length(int lo, int hi) { return (hi - lo) / segment_step(lo, hi) + 1; }

static void segment_name(int lo, int hi, char *out)
{
    cell_name(lo, out);
    cell_name(hi, out + 2);
}

/* Every segment of one length, along rows then along columns: lo[i], hi[i]; returns the count. */
static int all_segments(int len, int *lo, int *hi)
{
    int n = 0;
    for (int rank = 0; rank < 10; rank++)
        for (int file = 0; file + len <= 10; file++, n++) {
            lo[n] = rank * 10 + file;
            hi[n] = lo[n] + len - 1;
        }
    for (int rank = 0; rank + len <= 10; rank++)
        for (int file = 0; file < 10; file++, n++) {
            lo[n] = rank * 10 + file;
            hi[n] = lo[n] + (len - 1) * 10;
        }
    return n;
}

/* ---- the position ------------------------------------------------------------------------ */

void start_position(Position *p, enum Game game)
{
    memset(p, 0, sizeof *p);
    p->game = game;
    for (int len = MIN_LEN; len <= MAX_LEN; len++)
        p->hand[DARK][len] = p->hand[LIGHT][len] = SET_COUNT[len];
    p->side = DARK;
    p->phase = PLACE_PHASE;
}

void build_grid(const Position *p, Grid *g)
{
    memset(g->at, -1, sizeof g->at);
    for (int i = 0; i < p->npieces; i++) {
        const Piece *q = &p->piece[i];
        for (int c = q->lo; c <= q->hi; c += segment_step(q->lo, q->hi))
            g->at[q->level][c] = (signed char)i;
    }
}

int has_passed(const Position *p, int colour)
{
    for (int i = 0; i < p->npassed; i++)
        if (p->passed[i] == colour)
            return 1;
    return 0;
}

/* Dark's counter for score s is on cell s, Light's on cell 99 - s (SPEC 3); off the board at 100. */
int counter_cell(int colour, int score)
{
    if (score >= 100)
        return -1;
    return colour == DARK ? score : 99 - score;
}

int is_over(const Position *p)
{
    if (p->game == ISAAC && (p->score[DARK] >= 100 || p->score[LIGHT] >= 100))
        return 1;                                 /* score-limit */
    if (p->npassed < 2)
        return 0;
    return p->game != ISAAC || p->phase == SCORE_PHASE;   /* both-passed */
}

static int owned_on_board(const Position *p, int colour, int len)
{
    int n = 0;
    for (int i = 0; i < p->npieces; i++)
        if (p->piece[i].owner == colour && segment_length(p->piece[i].lo, p->piece[i].hi) == len)
            n++;
    return n;
}

/* ISAAC scoring: a player removes pieces at least as long as every piece it removed before, and
 * the removed pieces are exactly those neither in hand nor on the board (SPEC 7, derived state). */
static int longest_removed(const Position *p, int colour)
{
    for (int len = MAX_LEN; len >= MIN_LEN; len--)
        if (SET_COUNT[len] - p->hand[colour][len] - owned_on_board(p, colour, len) > 0)
            return len;
    return 0;
}

/* HARI: plays never get shorter, and every piece not in hand has been played. */
static int longest_played(const Position *p, int colour)
{
    for (int len = MAX_LEN; len >= MIN_LEN; len--)
        if (p->hand[colour][len] < SET_COUNT[len])
            return len;
    return 0;
}

/* FOUNDATIONS: a player's current level is the highest level holding one of its pieces (1 if none). */
static int current_level(const Position *p, int colour)
{
    int level = 1;
    for (int i = 0; i < p->npieces; i++)
        if (p->piece[i].owner == colour && p->piece[i].level > level)
            level = p->piece[i].level;
    return level;
}

/* FOUNDATIONS: pieces on a level go in non-decreasing length: the longest own piece there. */
static int longest_on_level(const Position *p, int colour, int level)
{
    int longest = 0;
    for (int i = 0; i < p->npieces; i++) {
        const Piece *q = &p->piece[i];
        int len = segment_length(q->lo, q->hi);
        if (q->owner == colour && q->level == level && len > longest)
            longest = len;
    }
    return longest;
}

/* ---- placing a piece ----------------------------------------------------------------------- */

/* May `colour` cover lo..hi on `level`? The cells only (the hand and the order are checked apart).
 * FOUNDATIONS adds: nothing may be built under a higher piece, and a piece above level 1 rests
 * both ends on two different own pieces of the level below (its middle may bridge anything). */
static int cells_free(const Position *p, const Grid *g, int colour, int lo, int hi, int level, char *why)
{
    char name[3], seg[5];
    for (int c = lo; c <= hi; c += segment_step(lo, hi)) {
        int taker = g->at[level][c];
        if (taker >= 0) {
            if (why) {
                const Piece *q = &p->piece[taker];
                cell_name(c, name);
                segment_name(q->lo, q->hi, seg);
                snprintf(why, WHY_LEN, "cell %s is taken by %s's piece %s%s", name, COLOUR[q->owner], seg,
                         level > 1 ? " on that level" : "");
            }
            return 0;
        }
        for (int up = level + 1; up <= MAX_LEVEL; up++)
            if (g->at[up][c] >= 0) {
                if (why) {
                    cell_name(c, name);
                    snprintf(why, WHY_LEN, "cell %s lies under a piece on level %d: nothing is built "
                             "underneath", name, up);
                }
                return 0;
            }
    }
    if (level >= 2) {
        int a = g->at[level - 1][lo], b = g->at[level - 1][hi];
        if (a < 0 || b < 0 || p->piece[a].owner != colour || p->piece[b].owner != colour) {
            if (why)
                snprintf(why, WHY_LEN, "both ends must rest on your own pieces on level %d", level - 1);
            return 0;
        }
        if (a == b) {
            if (why) {
                segment_name(p->piece[a].lo, p->piece[a].hi, seg);
                snprintf(why, WHY_LEN, "both ends rest on your piece %s; they need two different pieces", seg);
            }
            return 0;
        }
    }
    return 1;
}

/* Every placement of a length from `shortest` up on one level (pieces in hand, cells free). */
static int placements(const Position *p, const Grid *g, int level, int shortest, Move *out)
{
    int n = 0, lo[200], hi[200];
    for (int len = shortest < MIN_LEN ? MIN_LEN : shortest; len <= MAX_LEN; len++) {
        if (p->hand[p->side][len] == 0)
            continue;
        int count = all_segments(len, lo, hi);
        for (int i = 0; i < count; i++)
            if (cells_free(p, g, p->side, lo[i], hi[i], level, NULL)) {
                if (out) {
                    memset(&out[n], 0, sizeof out[n]);
                    out[n].kind = MOVE_PLACE;
                    out[n].lo = lo[i];
                    out[n].hi = hi[i];
                    out[n].level = level;
                }
                n++;
            }
    }
    return n;
}

/* FOUNDATIONS compulsion: the current level if anything fits there, else the next one (SPEC 4). */
static int foundations_level(const Position *p, const Grid *g)
{
    int level = current_level(p, p->side);
    if (placements(p, g, level, longest_on_level(p, p->side, level), NULL) > 0 || level == MAX_LEVEL)
        return level;
    return level + 1;
}

/* ---- ISAAC's scoring phase ------------------------------------------------------------------ */

/* Points earned by removing piece i: N x V x M (SPEC 3). N: other pieces with a cell on the
 * removed piece's whole row (or column); V: its value; M: 1, 2, 4 for 0, 1, 2 counters there. */
static int earned(const Position *p, int i)
{
    const Piece *r = &p->piece[i];
    int vertical = segment_step(r->lo, r->hi) == 10, line = vertical ? r->lo % 10 : r->lo / 10;
    int others = 0, counters = 0;
    for (int j = 0; j < p->npieces; j++) {
        if (j == i)
            continue;
        int lo = p->piece[j].lo, hi = p->piece[j].hi;
        int first = vertical ? lo % 10 : lo / 10, last = vertical ? hi % 10 : hi / 10;
        if (first <= line && line <= last)
            others++;
    }
    for (int colour = DARK; colour <= LIGHT; colour++) {
        int c = counter_cell(colour, p->score[colour]);
        if (c >= 0 && (vertical ? c % 10 : c / 10) == line)
            counters++;
    }
    return others * VALUE[segment_length(r->lo, r->hi)] * (1 << counters);
}

/* May the mover take its score from s to t after earning e? (SPEC 3: new score) */
static int score_allowed(const Position *p, int e, int t)
{
    int me = p->side, s = p->score[me];
    if (t == s + e && t >= 100)
        return 1;                                 /* reaching 100 ends the game at once */
    if (t < s || t > s + e || t > 99)
        return 0;
    return counter_cell(me, t) != counter_cell(1 - me, p->score[1 - me]);
}

/* Can the mover remove piece i at all? Its own, long enough, and no counter on any of its cells. */
static int removable(const Position *p, int i, char *why)
{
    const Piece *r = &p->piece[i];
    char seg[5], name[3];
    segment_name(r->lo, r->hi, seg);
    if (r->owner != p->side) {
        if (why)
            snprintf(why, WHY_LEN, "not your piece: %s is %s's", seg, COLOUR[r->owner]);
        return 0;
    }
    int len = segment_length(r->lo, r->hi), shortest = longest_removed(p, p->side);
    if (len < shortest) {
        if (why)
            snprintf(why, WHY_LEN, "%s has length %d, shorter than a piece you removed before (%d)",
                     seg, len, shortest);
        return 0;
    }
    for (int colour = DARK; colour <= LIGHT; colour++) {
        int c = counter_cell(colour, p->score[colour]);
        for (int x = r->lo; c >= 0 && x <= r->hi; x += segment_step(r->lo, r->hi))
            if (x == c) {
                if (why) {
                    cell_name(c, name);
                    snprintf(why, WHY_LEN, "%s lies under %s's counter on %s", seg, COLOUR[colour], name);
                }
                return 0;
            }
    }
    return 1;
}

static int removals(const Position *p, Move *out)
{
    int n = 0;
    for (int i = 0; i < p->npieces; i++) {
        if (!removable(p, i, NULL))
            continue;
        int e = earned(p, i), s = p->score[p->side];
        for (int t = s; t <= s + e; t++)
            if (score_allowed(p, e, t)) {
                if (out) {
                    memset(&out[n], 0, sizeof out[n]);
                    out[n].kind = MOVE_REMOVE;
                    out[n].lo = p->piece[i].lo;
                    out[n].hi = p->piece[i].hi;
                    out[n].level = 1;
                    out[n].score = t;
                }
                n++;
            }
    }
    return n;
}

/* ---- the legal moves ----------------------------------------------------------------------- */

static int pass_only(Move *out)
{
    memset(&out[0], 0, sizeof out[0]);
    out[0].kind = MOVE_PASS;
    return 1;
}

int legal_moves(const Position *p, Move *out)
{
    Grid g;
    int n = 0;
    if (is_over(p))
        return 0;
    build_grid(p, &g);
    switch (p->game) {
    case ISAAC:
        n = p->phase == PLACE_PHASE ? placements(p, &g, 1, MIN_LEN, out) : removals(p, out);
        break;
    case FOUNDATIONS: {
        int level = foundations_level(p, &g);
        int shortest = level == current_level(p, p->side) ? longest_on_level(p, p->side, level) : MIN_LEN;
        n = placements(p, &g, level, shortest, out);
        break;
    }
    case HARI: {
        int shortest = longest_played(p, p->side);
        for (int len = shortest < MIN_LEN ? MIN_LEN : shortest; len <= MAX_LEN; len++)
            if (p->hand[p->side][len] > 0) {      /* a discard is always possible */
                memset(&out[n], 0, sizeof out[n]);
                out[n].kind = MOVE_DISCARD;
                out[n].length = len;
                n++;
            }
        if (n > 0)
            n += placements(p, &g, 1, shortest, out + n);
        break;
    }
    }
    return n > 0 ? n : pass_only(out);
}

/* ---- playing a move -------------------------------------------------------------------------- */

/* The turn passes on after every move, passes included; a player who has passed is skipped while
 * the other still moves (SPEC 2). ISAAC: two passes end the placement phase, and the first
 * passer starts the scoring phase (which is who the turn passes to after the second pass). */
static void end_turn(Position *q, int mover, int passed)
{
    int other = 1 - mover;
    if (passed)
        q->passed[q->npassed++] = mover;
    q->side = has_passed(q, other) && !passed ? mover : other;
    if (q->game == ISAAC && q->phase == PLACE_PHASE && q->npassed == 2) {
        q->phase = SCORE_PHASE;
        q->npassed = 0;
    }
}

static void add_piece(Position *q, int colour, int lo, int hi, int level)
{
    Piece *n = &q->piece[q->npieces++];
    n->lo = lo;
    n->hi = hi;
    n->owner = colour;
    n->level = level;
    q->hand[colour][segment_length(lo, hi)]--;
}

static void remove_piece(Position *q, int i) { q->piece[i] = q->piece[--q->npieces]; }

static int find_piece(const Position *p, int lo, int hi)
{
    for (int i = 0; i < p->npieces; i++)
        if (p->piece[i].lo == lo && p->piece[i].hi == hi && p->piece[i].level == 1)
            return i;
    return -1;
}

static int no_piece(int lo, int hi, char *why)
{
    char seg[5];
    segment_name(lo, hi, seg);
    snprintf(why, WHY_LEN, "no piece lies on %s", seg);
    return 0;
}

static int need_hand(const Position *p, int len, char *why)
{
    if (p->hand[p->side][len] > 0)
        return 1;
    snprintf(why, WHY_LEN, "you have no piece of length %d in hand", len);
    return 0;
}

static int isaac_move(const Position *p, const Grid *g, const Move *m, Position *q, char *why)
{
    char seg[5];
    if (p->phase == PLACE_PHASE) {
        if (m->kind == MOVE_REMOVE) {
            snprintf(why, WHY_LEN, "pieces are removed in the scoring phase; this is the placement phase");
            return 0;
        }
        if (!need_hand(p, segment_length(m->lo, m->hi), why) || !cells_free(p, g, p->side, m->lo, m->hi, 1, why))
            return 0;
        add_piece(q, p->side, m->lo, m->hi, 1);
        return 1;
    }
    if (m->kind == MOVE_PLACE) {
        snprintf(why, WHY_LEN, "the placement phase is over: remove one of your pieces (x<segment>:<score>)");
        return 0;
    }
    int i = find_piece(p, m->lo, m->hi);
    if (i < 0)
        return no_piece(m->lo, m->hi, why);
    if (!removable(p, i, why))
        return 0;
    int e = earned(p, i), s = p->score[p->side];
    if (!score_allowed(p, e, m->score)) {
        segment_name(m->lo, m->hi, seg);
        if (m->score >= s && m->score <= s + e && m->score <= 99)
            snprintf(why, WHY_LEN, "score %d would put your counter on your opponent's", m->score);
        else
            snprintf(why, WHY_LEN, "score %d out of range %d..%d: removing %s earns %d from %d%s", m->score,
                     s, s + e > 99 ? 99 : s + e, seg, e, s, s + e >= 100 ? " (or exactly the sum)" : "");
        return 0;
    }
    remove_piece(q, i);
    q->score[p->side] = m->score;
    return 1;
}

static int foundations_move(const Position *p, const Grid *g, const Move *m, Position *q, char *why)
{
    int cur = current_level(p, p->side), len = segment_length(m->lo, m->hi), k = m->level;
    int open = foundations_level(p, g), last = longest_on_level(p, p->side, cur);
    if (k < cur) {
        snprintf(why, WHY_LEN, "level %d is below your current level %d: you never go back down", k, cur);
        return 0;
    }
    if (k > cur + 1) {
        snprintf(why, WHY_LEN, "level %d skips a level: your current level is %d", k, cur);
        return 0;
    }
    if (k == cur + 1 && open == cur) {
        snprintf(why, WHY_LEN, "you must place on level %d while you can", cur);
        return 0;
    }
    if (!need_hand(p, len, why))
        return 0;
    if (k == cur && len < last) {
        snprintf(why, WHY_LEN, "length %d is shorter than your last piece on this level (%d)", len, last);
        return 0;
    }
    if (!cells_free(p, g, p->side, m->lo, m->hi, k, why))
        return 0;
    add_piece(q, p->side, m->lo, m->hi, k);
    return 1;
}

/* Cells from `from` (excluded) toward the board's edge along a line of step `step` (1 or 10). */
static int clear_to_edge(const Grid *g, int from, int step, int dir, int *blocked)
{
    int c = from;
    for (;;) {
        int along = step == 1 ? c % 10 : c / 10;
        if ((dir < 0 && along == 0) || (dir > 0 && along == 9))
            return 1;
        c += dir * step;
        if (g->at[1][c] >= 0) {
            *blocked = c;
            return 0;
        }
    }
}

/* One HARI slide on q (already holding the earlier slides of this turn). */
static int hari_slide(const Position *p, Position *q, const Slide *s, int *moved, int *slid_value, char *why)
{
    char name[3], from[5], to[5];
    int lo = s->lo, hi = s->hi, step = segment_step(lo, hi), len = segment_length(lo, hi), blocked = -1;
    segment_name(lo, hi, from);
    if (s->to_lo >= 0)
        segment_name(s->to_lo, s->to_hi, to);
    else
        strcpy(to, "off");
    int i = find_piece(p, lo, hi);               /* named by where it was when the turn started */
    if (i < 0)
        return no_piece(lo, hi, why);
    if (p->piece[i].owner != p->side) {
        snprintf(why, WHY_LEN, "slide %s>%s: %s is %s's piece, not yours", from, to, from, COLOUR[p->piece[i].owner]);
        return 0;
    }
    if (moved[i]) {
        snprintf(why, WHY_LEN, "slide %s>%s: %s has already slid this turn (once per turn)", from, to, from);
        return 0;
    }
    Grid g;
    build_grid(q, &g);
    Piece *piece = &q->piece[i];                 /* same index: q is p's copy, pieces leave at the end */
    if (s->to_lo < 0) {                          /* off the board, toward either edge */
        int low_block = -1;
        if (!clear_to_edge(&g, lo, step, -1, &low_block) && !clear_to_edge(&g, hi, step, +1, &blocked)) {
            cell_name(blocked, name);
            snprintf(why, WHY_LEN, "slide %s>off is blocked both ways (at %s toward the high edge)", from, name);
            return 0;
        }
        piece->level = 0;                        /* out of the game; removed after the play */
    } else {
        int same_line = step == 1 ? s->to_lo / 10 == lo / 10 && segment_step(s->to_lo, s->to_hi) == 1
                                  : s->to_lo % 10 == lo % 10 && segment_step(s->to_lo, s->to_hi) == 10;
        if (!same_line || segment_length(s->to_lo, s->to_hi) != len || s->to_lo == lo) {
            snprintf(why, WHY_LEN, "slide %s>%s: a piece slides at least one cell along its own line", from, to);
            return 0;
        }
        int first = s->to_lo < lo ? s->to_lo : hi + step, last = s->to_lo < lo ? lo - step : s->to_hi;
        for (int c = first; c <= last; c += step)
            if (g.at[1][c] >= 0) {
                cell_name(c, name);
                snprintf(why, WHY_LEN, "slide %s>%s is blocked at %s", from, to, name);
                return 0;
            }
        piece->lo = s->to_lo;
        piece->hi = s->to_hi;
    }
    moved[i] = 1;
    *slid_value += VALUE[len];
    return 1;
}

static int hari_move(const Position *p, const Move *m, Position *q, char *why)
{
    int moved[MAX_PIECES] = {0}, slid_value = 0;
    for (int k = 0; k < m->nslides; k++)
        if (!hari_slide(p, q, &m->slide[k], moved, &slid_value, why))
            return 0;
    int len = m->kind == MOVE_DISCARD ? m->length : segment_length(m->lo, m->hi);
    int shortest = longest_played(p, p->side);
    if (!need_hand(p, len, why))
        return 0;
    if (len < shortest) {
        snprintf(why, WHY_LEN, "length %d is shorter than a piece you played before (%d): plays never get "
                 "shorter", len, shortest);
        return 0;
    }
    if (VALUE[len] < slid_value) {
        snprintf(why, WHY_LEN, "slid value sum %d exceeds the played piece's value %d", slid_value, VALUE[len]);
        return 0;
    }
    for (int i = q->npieces - 1; i >= 0; i--)    /* pieces slid off leave the game */
        if (q->piece[i].level == 0)
            remove_piece(q, i);
    if (m->kind == MOVE_DISCARD) {
        q->hand[p->side][len]--;
        return 1;
    }
    Grid g;
    build_grid(q, &g);
    if (!cells_free(q, &g, p->side, m->lo, m->hi, 1, why))
        return 0;
    add_piece(q, p->side, m->lo, m->hi, 1);
    return 1;
}

/* Does the side to move have anything but pass? (SPEC 2: pass only when nothing else is legal.) */
static int can_move(const Position *p, const Grid *g)
{
    if (p->game == ISAAC)
        return p->phase == PLACE_PHASE ? placements(p, g, 1, MIN_LEN, NULL) > 0 : removals(p, NULL) > 0;
    if (p->game == FOUNDATIONS) {
        int level = foundations_level(p, g);
        int shortest = level == current_level(p, p->side) ? longest_on_level(p, p->side, level) : MIN_LEN;
        return placements(p, g, level, shortest, NULL) > 0;
    }
    for (int len = longest_played(p, p->side); len <= MAX_LEN; len++)   /* HARI: a playable piece */
        if (len >= MIN_LEN && p->hand[p->side][len] > 0)
            return 1;
    return 0;
}

/* The kinds of move each game knows (pass aside). */
static int kind_belongs(enum Game game, MoveKind kind)
{
    if (game == ISAAC)
        return kind == MOVE_PLACE || kind == MOVE_REMOVE;
    if (game == FOUNDATIONS)
        return kind == MOVE_PLACE;
    return kind == MOVE_PLACE || kind == MOVE_DISCARD;
}

int make_move(const Position *p, const Move *m, Position *next, char *why)
{
    Position q = *p;
    Grid g;
    if (is_over(p)) {
        snprintf(why, WHY_LEN, "the game is over");
        return 0;
    }
    build_grid(p, &g);
    if (m->kind == MOVE_PASS) {
        if (can_move(p, &g)) {
            snprintf(why, WHY_LEN, "you may pass only when no other move is legal");
            return 0;
        }
        end_turn(&q, p->side, 1);
        *next = q;
        return 1;
    }
    /* Any other move: the game's checks below are complete, so a move they accept is legal (and
     * when only pass is legal, they name the rule the move breaks). */
    if (!kind_belongs(p->game, m->kind) || (m->nslides > 0 && p->game != HARI)) {
        snprintf(why, WHY_LEN, "this kind of move belongs to another game");
        return 0;
    }
    int ok = p->game == ISAAC         ? isaac_move(p, &g, m, &q, why)
             : p->game == FOUNDATIONS ? foundations_move(p, &g, m, &q, why)
                                      : hari_move(p, m, &q, why);
    if (!ok)
        return 0;
    end_turn(&q, p->side, 0);
    *next = q;
    return 1;
}

/* ---- results ------------------------------------------------------------------------------------ */

static int value_in_hand(const Position *p, int colour)
{
    int v = 0;
    for (int len = MIN_LEN; len <= MAX_LEN; len++)
        v += p->hand[colour][len] * VALUE[len];
    return v;
}

static int value_on_board(const Position *p, int colour, int level)   /* level 0: every level */
{
    int v = 0;
    for (int i = 0; i < p->npieces; i++)
        if (p->piece[i].owner == colour && (level == 0 || p->piece[i].level == level))
            v += VALUE[segment_length(p->piece[i].lo, p->piece[i].hi)];
    return v;
}

/* The result of a finished game, "1-0 (why)", as SPEC 3-5 decide it. */
void describe_result(const Position *p, char *out, size_t size)
{
    int d, l, winner = -1;
    const char *why = "";
    char detail[128] = "";
    if (p->game == ISAAC) {
        d = p->score[DARK];
        l = p->score[LIGHT];
        if (d != l) {
            winner = d > l ? DARK : LIGHT;
            why = "has the higher score";
        } else {                                 /* the longer line of unplayed pieces; then Dark */
            int cells[2] = {0, 0}, count[2] = {0, 0};
            for (int c = DARK; c <= LIGHT; c++)
                for (int len = MIN_LEN; len <= MAX_LEN; len++) {
                    cells[c] += len * p->hand[c][len];
                    count[c] += p->hand[c][len];
                }
            if (cells[DARK] != cells[LIGHT])
                winner = cells[DARK] > cells[LIGHT] ? DARK : LIGHT;     /* more cells: longer */
            else if (count[DARK] != count[LIGHT])
                winner = count[DARK] < count[LIGHT] ? DARK : LIGHT;     /* fewer pieces: longer */
            else
                winner = DARK;
            why = "wins the tie on the longer line of unplayed pieces";
        }
    } else if (p->game == FOUNDATIONS) {
        d = value_in_hand(p, DARK);
        l = value_in_hand(p, LIGHT);
        if (d != l) {
            winner = d < l ? DARK : LIGHT;
            why = "has the lower value in hand";
        } else {                                 /* fewer points on the highest level, then down */
            for (int level = MAX_LEVEL; level >= 1 && winner < 0; level--) {
                int a = value_on_board(p, DARK, level), b = value_on_board(p, LIGHT, level);
                if (a != b) {
                    winner = a < b ? DARK : LIGHT;
                    snprintf(detail, sizeof detail, " (%d-%d on level %d)", a, b, level);
                }
            }
            why = "has fewer points on the highest level where they differ";
        }
    } else {
        d = value_on_board(p, DARK, 0);
        l = value_on_board(p, LIGHT, 0);
        if (d != l)
            winner = d > l ? DARK : LIGHT;
        why = "has the higher value on the board";
    }
    if (winner < 0)
        snprintf(out, size, "1/2-1/2 (draw, %d-%d)", d, l);
    else
        snprintf(out, size, "%s (%s %s, %d-%d%s)", winner == DARK ? "1-0" : "0-1", COLOUR[winner], why, d, l,
                 detail);
}

/* ---- positions that cannot exist ------------------------------------------------------------------ */

/* The checks of SPEC 7 "Validation" that any position string must pass. (SPEC 7 lists further
 * checks of what cannot arise from the start, such as turn order; a referee only sends positions
 * that arose, so this starter leaves those out.) */
int check_position(const Position *p, char *why)
{
    Grid g;
    char name[3];
    for (int colour = DARK; colour <= LIGHT; colour++)
        for (int len = MIN_LEN; len <= MAX_LEN; len++) {
            int n = p->hand[colour][len] + owned_on_board(p, colour, len);
            if (n > SET_COUNT[len]) {
                snprintf(why, WHY_LEN, "%s has %d pieces of length %d; a set has %d", COLOUR[colour], n, len,
                         SET_COUNT[len]);
                return 0;
            }
            if (p->game == ISAAC && p->phase == PLACE_PHASE && n != SET_COUNT[len]) {
                snprintf(why, WHY_LEN, "no piece leaves the game in the placement phase, but %s lacks a "
                         "piece of length %d", COLOUR[colour], len);
                return 0;
            }
        }
    memset(g.at, -1, sizeof g.at);
    for (int i = 0; i < p->npieces; i++) {
        const Piece *q = &p->piece[i];
        for (int c = q->lo; c <= q->hi; c += segment_step(q->lo, q->hi)) {
            if (g.at[q->level][c] >= 0) {
                cell_name(c, name);
                snprintf(why, WHY_LEN, "two pieces on cell %s (level %d)", name, q->level);
                return 0;
            }
            g.at[q->level][c] = (signed char)i;
        }
    }
    for (int i = 0; i < p->npieces; i++) {        /* FOUNDATIONS: every upper piece rests properly */
        const Piece *q = &p->piece[i];
        if (q->level < 2)
            continue;
        int a = g.at[q->level - 1][q->lo], b = g.at[q->level - 1][q->hi];
        if (a < 0 || b < 0 || a == b || p->piece[a].owner != q->owner || p->piece[b].owner != q->owner) {
            char seg[5];
            segment_name(q->lo, q->hi, seg);
            snprintf(why, WHY_LEN, "%s^%d does not rest on two different %s pieces of level %d", seg, q->level,
                     COLOUR[q->owner], q->level - 1);
            return 0;
        }
    }
    if (p->npassed == 1 && p->passed[0] == p->side) {
        snprintf(why, WHY_LEN, "%s has passed, so it cannot be to move while %s still moves", COLOUR[p->side],
                 COLOUR[1 - p->side]);
        return 0;
    }
    if (p->game == ISAAC) {
        if (p->phase == PLACE_PHASE && (p->score[DARK] || p->score[LIGHT])) {
            snprintf(why, WHY_LEN, "scores are 0/0 in the placement phase");
            return 0;
        }
        if (p->phase == PLACE_PHASE && p->npassed == 2) {
            snprintf(why, WHY_LEN, "both have passed, so the placement phase is over (phase score)");
            return 0;
        }
        if (p->score[DARK] >= 100 && p->score[LIGHT] >= 100) {
            snprintf(why, WHY_LEN, "only one score can reach 100");
            return 0;
        }
        int cd = counter_cell(DARK, p->score[DARK]);
        if (cd >= 0 && cd == counter_cell(LIGHT, p->score[LIGHT])) {
            snprintf(why, WHY_LEN, "both counters on one cell");
            return 0;
        }
    }
    return 1;
}
