/* A fitted prior over the placements (IsaacSettings.prior_model): a softmax of a linear function of each
 * placement's features, its weights fitted on the visit shares of long searches (benchmarks/fit_isaac_prior.py).
 *
 * Why: the tree's placement priors are a hand-made guess (what a piece adds to its lines, _tree_game.h) with one
 * temperature; a search of ~10,000 simulations sees few of the 100-600 placements, so where the prior puts its
 * mass decides what is searched. Included by _tree_game.h after the playout core's position and policy.
 *
 * The features of placing `seg` for the side to move (placement_features, in this order):
 *   0 its value x the pieces with a cell on its line / 10 (what it may earn);
 *   1 the values of own pieces lying along the lines it touches / 10;  2 the opponent's / 10;
 *   3-7 its length is 3, 4, 5, 6, 7;
 *   8 the opponent's placements of its longest length in hand that it takes away / 10;
 *   9 own placements of the longest length left in hand after it that it takes away / 10;
 *   10 the pieces on the lines it crosses / 10 (whose points it raises);
 *   11 it covers a counter's start cell (blocked until the counter moves);
 *   12 its line holds a counter's start cell (doubled while the counter is there).
 */
#ifndef ISAAC_PLACEMENT_PRIOR_H
#define ISAAC_PLACEMENT_PRIOR_H

#define PRIOR_FEATURES 13

/* The longest length `color` holds, counting `less` pieces of length `without` fewer (0: none). */
static int longest_held(const Pos *p, int color, int without, int less) {
    for (int n = 7; n >= 3; n--)
        if (p->hand[color][n] - (n == without ? less : 0) > 0) return n;
    return 0;
}

static void placement_features(const Pos *p, int seg, double *f) {
    int me = p->turn, opp = 1 - me, len = SEG[seg].length;
    u128 empty = ALL & ~p->occ, starts = BIT(counter_cell(0, 0)) | BIT(counter_cell(1, 0));
    double own = 0.0, theirs = 0.0, crossed = 0.0;
    for (int k = 0; k < NTOUCH[seg]; k++) {
        int l = TOUCH[seg][k];
        own += p->line_value[me][l];
        theirs += p->line_value[opp][l];
        if (k) crossed += p->line_count[l];
    }
    f[0] = SEG[seg].value * p->line_count[SEG_LINE[seg]] / 10.0;
    f[1] = own / 10.0;
    f[2] = theirs / 10.0;
    for (int n = 3; n <= 7; n++) f[n] = len == n;
    f[8] = has_passed(p, opp) ? 0.0 : denied(empty, seg, longest_in_hand(p, opp)) / 10.0;
    f[9] = denied(empty, seg, longest_held(p, me, len, 1)) / 10.0;
    f[10] = crossed / 10.0;
    f[11] = (SEG[seg].mask & starts) != 0;
    f[12] = (LINE_MASK[SEG_LINE[seg]] & starts) != 0;
}

/* Every legal placement of the side to move with its prior weight exp(w . features - the best's), best first
 * (equal weights in the rules' order); the count. */
static int fitted_priors(const Pos *p, const double *weights, Guess *out) {
    Move all[MAXMOVES];
    int n = placements(p, all);
    for (int i = 0; i < n; i++) {
        double f[PRIOR_FEATURES], z = 0.0;
        placement_features(p, all[i].seg, f);
        for (int k = 0; k < PRIOR_FEATURES; k++) z += weights[k] * f[k];
        out[i] = (Guess){z, all[i].seg, i};
    }
    qsort(out, (size_t)n, sizeof(Guess), by_guess);
    return n;
}

/* prior_features(position) -> [(segment, [float] x PRIOR_FEATURES)] for every legal placement (fitting, tests). */
static PyObject *py_prior_features(PyObject *self, PyObject *args) {
    PyObject *position;
    if (!PyArg_ParseTuple(args, "O", &position)) return NULL;
    Pos p;
    if (read_position(position, &p) < 0) return NULL;
    if (p.scoring) {
        PyErr_SetString(PyExc_ValueError, "placement features are for the placement phase");
        return NULL;
    }
    Move all[MAXMOVES];
    int n = placements(&p, all);
    PyObject *list = PyList_New(n);
    for (int i = 0; list && i < n; i++) {
        double f[PRIOR_FEATURES];
        placement_features(&p, all[i].seg, f);
        PyObject *fs = PyList_New(PRIOR_FEATURES);
        for (int k = 0; fs && k < PRIOR_FEATURES; k++) {
            PyObject *x = PyFloat_FromDouble(f[k]);
            if (!x) { Py_CLEAR(fs); break; }
            PyList_SET_ITEM(fs, k, x);
        }
        PyObject *item = fs ? Py_BuildValue("(iN)", all[i].seg, fs) : NULL;
        if (!item) { Py_CLEAR(list); break; }
        PyList_SET_ITEM(list, i, item);
    }
    return list;
}

#endif
