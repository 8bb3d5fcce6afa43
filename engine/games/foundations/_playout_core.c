/* FOUNDATIONS sparring partner in C: flat Monte Carlo with epsilon-greedy playouts (strategy `fastmc`).
 *
 * A private model of the position for playouts, not a rulebook: engine/games/foundations/playout_core.py
 * hands it a position, the strategy has the move it answers checked by the rules
 * (protocol/foundations.py, check_move), and the tests replay its playouts on FoundationsGame
 * (every move legal, the same end, hands and winner).
 *
 * Root candidates: every legal placement when there are at most WIDTH, else the WIDTH best by a
 * guess (shorter pieces first, a snug fit: few free neighbours on the level), each length that
 * fits keeping at least its best two.
 * Playouts (both sides alike): with chance EPS a uniformly drawn legal placement; else the
 * shortest length that fits (with chance SKIP the next length that fits instead), on the snuggest
 * of SAMPLE drawn spots (ties at random).
 */
#include "_flat_mc.h"

#define NPARAMS 7
#define SLOTS 10 /* levels 1..8 and an always-empty level above (protocol/foundations.py) */
#define MAX_LEVEL 8
#define MAXPIECES 15
#define MAXMOVES 1000 /* five lengths of at most 200 placements */
#define MAX_PLIES 64  /* 30 placements and 2 passes at most */

enum { EPS, SKIP, SAMPLE, MARGIN_W, MARGIN_SCALE, WIDTH, SNUG_W };

static const char *const PARAM_NAMES[NPARAMS] = {"eps", "skip", "sample", "margin_weight", "margin_scale", "width",
                                                  "snug_weight"};
static const double PARAM_LO[NPARAMS] = {0, 0, 1, 0, 1, 1, 0};
static const double PARAM_HI[NPARAMS] = {1, 1, 200, 1, 100, 256, 10};

static u128 SAME[NSEG][8]; /* starts of length-n runs with both ends on the segment (foundations_bits.SAME) */

static void build_tables(void) {
    build_segments();
    for (int i = 0; i < NSEG; i++) {
        int step = SEG[i].horizontal ? 1 : 10;
        for (int n = 0; n < 8; n++)
            SAME[i][n] = (n >= 3 && n <= SEG[i].length) ? SEG[i].mask & (SEG[i].mask >> (step * (n - 1))) : 0;
    }
}

/* -- the position ---------------------------------------------------------------------------- */

typedef struct {
    int turn, npasses, passes[2], top;
    int hand[2][8], level[2], minlen[2];
    int npieces[2][SLOTS];
    int pieces[2][SLOTS][MAXPIECES];
    u128 occ[SLOTS], own[2][SLOTS];
} Pos;

typedef struct {
    int seg;   /* -1: a pass */
    int level;
} Move;

static inline int is_over(const Pos *p) { return p->npasses == 2; }

static inline int has_passed(const Pos *p, int color) {
    for (int i = 0; i < p->npasses; i++)
        if (p->passes[i] == color) return 1;
    return 0;
}

/* Cells a piece may use on `level`: empty there and under no higher piece. */
static inline u128 free_cells(const Pos *p, int level) {
    u128 blocked = p->occ[level];
    for (int j = level + 1; j <= p->top; j++) blocked |= p->occ[j];
    return ALL & ~blocked;
}

static inline int buildable(const Pos *p, int color, int level) {
    return level <= MAX_LEVEL && (level == 1 || p->npieces[color][level - 1] >= 2);
}

/* Start cells of `color`'s legal length-n placements on a buildable `level` with free cells `free`:
 * on level 1 any run of free cells; above, both ends on own pieces of the level below, two
 * different ones, every cell free (SPEC 4). */
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

/* The side to move's placements by length on the level it must play: its level, else the next
 * (FoundationsGame.placement_groups). Returns that level, 0 when it must pass. */
static int groups(const Pos *p, u128 *hs, u128 *vs, int *count) {
    if (is_over(p)) return 0;
    int c = p->turn, minimum = p->minlen[c];
    for (int lv = p->level[c]; lv <= p->level[c] + 1; lv++, minimum = 0) {
        if (!buildable(p, c, lv)) continue;
        u128 free = free_cells(p, lv);
        int total = 0;
        for (int n = 3; n <= 7; n++) {
            hs[n] = vs[n] = 0;
            count[n] = 0;
            if (n < minimum || !p->hand[c][n]) continue;
            starts(p, c, lv, n, free, &hs[n], &vs[n]);
            count[n] = popc(hs[n]) + popc(vs[n]);
            total += count[n];
        }
        if (total) return lv;
    }
    return 0;
}

