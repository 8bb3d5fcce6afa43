/* FOUNDATIONS' one model of a position in C, for both of its cores: the search core (_search_core.c: the
 * search's leaves, ordering and tree) and the playout core (_playout_core.c: `fastmc`'s playouts).
 *
 * A private model for speed, not a rulebook: the moves a core answers are vetted by the rules
 * (protocol/games/foundations/rules.py, check_move), and the tests replay the cores' playouts on
 * FoundationsGame (every move legal, the same end). It follows protocol/games/foundations/scratch.py
 * and bits.py: levels 1 to 8, each side's pieces by level, the cells each level uses.
 */
#ifndef FOUNDATIONS_POSITION_H
#define FOUNDATIONS_POSITION_H

#include "_board.h"

#define SLOTS 10       /* levels 1..8, plus one always-empty level above (protocol/games/foundations/rules.py) */
#define MAX_LEVEL 8
#define MAXPIECES 15   /* one player's whole set */

typedef struct {
    int turn, npasses, passes[2], top;
    int hand[2][8], level[2], minlen[2];
    int npieces[2][SLOTS];
    int pieces[2][SLOTS][MAXPIECES];
    u128 occ[SLOTS], own[2][SLOTS];
} Pos;

static u128 SAME[NSEG][8]; /* bits.SAME: starts of length-n runs with both ends on the segment */

/* The segments (_board.h) and SAME. */
static void build_tables(void) {
    build_segments();
    for (int i = 0; i < NSEG; i++) {
        int step = SEG[i].horizontal ? 1 : 10;
        for (int n = 0; n < 8; n++)
            SAME[i][n] = (n >= 3 && n <= SEG[i].length) ? SEG[i].mask & (SEG[i].mask >> (step * (n - 1))) : 0;
    }
}

static inline int is_over(const Pos *p) { return p->npasses == 2; }

static inline int has_passed(const Pos *p, int color) {
    for (int i = 0; i < p->npasses; i++)
        if (p->passes[i] == color) return 1;
    return 0;
}

/* Cells a piece may use on `level`: empty there and under no piece of a higher level. */
static inline u128 free_cells(const Pos *p, int level) {
    u128 blocked = p->occ[level];
    for (int j = level + 1; j <= p->top; j++) blocked |= p->occ[j];
    return ALL & ~blocked;
}

static inline int buildable(const Pos *p, int color, int level) {
    return level <= MAX_LEVEL && (level == 1 || p->npieces[color][level - 1] >= 2);
}

/* Start cells of `color`'s legal length-n placements on a buildable `level` whose free cells are `free`
 * (FoundationsScratch.starts): on level 1 any run of free cells; above (bits.upper_starts), both ends on
 * own pieces of the level below, two different ones, every cell free (SPEC 4). */
static void starts(const Pos *p, int color, int level, int n, u128 free, u128 *ph, u128 *pv) {
    if (level == 1) { placement_starts(free, n, ph, pv); return; }
    u128 ends = free & p->own[color][level - 1];
    int d = n - 1;
    u128 h = ends & (ends >> d) & H_START[n], v = ends & (ends >> (10 * d)) & V_START[n];
    for (int j = 1; j < d && (h || v); j++) { h &= free >> j; v &= free >> (10 * j); }
    if (h || v) {
        const int *below = p->pieces[color][level - 1];
        for (int i = 0; i < p->npieces[color][level - 1]; i++) {
            const Seg *s = &SEG[below[i]];
            if (s->length < n) continue;
            if (s->horizontal) h &= ~SAME[below[i]][n];
            else v &= ~SAME[below[i]][n];
        }
    }
    *ph = h;
    *pv = v;
}

/* The side to move places `seg` on `level`; the opponent moves next unless it has passed. */
static void place(Pos *p, int seg, int level) {
    int color = p->turn;
    p->occ[level] |= SEG[seg].mask;
    p->own[color][level] |= SEG[seg].mask;
    p->pieces[color][level][p->npieces[color][level]++] = seg;
    p->hand[color][SEG[seg].length]--;
    p->level[color] = level;
    p->minlen[color] = SEG[seg].length;
    if (level > p->top) p->top = level;
    if (!has_passed(p, 1 - color)) p->turn = 1 - color;
}

