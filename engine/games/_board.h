/* The board of the ISAAC set, which the three games share, in C: the 600 segments, the values and the
 * counts of a set, the placements of a length in empty cells, and what every game's position holds
 * alike (hands, passes), read from Python. Included by every game's C core.
 *
 * Boards are 100-bit masks in an unsigned __int128 (engine/search/native/_common.h), bit c = cell c =
 * rank * 10 + file, as in protocol/board.py. Segment indices are protocol.board.SEGMENTS' (built in the
 * same order, checked by the tests through each module's segments()).
 */
#ifndef GAMES_BOARD_H
#define GAMES_BOARD_H

#include "_common.h"

#define NSEG 600

static const int VALUE[8] = {0, 0, 0, 1, 2, 3, 4, 6};
static const int SET_COUNT[8] = {0, 0, 0, 5, 4, 3, 2, 1};

typedef struct {
    int lo, hi, length, horizontal, value;
    u128 mask, nb; /* nb: the cells orthogonally next to the segment (engine/games/packing.NEIGHBOURS) */
} Seg;

static Seg SEG[NSEG];
static int H_SEG[8][100], V_SEG[8][100];
static u128 H_START[8], V_START[8];
static u128 ALL;

/* SEG, H_SEG, V_SEG, H_START, V_START, ALL and each segment's neighbours, in protocol.board's order. */
static void build_segments(void) {
    int k = 0;
    ALL = (((u128)1) << 100) - 1;
    for (int n = 3; n <= 7; n++) {
        H_START[n] = V_START[n] = 0;
        for (int c = 0; c < 100; c++) {
            H_SEG[n][c] = V_SEG[n][c] = -1;
            for (int horizontal = 1; horizontal >= 0; horizontal--) {
                if (horizontal ? (c % 10 + n > 10) : (c / 10 + n > 10)) continue;
                Seg *s = &SEG[k];
                int step = horizontal ? 1 : 10;
                s->lo = c;
                s->hi = c + step * (n - 1);
                s->length = n;
                s->horizontal = horizontal;
                s->value = VALUE[n];
                s->mask = 0;
                for (int j = 0; j < n; j++) s->mask |= BIT(c + step * j);
                if (horizontal) { H_SEG[n][c] = k; H_START[n] |= BIT(c); }
                else { V_SEG[n][c] = k; V_START[n] |= BIT(c); }
                k++;
            }
        }
    }
    for (int i = 0; i < NSEG; i++) {
        Seg *s = &SEG[i];
        int step = s->horizontal ? 1 : 10;
        u128 nb = 0;
        for (int j = 0; j < s->length; j++) {
            int c = s->lo + step * j, r = c / 10, f = c % 10;
            if (f > 0) nb |= BIT(c - 1);
            if (f < 9) nb |= BIT(c + 1);
            if (r > 0) nb |= BIT(c - 10);
            if (r < 9) nb |= BIT(c + 10);
        }
        s->nb = nb & ~s->mask;
    }
}

/* -- board geometry (protocol/board.py) ---------------------------------------------- */

static inline void placement_starts(u128 empty, int n, u128 *ph, u128 *pv) {
    u128 h = empty & (empty >> 1), v = empty & (empty >> 10);
    if (n == 3) { h &= empty >> 2; v &= empty >> 20; }
    else if (n == 4) { h &= h >> 2; v &= v >> 20; }
    else {
        u128 h4 = h & (h >> 2), v4 = v & (v >> 20);
        if (n == 5) { h = h4 & (empty >> 4); v = v4 & (empty >> 40); }
        else if (n == 6) { h = h4 & (h >> 4); v = v4 & (v >> 40); }
        else { h = h4 & (h4 >> 3); v = v4 & (v4 >> 30); }
    }
    *ph = h & H_START[n];
    *pv = v & V_START[n];
}

/* protocol.board.segments_from_starts: the segments of length n starting at the cells of h
 * (horizontal), then of v (vertical), lowest cell first. Returns the count. */
static inline int segments_from_starts(u128 h, u128 v, int n, int *out) {
    int k = 0;
    for (; h; h &= h - 1) out[k++] = H_SEG[n][lowbit(h)];
    for (; v; v &= v - 1) out[k++] = V_SEG[n][lowbit(v)];
    return k;
}

