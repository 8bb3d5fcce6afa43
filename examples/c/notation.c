/* notation.c: moves and position strings as text (SPEC.md sections 6 and 7).
 *
 * Reading is strict: a fault is reported with what was expected and its offset in the text, and
 * nothing is half-read. Writing is canonical for every move this engine plays (it never slides).
 */
#include "isaac.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cell_name(int cell, char *out)
{
    out[0] = (char)('a' + cell % 10);            /* file */
    out[1] = (char)('0' + cell / 10);            /* rank */
    out[2] = '\0';
}

/* A reader over one piece of text: s[0..len), at offset i. On a fault it writes why and *at. */
typedef struct {
    const char *s;
    int len, i;
    char *why;
    int *at;
} Reader;

static int fail(Reader *r, int at, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    vsnprintf(r->why, WHY_LEN, fmt, args);
    va_end(args);
    *r->at = at;
    return 0;
}

static int peek(const Reader *r) { return r->i < r->len ? (unsigned char)r->s[r->i] : -1; }

static int read_cell(Reader *r, int *cell)
{
    if (r->i + 1 >= r->len || r->s[r->i] < 'a' || r->s[r->i] > 'j' || r->s[r->i + 1] < '0' || r->s[r->i + 1] > '9')
        return fail(r, r->i, "expected a cell (a0..j9)");
    *cell = (r->s[r->i + 1] - '0') * 10 + (r->s[r->i] - 'a');
    r->i += 2;
    return 1;
}

/* A segment: two end cells in either order; the lower one is kept first. */
static int read_segment(Reader *r, int *lo, int *hi)
{
    int start = r->i, a, b;
    if (!read_cell(r, &a) || !read_cell(r, &b))
        return 0;
    if (!segment_ok(a, b))
        return fail(r, start, "'%.4s' is not a piece: its ends must lie on one row or column, 3 to 7 cells "
                    "long counting both ends", r->s + start);
    *lo = a < b ? a : b;
    *hi = a < b ? b : a;
    return 1;
}

/* A whole number of at most `digits` ASCII digits. */
static int read_number(Reader *r, int digits, int *value)
{
    int start = r->i;
    *value = 0;
    while (peek(r) >= '0' && peek(r) <= '9') {
        if (r->i - start == digits)
            return fail(r, start, "number too long (at most %d digits)", digits);
        *value = *value * 10 + (r->s[r->i++] - '0');
    }
    return r->i > start ? 1 : fail(r, start, "expected a number");
}

static int expect(Reader *r, char c, const char *what)
{
    if (peek(r) != (unsigned char)c)
        return fail(r, r->i, "expected %s", what);
    r->i++;
    return 1;
}

static int at_end(Reader *r, const char *what)
{
    return r->i == r->len ? 1 : fail(r, r->i, "expected %s", what);
}

/* ---- moves ------------------------------------------------------------------------------- */

static int read_hari(Reader *r, Move *m)
{
    for (;;) {
        int lo, hi, to_lo, to_hi;
        if (peek(r) == 'x') {                    /* the play: a discard, x and a length */
            r->i++;
            int len = peek(r) - '0';
            if (len < MIN_LEN || len > MAX_LEN)
                return fail(r, r->i, "expected a length 3..7 after 'x'");
            r->i++;
            m->kind = MOVE_DISCARD;
            m->length = len;
            return at_end(r, "the end of the move after a discard");
        }
        if (!read_segment(r, &lo, &hi))
            return 0;
        if (peek(r) != '>') {                    /* the play: a placement */
            m->kind = MOVE_PLACE;
            m->lo = lo;
            m->hi = hi;
            m->level = 1;
            return at_end(r, "'>' or the end of the move");
        }
        r->i++;                                  /* a slide: segment>segment or segment>off */
        if (r->len - r->i >= 3 && strncmp(r->s + r->i, "off", 3) == 0) {
            r->i += 3;
            to_lo = to_hi = -1;
        } else if (peek(r) < 'a' || peek(r) > 'j') {
            return fail(r, r->i, "expected segment or 'off'");
        } else if (!read_segment(r, &to_lo, &to_hi)) {
            return 0;
        }
        if (m->nslides == MAX_SLIDES)
            return fail(r, r->i, "more slides than pieces (at most %d)", MAX_SLIDES);
        Slide *s = &m->slide[m->nslides++];
        s->lo = (signed char)lo;
        s->hi = (signed char)hi;
        s->to_lo = (signed char)to_lo;
        s->to_hi = (signed char)to_hi;
        if (!expect(r, ',', "',' and the next slide or the play"))
            return 0;
    }
}

