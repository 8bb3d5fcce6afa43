/* Board geometry shared by the C search cores (engine/games/hari/_search_core.c, engine/games/foundations/_search_core.c).
 *
 * Boards are 100-bit masks in an unsigned __int128, bit c = cell c = rank * 10 + file, as in
 * protocol/board.py. Segment indices are protocol.board.SEGMENTS' (built in the same order,
 * checked by the tests through each module's segments()).
 */
#ifndef GAMES_BOARD_H
#define GAMES_BOARD_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

typedef unsigned __int128 u128;

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

#define BIT(c) (((u128)1) << (c))

static inline int popc(u128 x) {
    return __builtin_popcountll((uint64_t)x) + __builtin_popcountll((uint64_t)(x >> 64));
}

static inline int lowbit(u128 x) {
    uint64_t lo = (uint64_t)x;
    if (lo) return __builtin_ctzll(lo);
    return 64 + __builtin_ctzll((uint64_t)(x >> 64));
}

/* Seconds on time.monotonic()'s clock (CLOCK_MONOTONIC on Linux): the deadlines Python hands the cores. */
static double monotonic_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts); /* time.monotonic()'s clock on Linux */
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static uint64_t splitmix(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

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

static int read_ints(PyObject *seq, int *out, int max, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n > max) { Py_DECREF(fast); PyErr_Format(PyExc_ValueError, "%s: too many items", what); return -1; }
    for (Py_ssize_t i = 0; i < n; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == -1 && PyErr_Occurred()) { Py_DECREF(fast); return -1; }
        if (v < INT_MIN || v > INT_MAX) {
            Py_DECREF(fast);
            PyErr_Format(PyExc_ValueError, "%s: %ld is out of range", what, v);
            return -1;
        }
        out[i] = (int)v;
    }
    Py_DECREF(fast);
    return (int)n;
}

static PyObject *py_segments(PyObject *self, PyObject *noargs) {
    PyObject *list = PyList_New(NSEG);
    if (!list) return NULL;
    for (int i = 0; i < NSEG; i++)
        PyList_SET_ITEM(list, i, Py_BuildValue("(iiii)", SEG[i].lo, SEG[i].hi, SEG[i].length, SEG[i].horizontal));
    return list;
}

#endif
