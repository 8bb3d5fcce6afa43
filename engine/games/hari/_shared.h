/* What HARI's two C cores share: each segment's slide paths (the ends a piece may slide to along its
 * line, and the cells each step needs empty, as protocol.games.hari.rules' paths), the starts of the
 * placements that cover a cell of a segment, and the position's common part: the questions asked of it
 * and its reading from Python.
 *
 * HARI has two C models of a position, for two different jobs, written where each is: the search core's
 * (_search_core.c) keeps each side's pieces in the rules' order and a Zobrist key, moved by push and pop
 * for its alpha-beta and transposition table, its moves at most one slide (the search's candidates); the
 * playout core's (_playout_core.c) plays forward on a copy per playout, pieces in no order, no key, its
 * moves up to three slides. What they share of HARI is here, and the board in engine/games/_board.h.
 *
 * The functions below the tables read the fields both models have (pieces, npieces, own, hand, minlen,
 * turn, npasses, passes, board_value): a core includes this part after its Pos and its add_piece,
 * with HARI_POSITION defined.
 */
#ifndef HARI_SHARED_H
#define HARI_SHARED_H

#include "_board.h"

static int LOW_N[NSEG], HIGH_N[NSEG];
static int LOW_END[NSEG][10], HIGH_END[NSEG][10];   /* ends toward the low edge (nearest first), the high edge */
static int LOW_CELL[NSEG][10], HIGH_CELL[NSEG][10]; /* the cell each of those steps needs empty */
static u128 COVER_H[8][NSEG], COVER_V[8][NSEG];     /* starts of length-n runs covering a cell of the segment */

/* The tables above, once the segments are built (build_segments). */
static void build_slide_tables(void) {
    for (int i = 0; i < NSEG; i++) {
        const Seg *s = &SEG[i];
        int step = s->horizontal ? 1 : 10, pos = s->horizontal ? s->lo % 10 : s->lo / 10;
        const int *same = s->horizontal ? H_SEG[s->length] : V_SEG[s->length]; /* this length and direction */
        LOW_N[i] = 0;
        for (int d = 1; d <= pos; d++) {
            LOW_END[i][LOW_N[i]] = same[s->lo - step * d];
            LOW_CELL[i][LOW_N[i]++] = s->lo - step * d;
        }
        HIGH_N[i] = 0;
        for (int d = 1; d <= 10 - (pos + s->length); d++) {
            HIGH_END[i][HIGH_N[i]] = same[s->lo + step * d];
            HIGH_CELL[i][HIGH_N[i]++] = s->hi + step * d;
        }
        for (int n = 3; n <= 7; n++) {
            u128 ch = 0, cv = 0;
            for (int j = 0; j < n; j++) { ch |= s->mask >> j; cv |= s->mask >> (10 * j); }
            COVER_H[n][i] = ch & H_START[n];
            COVER_V[n][i] = cv & V_START[n];
        }
    }
}

/* The ends a piece on `seg` may slide to through `occupied` cells (protocol.games.hari.rules.slide_ends):
 * on-board ends nearest first toward the low edge, then the high edge, then -1 if it can leave the
 * board. The count. */
static int slide_ends(int seg, u128 occupied, int *out) {
    int k = 0, leaves = 0, j;
    for (j = 0; j < LOW_N[seg] && !(occupied & BIT(LOW_CELL[seg][j])); j++) out[k++] = LOW_END[seg][j];
    if (j == LOW_N[seg]) leaves = 1;
    for (j = 0; j < HIGH_N[seg] && !(occupied & BIT(HIGH_CELL[seg][j])); j++) out[k++] = HIGH_END[seg][j];
    if (j == HIGH_N[seg]) leaves = 1;
    if (leaves) out[k++] = -1;
    return k;
}

#endif

#if defined(HARI_POSITION) && !defined(HARI_SHARED_POSITION_H)
#define HARI_SHARED_POSITION_H

static inline int is_over(const Pos *p) { return p->npasses == 2; }

static inline int has_passed(const Pos *p, int color) {
    for (int i = 0; i < p->npasses; i++)
        if (p->passes[i] == color) return 1;
    return 0;
}

static inline u128 empty_cells(const Pos *p) { return ALL & ~(p->own[0] | p->own[1]); }

/* Ascending lengths `color` may still play (in hand, not shorter than its longest play). */
static int playable(const Pos *p, int color, int *out) {
    int k = 0;
    for (int n = 3; n <= 7; n++)
        if (p->hand[color][n] && n >= p->minlen[color]) out[k++] = n;
    return k;
}

/* position: (pieces0, pieces1, hand0, hand1, min0, min1, turn, passes), as playout_core.position_tuple
 * gives it. 0, or -1 with a TypeError or ValueError. */
static int read_position(PyObject *position, Pos *p) {
    PyObject *pc[2], *hd[2], *passes;
    int mn[2], turn;
    if (require_tuple(position, "position") < 0) return -1;
    if (!PyArg_ParseTuple(position, "OOOOiiiO", &pc[0], &pc[1], &hd[0], &hd[1], &mn[0], &mn[1], &turn, &passes))
        return -1;
    memset(p, 0, sizeof(*p));
    u128 occupied = 0;
    for (int c = 0; c < 2; c++) {
        int segs[MAXPIECES], ns = read_side(hd[c], pc[c], p->hand[c], segs, MAXPIECES, &occupied);
        if (ns < 0) return -1;
        for (int i = 0; i < ns; i++) add_piece(p, c, segs[i]);
        if (mn[c] < 0 || mn[c] > 7) { PyErr_SetString(PyExc_ValueError, "a minimum length is 0 to 7"); return -1; }
        p->minlen[c] = mn[c];
    }
    if (turn != 0 && turn != 1) { PyErr_SetString(PyExc_ValueError, "the turn is 0 or 1"); return -1; }
    p->turn = turn;
    p->npasses = read_passes(passes, p->passes, "a player passes once");
    return p->npasses < 0 ? -1 : 0;
}

#endif