int parse_move(enum Game game, const char *s, int len, Move *m, char *why, int *at)
{
    Reader r = {s, len, 0, why, at};
    *at = 0;
    memset(m, 0, sizeof *m);
    m->level = 1;
    if (len == 4 && strncmp(s, "pass", 4) == 0) {
        m->kind = MOVE_PASS;
        return 1;
    }
    if (game == HARI)
        return read_hari(&r, m);
    if (game == ISAAC && peek(&r) == 'x') {      /* a removal: x, the segment, ':', the new score */
        r.i++;
        m->kind = MOVE_REMOVE;
        return read_segment(&r, &m->lo, &m->hi) && expect(&r, ':', "':' and the new score")
               && read_number(&r, 4, &m->score) && at_end(&r, "the end of the move");
    }
    m->kind = MOVE_PLACE;
    if (!read_segment(&r, &m->lo, &m->hi))
        return 0;
    if (game == FOUNDATIONS && peek(&r) == '^') {   /* c3c7^2: on level 2; ^1 is level 1 */
        r.i++;
        int start = r.i;
        if (!read_number(&r, 2, &m->level))
            return 0;
        if (m->level < 1)
            return fail(&r, start, "levels start at 1");
    }
    return at_end(&r, game == FOUNDATIONS ? "'^' and a level, or the end of the move" : "the end of the move");
}

/* Canonical for every move legal_moves() lists; slides are written in the order they were given. */
void format_move(const Move *m, char *out, size_t size)
{
    char a[3], b[3];
    size_t n = 0;
    out[0] = '\0';
    for (int k = 0; k < m->nslides && n < size; k++) {
        const Slide *s = &m->slide[k];
        char c[3], d[3];
        cell_name(s->lo, a);
        cell_name(s->hi, b);
        if (s->to_lo < 0) {
            n += (size_t)snprintf(out + n, size - n, "%s%s>off,", a, b);
        } else {
            cell_name(s->to_lo, c);
            cell_name(s->to_hi, d);
            n += (size_t)snprintf(out + n, size - n, "%s%s>%s%s,", a, b, c, d);
        }
    }
    if (n >= size)
        return;
    cell_name(m->lo, a);
    cell_name(m->hi, b);
    switch (m->kind) {
    case MOVE_PASS:
        snprintf(out + n, size - n, "pass");
        break;
    case MOVE_PLACE:
        if (m->level >= 2)
            snprintf(out + n, size - n, "%s%s^%d", a, b, m->level);
        else
            snprintf(out + n, size - n, "%s%s", a, b);
        break;
    case MOVE_REMOVE:
        snprintf(out + n, size - n, "x%s%s:%d", a, b, m->score);
        break;
    case MOVE_DISCARD:
        snprintf(out + n, size - n, "x%d", m->length);
        break;
    }
}

/* ---- position strings ----------------------------------------------------------------------- */

/* One colour's pieces: '-' or comma-separated segments (FOUNDATIONS: '^k' for level k >= 2). */
static int read_pieces(Reader *r, int stop, Position *p, int colour)
{
    if (peek(r) == '-') {
        r->i++;
        return 1;
    }
    for (;;) {
        Piece *q = &p->piece[p->npieces];
        if (p->npieces == MAX_PIECES)
            return fail(r, r->i, "more pieces than two sets hold");
        if (!read_segment(r, &q->lo, &q->hi))
            return 0;
        q->owner = colour;
        q->level = 1;
        if (p->game == FOUNDATIONS && peek(r) == '^') {
            r->i++;
            int start = r->i;
            if (!read_number(r, 2, &q->level))
                return 0;
            if (q->level < 1 || q->level > MAX_LEVEL)
                return fail(r, start, "expected a level 1..%d", MAX_LEVEL);
        }
        p->npieces++;
        if (peek(r) != ',')
            return peek(r) == stop ? 1 : fail(r, r->i, stop < 0 ? "expected ',' or the end of the field" : "expected ',' or '/'");
        r->i++;
    }
}

/* One colour's hand: '-' or the digits of the lengths in hand. */
static int read_hand(Reader *r, int stop, Position *p, int colour)
{
    if (peek(r) == '-') {
        r->i++;
    } else {
        do {
            int len = peek(r) - '0';
            if (len < MIN_LEN || len > MAX_LEN)
                return fail(r, r->i, "expected a length 3..7");
            if (p->hand[colour][len] == SET_COUNT[len])
                return fail(r, r->i, "more pieces of length %d than a set holds", len);
            p->hand[colour][len]++;
            r->i++;
        } while (peek(r) != stop && peek(r) != -1);
    }
    return peek(r) == stop ? 1 : fail(r, r->i, stop < 0 ? "expected the end of the field" : "expected '/'");
}

/* Fields: game, pieces, hands, side, passes (ISAAC adds phase and scores), each a Word. On a
 * fault *col is the column of the fault in the line the words came from. */