static void pass_turn(Pos *p) {
    p->passes[p->npasses++] = p->turn;
    p->turn = 1 - p->turn;
}

static int hand_value(const Pos *p, int color) {
    int v = 0;
    for (int n = 3; n <= 7; n++) v += VALUE[n] * p->hand[color][n];
    return v;
}

/* FoundationsScratch.winner: lower hand value, then fewer points on the highest level whose points
 * differ; -1 for a draw. */
static int winner(const Pos *p) {
    int dark = hand_value(p, 0), light = hand_value(p, 1);
    if (dark != light) return dark < light ? 0 : 1;
    for (int k = p->top; k >= 1; k--) {
        int pts[2] = {0, 0};
        for (int c = 0; c < 2; c++)
            for (int i = 0; i < p->npieces[c][k]; i++) pts[c] += SEG[p->pieces[c][k][i]].value;
        if (pts[0] != pts[1]) return pts[0] < pts[1] ? 0 : 1;
    }
    return -1;
}

/* position: (turn, passes, hand0, hand1, pieces0, pieces1, level0, level1, minlen0, minlen1), pieces as
 * [segment index * 16 + level] (playout_core.position_tuple). 0, or -1 with a TypeError or ValueError. */
static int read_position(PyObject *position, Pos *p) {
    PyObject *passes, *hd[2], *pc[2];
    int turn, lv[2], mn[2];
    if (require_tuple(position, "position") < 0) return -1;
    if (!PyArg_ParseTuple(position, "iOOOOOiiii", &turn, &passes, &hd[0], &hd[1], &pc[0], &pc[1], &lv[0], &lv[1],
                          &mn[0], &mn[1]))
        return -1;
    memset(p, 0, sizeof(*p));
    if (turn != 0 && turn != 1) { PyErr_SetString(PyExc_ValueError, "the turn is 0 or 1"); return -1; }
    p->turn = turn;
    p->npasses = read_passes(passes, p->passes, "a player passes once");
    if (p->npasses < 0) return -1;
    p->top = 1;
    for (int c = 0; c < 2; c++) {
        if (read_hand(hd[c], p->hand[c]) < 0) return -1;
        if (lv[c] < 1 || lv[c] > MAX_LEVEL || mn[c] < 0 || mn[c] > 7) {
            PyErr_Format(PyExc_ValueError, "a level is 1 to %d and a minimum length 0 to 7", MAX_LEVEL);
            return -1;
        }
        p->level[c] = lv[c];
        p->minlen[c] = mn[c];
        int codes[MAXPIECES], count = read_ints(pc[c], codes, MAXPIECES, "pieces");
        if (count < 0) return -1; /* not a list of ints, or more pieces than a set */
        int on[8] = {0};
        for (int i = 0; i < count; i++) {
            int s = codes[i] >> 4, k = codes[i] & 15;
            if (codes[i] < 0 || s >= NSEG || k < 1 || k > MAX_LEVEL) {
                PyErr_Format(PyExc_ValueError, "a piece is segment index (0 to %d) x 16 + level (1 to %d)", NSEG - 1,
                             MAX_LEVEL);
                return -1;
            }
            if (p->occ[k] & SEG[s].mask) { PyErr_SetString(PyExc_ValueError, "pieces overlap on a level"); return -1; }
            p->pieces[c][k][p->npieces[c][k]++] = s;
            p->occ[k] |= SEG[s].mask;
            p->own[c][k] |= SEG[s].mask;
            if (k > p->top) p->top = k;
            on[SEG[s].length]++;
        }
        for (int n = 3; n <= 7; n++)
            if (on[n] + p->hand[c][n] != SET_COUNT[n]) {
                PyErr_Format(PyExc_ValueError, "%d pieces of length %d on the board and in hand: a set has %d",
                             on[n] + p->hand[c][n], n, SET_COUNT[n]);
                return -1;
            }
    }
    return 0;
}

#endif
