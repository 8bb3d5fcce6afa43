/* The Python entry points every playout core shares, written once: search() (the flat Monte
 * Carlo) and, where PARTNER_LEAF is defined, leaf() (its playouts as a tree search's leaf value).
 *
 * Included by engine/games/<game>/_playout_core.c before its method table, once it defines its Pos
 * (with `turn`, the side to move), its Game (root, arms, prm), NPARAMS, read_position, read_prm,
 * candidates, playout (one playout of an arm, for run_flat_mc), play_out and result_for: the
 * game's own candidates, playout policy and result. A search (engine/games/<game>/search.py) may
 * value a leaf by the mean of a few such playouts.
 */
#ifndef NATIVE_PLAYOUT_API_H
#define NATIVE_PLAYOUT_API_H

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

#define PARTNER_SEARCH_METHOD \
    {"search", py_search, METH_VARARGS, "search(position, params, budget) -> (moves, visits, totals, nodes, playouts)"}

#ifdef PARTNER_LEAF   /* a core whose playouts a search uses defines it before including this */
#define MAX_LEAF_PLAYOUTS 64

/* leaf(position, params, seed, count) -> (value, plies): the mean result, for the side to move, of
 * `count` playouts from the position (1 a win, 0 a loss, blended with the margin as the flat Monte Carlo's
 * root is; 0.5 for a playout cut short), and the plies they played. */
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

#define PARTNER_LEAF_METHOD \
    {"leaf", py_leaf, METH_VARARGS, "leaf(position, params, seed, count) -> (mean value for the side to move, plies)"}

#endif

#endif
