/* What every game's playout core shares, written once: the playout loop, one playout of a root arm for
 * the flat Monte Carlo (_flat_mc.h), and the Python entry points candidates(), playout(), search() and,
 * where PLAYOUT_LEAF is defined, leaf() (its playouts as a tree search's leaf value).
 *
 * Included by engine/games/<game>/_playout_core.c before its method table, once it defines:
 *   Pos (with `turn`, the side to move) and Move, the game's model of a position and a move;
 *   NPARAMS, PARAM_NAMES, PARAM_LO, PARAM_HI: its policy's parameters and their ranges;
 *   MAX_PLIES: the most plies a playout plays;
 *   is_over(p), play(p, move), winner(p) (-1 a draw), playout_measure(p, color): the game's measure at a
 *     playout's end (what playout() reports; MEASURE_SIGN -1 where lower is better, else leave it 1);
 *   MARGIN_W and MARGIN_SCALE: the indices of the parameters that blend the final margin into a result;
 *   playout_move(p, prm, rng): the policy's move;
 *   candidates(p, prm, out): the root's arms (at most MAX_ARMS);
 *   read_position(tuple, p) and move_tuple(move): the position from Python, a move to Python.
 */
#ifndef NATIVE_PLAYOUT_API_H
#define NATIVE_PLAYOUT_API_H

#ifndef MEASURE_SIGN
#define MEASURE_SIGN 1
#endif

/* Where a playout ended, for the root mover: win 1, draw 1/2, loss 0, blended with the final margin of the
 * game's measure (blended, _flat_mc.h); 0.5 for a playout cut short. */
static double result_for(const Pos *p, int root, const double *prm) {
    if (!is_over(p)) return 0.5;
    double margin = (double)(MEASURE_SIGN * (playout_measure(p, root) - playout_measure(p, 1 - root)));
    return blended(winner(p), root, margin, prm[MARGIN_W], prm[MARGIN_SCALE]);
}

/* Plays to the end (at most MAX_PLIES plies); the plies played, each written to `moves` if given. */
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

/* The root of a flat Monte Carlo: the position, its arms and the policy's parameters. */
typedef struct {
    Pos root;
    const Move *arms;
    const double *prm;
} Game;

/* run_flat_mc's PlayoutFn: arm `arm`, then a playout to the end; the root mover's result. */
static double playout(const void *game, int arm, Rng *r, long long *plies) {
    const Game *g = game;
    Pos p = g->root;
    int me = p.turn;
    play(&p, &g->arms[arm]);
    *plies += 1 + play_out(&p, g->prm, r, NULL);
    return result_for(&p, me, g->prm);
}

static int read_prm(PyObject *seq, double *prm) {
    return read_params(seq, prm, NPARAMS, PARAM_LO, PARAM_HI, PARAM_NAMES);
}

static PyObject *move_list(const Move *moves, int n) {
    PyObject *list = PyList_New(n);
    for (int i = 0; list && i < n; i++) {
        PyObject *t = move_tuple(&moves[i]);
        if (!t) { Py_CLEAR(list); break; }
        PyList_SET_ITEM(list, i, t);
    }
    return list;
}

/* candidates(position, params) -> [move]: the root's arms; one pass when the mover must pass */
static PyObject *py_candidates(PyObject *self, PyObject *args) {
    PyObject *position, *params;
    if (!PyArg_ParseTuple(args, "OO", &position, &params)) return NULL;
    Pos p;
    double prm[NPARAMS];
    if (read_position(position, &p) < 0 || read_prm(params, prm) < 0) return NULL;
    Move moves[MAX_ARMS];
    return move_list(moves, candidates(&p, prm, moves));
}

/* playout(position, params, seed) -> (moves, (Dark's measure, Light's), winner: 0, 1, -1 a draw, -2 cut short) */
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
    return Py_BuildValue("(N(ii)i)", list, playout_measure(&p, 0), playout_measure(&p, 1),
                         is_over(&p) ? winner(&p) : -2);
}

/* search(position, params, budget) -> (moves, visits, totals, nodes, playouts); see _flat_mc.h */
static PyObject *py_search(PyObject *self, PyObject *args) {
    PyObject *position, *params, *budget;
    if (!PyArg_ParseTuple(args, "OOO", &position, &params, &budget)) return NULL;
    Game g;
    double prm[NPARAMS];
    Budget b;
    if (read_position(position, &g.root) < 0 || read_prm(params, prm) < 0 || read_budget(budget, &b) < 0) return NULL;
    if (is_over(&g.root)) { PyErr_SetString(PyExc_ValueError, "the game is over"); return NULL; }
    Move arms[MAX_ARMS];
    int n = candidates(&g.root, prm, arms);
    g.arms = arms;
    g.prm = prm;
    Arms *a = PyMem_Malloc(sizeof(Arms));
    if (!a) return PyErr_NoMemory();
    PyObject *result = run_flat_mc(playout, &g, n, &b, a) == 0 ? search_result(move_list(arms, n), a) : NULL;
    PyMem_Free(a);
    return result;
}

/* The method table entries every playout core has. */
#define PLAYOUT_CORE_METHODS                                                                                     \
    {"candidates", py_candidates, METH_VARARGS, "candidates(position, params) -> [move]"},                        \
    {"search", py_search, METH_VARARGS, "search(position, params, budget) -> (moves, visits, totals, nodes, playouts)"},\
    {"playout", py_playout, METH_VARARGS, "playout(position, params, seed) -> (moves, measures, winner)"},        \
    SEGMENTS_METHOD

#ifdef PLAYOUT_LEAF   /* a core whose playouts a search uses defines it before including this */
#define MAX_LEAF_PLAYOUTS 64

/* leaf(position, params, seed, count) -> (value, plies): the mean result, for the side to move, of
 * `count` playouts from the position (1 a win, 0 a loss, blended with the margin as the flat Monte
 * Carlo's root is; 0.5 for a playout cut short), and the plies they played. */
static PyObject *py_leaf(PyObject *self, PyObject *args) {
    PyObject *position, *params;
    unsigned long long seed;
    int count;
    if (!PyArg_ParseTuple(args, "OOKi", &position, &params, &seed, &count)) return NULL;
    if (count < 1 || count > MAX_LEAF_PLAYOUTS) {
        PyErr_SetString(PyExc_ValueError, "count is 1 to 64 playouts");
        return NULL;
    }
    Pos p;
    double prm[NPARAMS];
    if (read_position(position, &p) < 0 || read_prm(params, prm) < 0) return NULL;
    Rng r = seed;
    int me = p.turn;
    double total = 0.0;
    long long plies = 0;
    for (int i = 0; i < count; i++) {
        Pos q = p;
        plies += play_out(&q, prm, &r, NULL);
        total += result_for(&q, me, prm);
    }
    return Py_BuildValue("(dL)", total / count, plies);
}

#define PLAYOUT_LEAF_METHOD \
    {"leaf", py_leaf, METH_VARARGS, "leaf(position, params, seed, count) -> (mean value for the side to move, plies)"}

#endif

#endif