int parse_position(const Word *field, int nfields, Position *p, char *why, int *col)
{
    int at = 0, game = -1;
    Reader r = {"", 0, 0, why, &at};
    memset(p, 0, sizeof *p);
    for (int g = 0; g < 3; g++)
        if (field[0].len == (int)strlen(GAME_NAMES[g]) && strncmp(field[0].s, GAME_NAMES[g], field[0].len) == 0)
            game = g;
    *col = field[0].col;
    if (game < 0) {
        snprintf(why, WHY_LEN, "expected a game (isaac, foundations or hari)");
        return 0;
    }
    p->game = (enum Game)game;
    int want = game == ISAAC ? 7 : 5;
    if (nfields != want) {
        *col = field[nfields < want ? nfields - 1 : want].col;
        snprintf(why, WHY_LEN, "%s position strings have %d fields, not %d", GAME_NAMES[game], want, nfields);
        return 0;
    }
    int ok = 1;
    for (int f = 1; f < nfields && ok; f++) {
        r.s = field[f].s;
        r.len = field[f].len;
        r.i = 0;
        *col = field[f].col;
        switch (f) {
        case 1:
            ok = read_pieces(&r, '/', p, DARK) && expect(&r, '/', "'/'") && read_pieces(&r, -1, p, LIGHT);
            break;
        case 2:
            ok = read_hand(&r, '/', p, DARK) && expect(&r, '/', "'/'") && read_hand(&r, -1, p, LIGHT);
            break;
        case 3:
            ok = r.len == 1 && (r.s[0] == 'd' || r.s[0] == 'l');
            if (!ok)
                fail(&r, 0, "expected side to move (d or l)");
            p->side = r.s[0] == 'l' ? LIGHT : DARK;
            break;
        case 4:
            if (r.len == 1 && r.s[0] == '-')
                break;
            ok = (r.len == 1 || (r.len == 2 && r.s[0] != r.s[1])) && (r.s[0] == 'd' || r.s[0] == 'l')
                 && (r.s[r.len - 1] == 'd' || r.s[r.len - 1] == 'l');
            if (!ok)
                fail(&r, 0, "expected passes (-, d, l, dl or ld)");
            for (int k = 0; ok && k < r.len; k++)
                p->passed[p->npassed++] = r.s[k] == 'l' ? LIGHT : DARK;
            break;
        case 5:
            if (r.len == 5 && strncmp(r.s, "place", 5) == 0)
                p->phase = PLACE_PHASE;
            else if (r.len == 5 && strncmp(r.s, "score", 5) == 0)
                p->phase = SCORE_PHASE;
            else
                ok = fail(&r, 0, "expected phase (place or score)");
            break;
        case 6:
            ok = read_number(&r, 4, &p->score[DARK]) && expect(&r, '/', "'/'") && read_number(&r, 4, &p->score[LIGHT])
                 && at_end(&r, "the end of the scores");
            break;
        }
    }
    if (!ok) {
        *col += at;                              /* the fields are ASCII when they parse this far */
        return 0;
    }
    *col = field[0].col;
    return check_position(p, why);
}

static int piece_order(const void *x, const void *y)
{
    const Piece *a = x, *b = y;
    if (a->level != b->level)
        return a->level - b->level;
    return a->lo != b->lo ? a->lo - b->lo : a->hi - b->hi;
}

/* The canonical position string: pieces by level, then lower cell, then upper cell. */
void format_position(const Position *p, char *out, size_t size)
{
    Piece sorted[MAX_PIECES];
    size_t n = (size_t)snprintf(out, size, "%s ", GAME_NAMES[p->game]);
    memcpy(sorted, p->piece, sizeof sorted);
    qsort(sorted, (size_t)p->npieces, sizeof sorted[0], piece_order);
    for (int colour = DARK; colour <= LIGHT; colour++) {
        int any = 0;
        for (int i = 0; i < p->npieces && n < size; i++) {
            char a[3], b[3];
            if (sorted[i].owner != colour)
                continue;
            cell_name(sorted[i].lo, a);
            cell_name(sorted[i].hi, b);
            n += (size_t)snprintf(out + n, size - n, "%s%s%s", any ? "," : "", a, b);
            if (sorted[i].level >= 2 && n < size)
                n += (size_t)snprintf(out + n, size - n, "^%d", sorted[i].level);
            any = 1;
        }
        if (n < size)
            n += (size_t)snprintf(out + n, size - n, "%s%s", any ? "" : "-", colour == DARK ? "/" : " ");
    }
    for (int colour = DARK; colour <= LIGHT && n < size; colour++) {
        int any = 0;
        for (int len = MIN_LEN; len <= MAX_LEN; len++)
            for (int k = 0; k < p->hand[colour][len] && n < size; k++, any = 1)
                n += (size_t)snprintf(out + n, size - n, "%d", len);
        if (n < size)
            n += (size_t)snprintf(out + n, size - n, "%s%s", any ? "" : "-", colour == DARK ? "/" : " ");
    }
    if (n < size)
        n += (size_t)snprintf(out + n, size - n, "%c ", p->side == DARK ? 'd' : 'l');
    for (int k = 0; k < p->npassed && n < size; k++)
        n += (size_t)snprintf(out + n, size - n, "%c", p->passed[k] == DARK ? 'd' : 'l');
    if (n < size && p->npassed == 0)
        n += (size_t)snprintf(out + n, size - n, "-");
    if (n < size && p->game == ISAAC)
        snprintf(out + n, size - n, " %s %d/%d", p->phase == PLACE_PHASE ? "place" : "score", p->score[DARK],
                 p->score[LIGHT]);
}