/* The k-th (0-based) segment of length n starting at a cell of h (horizontal, lowest first), then of v. */
static inline int seg_at(u128 h, u128 v, int n, int k) {
    int nh = popc(h);
    return k < nh ? H_SEG[n][nth_bit(h, k)] : V_SEG[n][nth_bit(v, k - nh)];
}

/* -- what every game's position holds alike, read from Python ----------------------------------- */

/* A hand: 8 counts by length, each at most what a set holds. 0, or -1 with a ValueError. */
static inline int read_hand(PyObject *seq, int *hand) {
    if (read_ints(seq, hand, 8, "hand") != 8) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a hand has 8 counts");
        return -1;
    }
    for (int n = 0; n < 8; n++)
        if (hand[n] < 0 || hand[n] > SET_COUNT[n]) {
            PyErr_Format(PyExc_ValueError, "a hand holds 0 to %d pieces of length %d", SET_COUNT[n], n);
            return -1;
        }
    return 0;
}

/* Who passed, in order: at most two passes, each by 0 or 1, a player once (`once`: the error's words).
 * The count, or -1 with a ValueError. */
static inline int read_passes(PyObject *seq, int *passes, const char *once) {
    int np = read_ints(seq, passes, 2, "passes");
    if (np < 0) return -1;
    for (int i = 0; i < np; i++)
        if (passes[i] != 0 && passes[i] != 1) { PyErr_SetString(PyExc_ValueError, "a passer is 0 or 1"); return -1; }
    if (np == 2 && passes[0] == passes[1]) { PyErr_SetString(PyExc_ValueError, once); return -1; }
    return np;
}

/* One side's pieces on one board: at most `max` segment indices into `segs`, none on a cell of *occupied
 * (which gains theirs), with `hand` at most a set. The count, or -1 with a ValueError. */
static inline int read_pieces(PyObject *seq, int *segs, int max, u128 *occupied, const int *hand) {
    int count = read_ints(seq, segs, max, "pieces"), on[8] = {0};
    if (count < 0) return -1;
    for (int i = 0; i < count; i++) {
        if (segs[i] < 0 || segs[i] >= NSEG) {
            PyErr_Format(PyExc_ValueError, "a piece is a segment index 0 to %d", NSEG - 1);
            return -1;
        }
        if (*occupied & SEG[segs[i]].mask) { PyErr_SetString(PyExc_ValueError, "pieces overlap"); return -1; }
        *occupied |= SEG[segs[i]].mask;
        on[SEG[segs[i]].length]++;
    }
    for (int n = 3; n <= 7; n++)
        if (on[n] + hand[n] > SET_COUNT[n]) {
            PyErr_Format(PyExc_ValueError, "more than %d pieces of length %d on the board and in hand",
                         SET_COUNT[n], n);
            return -1;
        }
    return count;
}

/* One side's hand and its pieces on the board (read_hand, then read_pieces against that hand): the count of
 * pieces in `segs`, or -1 with a ValueError. */
static inline int read_side(PyObject *hand_seq, PyObject *pieces_seq, int *hand, int *segs, int max, u128 *occupied) {
    if (read_hand(hand_seq, hand) < 0) return -1;
    return read_pieces(pieces_seq, segs, max, occupied, hand);
}

/* Two lists of n segments holding the same ones in any order: one side's pieces in two positions, as a
 * treemc tree kept between moves compares them to find the game's new position in it. */
static inline int same_segments(const int *a, const int *b, int n) {
    for (int i = 0; i < n; i++) {
        int found = 0;
        for (int j = 0; j < n && !found; j++) found = a[i] == b[j];
        if (!found) return 0;
    }
    return 1;
}

/* segments() -> [(lo, hi, length, horizontal)] by index: every core's, held to protocol.board by the tests. */
static PyObject *py_segments(PyObject *self, PyObject *noargs) {
    PyObject *list = PyList_New(NSEG);
    if (!list) return NULL;
    for (int i = 0; i < NSEG; i++)
        PyList_SET_ITEM(list, i, Py_BuildValue("(iiii)", SEG[i].lo, SEG[i].hi, SEG[i].length, SEG[i].horizontal));
    return list;
}

#define SEGMENTS_METHOD {"segments", py_segments, METH_NOARGS, "segments() -> [(lo, hi, length, horizontal)] by index"}

#endif