static void play(Pos *p, const Move *m) {
    int c = p->turn;
    if (m->seg < 0) {
        p->passes[p->npasses++] = c;
        p->turn = 1 - c;
        return;
    }
    int lv = m->level;
    p->occ[lv] |= SEG[m->seg].mask;
    p->own[c][lv] |= SEG[m->seg].mask;
    p->pieces[c][lv][p->npieces[c][lv]++] = m->seg;
    p->hand[c][SEG[m->seg].length]--;
    p->level[c] = lv;
    p->minlen[c] = SEG[m->seg].length;
    if (lv > p->top) p->top = lv;
    if (!has_passed(p, 1 - c)) p->turn = 1 - c;
}

static int hand_value(const Pos *p, int color) {
    int v = 0;
    for (int n = 3; n <= 7; n++) v += VALUE[n] * p->hand[color][n];
    return v;
}

/* Lower hand value wins; equal: fewer points on the highest level whose points differ; -1: a draw. */
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

/* -- the playout policy ------------------------------------------------------------------------- */

static inline int seg_at(u128 h, u128 v, int n, int k) {
    int nh = popc(h);
    return k < nh ? H_SEG[n][nth_bit(h, k)] : V_SEG[n][nth_bit(v, k - nh)];
}

static Move playout_move(const Pos *p, const double *prm, Rng *r) {
    u128 hs[8], vs[8];
    int count[8];
    int lv = groups(p, hs, vs, count);
    if (!lv) return (Move){-1, 0};
    int n = 3;
    if (rng_unit(r) < prm[EPS]) {
        int total = 0;
        for (int m = 3; m <= 7; m++) total += count[m];
        int pick = rng_below(r, total);
        for (n = 3; pick >= count[n]; n++) pick -= count[n];
        return (Move){seg_at(hs[n], vs[n], n, pick), lv};
    }
    while (!count[n]) n++;
    if (rng_unit(r) < prm[SKIP]) {
        int m = n + 1;
        while (m <= 7 && !count[m]) m++;
        if (m <= 7) n = m;
    }
    u128 free = free_cells(p, lv);
    int k = (int)prm[SAMPLE], total = count[n], best = -1;
    double best_key = 1e300;
    for (int i = 0; i < k && i < total; i++) {
        int seg = seg_at(hs[n], vs[n], n, k >= total ? i : rng_below(r, total));
        double key = popc(SEG[seg].nb & free) + rng_unit(r);
        if (key < best_key) { best_key = key; best = seg; }
    }
    return (Move){best, lv};
}

static int play_out(Pos *p, const double *prm, Rng *r, Move *moves) {
    int plies = 0;
    while (!is_over(p) && plies < MAX_PLIES) {
        Move m = playout_move(p, prm, r);
        play(p, &m);
        if (moves) moves[plies] = m;
        plies++;
    }
    return plies;
}

static double result_for(const Pos *p, int root, const double *prm) {
    if (!is_over(p)) return 0.5;
    double margin = (double)(hand_value(p, 1 - root) - hand_value(p, root));
    return blended(winner(p), root, margin, prm[MARGIN_W], prm[MARGIN_SCALE]);
}

/* -- root candidates -------------------------------------------------------------------------- */

typedef struct {
    double score;
    Move move;
    int order;
} Scored;

static int by_score_desc(const void *a, const void *b) {
    const Scored *x = a, *y = b;
    if (x->score != y->score) return x->score < y->score ? 1 : -1;
    return x->order - y->order;
}

static int candidates(const Pos *p, const double *prm, Move *out) {
    u128 hs[8], vs[8];
    int count[8];
    if (is_over(p)) return 0;
    int lv = groups(p, hs, vs, count);
    if (!lv) { out[0] = (Move){-1, 0}; return 1; }
    u128 free = free_cells(p, lv);
    Scored all[MAXMOVES];
    int total = 0, shortest = 0;
    for (int n = 3; n <= 7; n++) {
        if (!count[n]) continue;
        if (!shortest) shortest = n;
        for (int i = 0; i < count[n]; i++) {
            int seg = seg_at(hs[n], vs[n], n, i);
            double guess = -0.7 * (n - shortest) + 0.35 * VALUE[n] - prm[SNUG_W] * popc(SEG[seg].nb & free);
            all[total] = (Scored){guess, {seg, lv}, total};
            total++;
        }
    }
    qsort(all, (size_t)total, sizeof(Scored), by_score_desc);
    int width = (int)prm[WIDTH], k = 0, per[8] = {0};
    if (width > MAX_ARMS) width = MAX_ARMS;
    if (total <= width) {
        for (int i = 0; i < total; i++) out[k++] = all[i].move;
        return k;
    }
    for (int i = 0; i < total; i++) { /* each length's best two first, then the best of the rest */
        int n = SEG[all[i].move.seg].length;
        if (per[n] < 2) { per[n]++; out[k++] = all[i].move; all[i].order = -1; }
    }
    for (int i = 0; i < total && k < width; i++)
        if (all[i].order >= 0) out[k++] = all[i].move;
    return k;
}

/* -- the search ----------------------------------------------------------------------------------- */

typedef struct {
    Pos root;
    const Move *arms;
    const double *prm;
} Game;

