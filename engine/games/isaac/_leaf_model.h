/* A static model of a placement position's value for the side to move, to blend with the search tree's one-playout
 * leaves (IsaacSettings.leaf_static_mix): a logistic function of a few feature differences (the side to move's
 * less the opponent's), its weights fitted on playout results (benchmarks/fit_isaac_leaf.py).
 *
 * Why: a leaf's one playout is a win or a loss, so each leaf value is mostly noise; a static estimate of what many
 * playouts would say is less noisy where it is right. Included by _tree_game.h after the playout core's position.
 *
 * The features (leaf_features, in this order; Python reads them with features(position)):
 *   0 1 (the bias: the side to move's share);
 *   1 value on the board / 10;  2 pieces on the board / 5;
 *   3 potential / 20: each piece's value x the other pieces on its line x 2 per counter (at its start cell) on it;
 *   4 value in hand that still fits / 10: per length in hand, its value x min(pieces, spots left);
 *   5 tempo: +1 when the side to move is expected to pass first, and so to remove first (as many fitting pieces
 *     as the opponent or fewer, neither having passed), -1 otherwise (more, or the opponent has passed);
 *   6 feature 1 x the board's filled share;  7 feature 3 x the board's filled share.
 */
#ifndef ISAAC_LEAF_MODEL_H
#define ISAAC_LEAF_MODEL_H

#define LEAF_FEATURES 8

static const int LENGTH_VALUE[8] = {0, 0, 0, 1, 2, 3, 4, 6};

/* Per side: value and pieces on the board, potential, value and pieces in hand that still fit. */
typedef struct {
    double value, pieces, potential, fit_value, fit_pieces;
} SideTotals;

static void side_totals(const Pos *p, int c, const int *spots, SideTotals *out) {
    u128 counters = BIT(counter_cell(0, 0)) | BIT(counter_cell(1, 0));
    *out = (SideTotals){0};
    for (int i = 0; i < p->npieces[c]; i++) {
        int seg = p->pieces[c][i], line = SEG_LINE[seg];
        out->value += SEG[seg].value;
        out->pieces += 1;
        double e = (double)((p->line_count[line] - 1) * SEG[seg].value) * (1 << popc(counters & LINE_MASK[line]));
        out->potential += (SEG[seg].mask & counters) ? 0.35 * e : e;
    }
    for (int n = 3; n <= 7; n++) {
        int fit = p->hand[c][n] < spots[n] ? p->hand[c][n] : spots[n];
        out->fit_value += LENGTH_VALUE[n] * fit;
        out->fit_pieces += fit;
    }
}

/* The features of the module comment, for the side to move of a placement position. */
static void leaf_features(const Pos *p, double *f) {
    int me = p->turn, opp = 1 - me, spots[8] = {0};
    u128 empty = ALL & ~p->occ;
    for (int n = 3; n <= 7; n++) {
        u128 h, v;
        placement_starts(empty, n, &h, &v);
        spots[n] = popc(h) + popc(v);
    }
    SideTotals a, b;
    side_totals(p, me, spots, &a);
    side_totals(p, opp, spots, &b);
    double fill = popc(p->occ) / 100.0;
    int tempo;
    if (has_passed(p, opp)) tempo = -1; /* the opponent passed first: it removes first */
    else tempo = a.fit_pieces <= b.fit_pieces ? 1 : -1;
    f[0] = 1.0;
    f[1] = (a.value - b.value) / 10.0;
    f[2] = (a.pieces - b.pieces) / 5.0;
    f[3] = (a.potential - b.potential) / 20.0;
    f[4] = (a.fit_value - b.fit_value) / 10.0;
    f[5] = tempo;
    f[6] = f[1] * fill;
    f[7] = f[3] * fill;
}

/* The model's value (0 to 1) of a placement position for its side to move. */
static double leaf_model(const double *weights, const Pos *p) {
    double f[LEAF_FEATURES], z = 0.0;
    leaf_features(p, f);
    for (int i = 0; i < LEAF_FEATURES; i++) z += weights[i] * f[i];
    return 1.0 / (1.0 + exp(-z));
}

/* features(position) -> [float] x LEAF_FEATURES: a placement position's model features (for fitting and tests). */
static PyObject *py_leaf_features(PyObject *self, PyObject *args) {
    PyObject *position;
    if (!PyArg_ParseTuple(args, "O", &position)) return NULL;
    Pos p;
    if (read_position(position, &p) < 0) return NULL;
    if (p.scoring) {
        PyErr_SetString(PyExc_ValueError, "the leaf model's features are for the placement phase");
        return NULL;
    }
    double f[LEAF_FEATURES];
    leaf_features(&p, f);
    PyObject *list = PyList_New(LEAF_FEATURES);
    for (int i = 0; list && i < LEAF_FEATURES; i++) {
        PyObject *x = PyFloat_FromDouble(f[i]);
        if (!x) { Py_CLEAR(list); break; }
        PyList_SET_ITEM(list, i, x);
    }
    return list;
}

#endif
