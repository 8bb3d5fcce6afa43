/* leaf(): a partner core's playouts as a tree search's leaf value, one definition for every core.
 *
 * Included by engine/games/<game>/_partner.c after it defines its Pos (with `turn`, the side to
 * move), NPARAMS, read_position, read_prm, play_out and result_for: the game's own playout policy
 * and result, the same that its flat Monte Carlo uses. A search (engine/games/<game>/search.py)
 * values a leaf by the mean of a few such playouts.
 */
#ifndef ISAAC_PARTNER_LEAF_H
#define ISAAC_PARTNER_LEAF_H

#define MAX_LEAF_PLAYOUTS 64

/* leaf(position, params, seed, count) -> (value, plies): the mean result, for the side to move, of
 * `count` playouts from the position (1 a win, 0 a loss, blended with the margin as the partner's
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