static double playout(const void *game, int arm, Rng *r, long long *plies) {
    const Game *g = game;
    Pos p = g->root;
    int me = p.turn;
    play(&p, &g->arms[arm]);
    *plies += 1 + play_out(&p, g->prm, r, NULL);
    return result_for(&p, me, g->prm);
}

/* -- Python interface ---------------------------------------------------------------------------- */

/* position: (turn, passes, hand0, hand1, pieces0, pieces1, level0, level1, minlen0, minlen1), pieces as
 * [segment index * 16 + level] (engine/games/foundations/playout_core.position_tuple). */
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
    int pas[2], np = read_ints(passes, pas, 2, "passes");
    if (np < 0) return -1;
    for (int i = 0; i < np; i++)
        if (pas[i] != 0 && pas[i] != 1) { PyErr_SetString(PyExc_ValueError, "a passer is 0 or 1"); return -1; }
    if (np == 2 && pas[0] == pas[1]) { PyErr_SetString(PyExc_ValueError, "a player passes once"); return -1; }
    p->npasses = np;
    for (int i = 0; i < np; i++) p->passes[i] = pas[i];
    p->top = 1;
    for (int c = 0; c < 2; c++) {
        int hand[8];
        if (read_ints(hd[c], hand, 8, "hand") != 8) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a hand has 8 counts");
            return -1;
        }
        for (int n = 0; n < 8; n++) {
            if (hand[n] < 0 || hand[n] > SET_COUNT[n]) {
                PyErr_Format(PyExc_ValueError, "a hand holds 0 to %d pieces of length %d", SET_COUNT[n], n);
                return -1;
            }
            p->hand[c][n] = hand[n];
        }
        if (lv[c] < 1 || lv[c] > MAX_LEVEL || mn[c] < 0 || mn[c] > 7) {
            PyErr_Format(PyExc_ValueError, "a level is 1 to %d and a minimum length 0 to 7", MAX_LEVEL);
            return -1;
        }
        p->level[c] = lv[c];
        p->minlen[c] = mn[c];
        int codes[MAXPIECES + 1], count = read_ints(pc[c], codes, MAXPIECES, "pieces");
        if (count < 0) return -1;
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
            if (on[n] + hand[n] != SET_COUNT[n]) {
                PyErr_Format(PyExc_ValueError, "%d pieces of length %d on the board and in hand: a set has %d", on[n] + hand[n],
                             n, SET_COUNT[n]);
                return -1;
            }
    }
    return 0;
}

static int read_prm(PyObject *seq, double *prm) {
    return read_params(seq, prm, NPARAMS, PARAM_LO, PARAM_HI, PARAM_NAMES);
}

static PyObject *move_list(const Move *moves, int n) {
    PyObject *list = PyList_New(n);
    for (int i = 0; list && i < n; i++) {
        PyObject *t = Py_BuildValue("(ii)", moves[i].seg, moves[i].level);
        if (!t) { Py_CLEAR(list); break; }
        PyList_SET_ITEM(list, i, t);
    }
    return list;
}

/* candidates(position, params) -> [(segment, level)]; [(-1, 0)]: pass */
static PyObject *py_candidates(PyObject *self, PyObject *args) {
    PyObject *position, *params;
    if (!PyArg_ParseTuple(args, "OO", &position, &params)) return NULL;
    Pos p;
    double prm[NPARAMS];
    if (read_position(position, &p) < 0 || read_prm(params, prm) < 0) return NULL;
    Move moves[MAX_ARMS];
    return move_list(moves, candidates(&p, prm, moves));
}

/* playout(position, params, seed) -> (moves, (Dark's hand value, Light's), winner: 0, 1, -1 a draw, -2 cut short) */
static PyObject *py_playout(PyObject *self, PyObject *args) {
    PyObject *position, *params;
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "OOK", &position, &params, &seed)) return NULL;
    Pos p;
    double prm[NPARAMS];
    if (read_position(position, &p) < 0 || read_prm(params, prm) < 0) return NULL;
    Rng r = seed;
    Move moves[MAX_PLIES] = {0};   /* play_out writes the first n */
    int n = play_out(&p, prm, &r, moves);
    PyObject *list = move_list(moves, n);
    if (!list) return NULL;
    return Py_BuildValue("(N(ii)i)", list, hand_value(&p, 0), hand_value(&p, 1), is_over(&p) ? winner(&p) : -2);
}

#include "_playout_api.h"

static PyMethodDef methods[] = {
    {"candidates", py_candidates, METH_VARARGS, "candidates(position, params) -> [(segment, level)]"},
    PARTNER_SEARCH_METHOD,
    {"playout", py_playout, METH_VARARGS, "playout(position, params, seed) -> (moves, hand values, winner)"},
    {"segments", py_segments, METH_NOARGS, "segments() -> [(lo, hi, length, horizontal)] by index"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_playout_core", "FOUNDATIONS playout core (C): flat Monte Carlo and playouts.", -1,
                                    methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__playout_core(void) {
    build_tables();
    return PyModule_Create(&module);
}
