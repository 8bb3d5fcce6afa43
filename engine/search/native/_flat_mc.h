/* Flat Monte Carlo in C: UCB1 over a root's candidates, each valued by playouts (the `fastmc` sparring
 * partner's search, over each game's playout core, engine/games/<game>/_playout_core.c).
 *
 * A playout core knows one game: its position, its root candidates and its playout policy. This
 * header holds what does not depend on the game: the random numbers, the clock, UCB1 over the
 * root candidates ("arms"), the limits (nodes, playouts, a deadline, a Python callback that may
 * stop the search and report progress) and the answer handed back to Python. The GIL is released
 * while playouts run, so the engine's other threads (the stdin reader) go on meanwhile.
 */
#ifndef NATIVE_FLAT_MC_H
#define NATIVE_FLAT_MC_H

#include "_common.h"
#include <math.h>

#define MAX_ARMS 1024

/* -- random numbers: splitmix64 (_common.h), its own stream per search ------------------- */

typedef uint64_t Rng;

static inline uint64_t rng_next(Rng *r) { return splitmix(r); }

/* Uniform in 0..n-1 (n >= 1), by a multiply-shift of the high 32 bits. */
static inline int rng_below(Rng *r, int n) {
    return (int)(((rng_next(r) >> 32) * (uint64_t)(uint32_t)n) >> 32);
}

static inline double rng_unit(Rng *r) { return (double)(rng_next(r) >> 11) * 0x1.0p-53; }

/* -- the search's limits and statistics --------------------------------------------------- */

typedef struct {
    uint64_t seed;
    double ucb_c;            /* exploration constant of UCB1 */
    long long node_limit;    /* plies; 0: none */
    long long playout_limit; /* 0: none */
    double deadline;         /* monotonic seconds; 0: none */
    PyObject *progress;      /* None, or progress(nodes, playouts, best arm, its mean) -> True to stop */
    double every;            /* seconds between two progress calls */
} Budget;

typedef struct {
    int narms;
    long long visits[MAX_ARMS];
    double totals[MAX_ARMS];
    double mean[MAX_ARMS], explore[MAX_ARMS]; /* totals / visits and 1 / sqrt(visits), kept for ucb_pick */
    long long nodes, playouts;
} Arms;

/* A playout: plays root arm `arm` then on to the end; returns the root mover's result in [0, 1]
 * and adds the plies it played to *plies. `game` is the core's own (const) root data. */
typedef double (*PlayoutFn)(const void *game, int arm, Rng *rng, long long *plies);

/* The arm to play next: each once in order, then the best mean + c * sqrt(ln N / n). */
static int ucb_pick(const Arms *a, double c) {
    if (a->playouts < a->narms) return (int)a->playouts;
    double k = c * sqrt(log((double)a->playouts)), best = -1e300;
    int pick = 0;
    for (int i = 0; i < a->narms; i++) {
        double v = a->mean[i] + k * a->explore[i];
        if (v > best) { best = v; pick = i; }
    }
    return pick;
}

static inline void record(Arms *a, int arm, double value) {
    a->visits[arm]++;
    a->totals[arm] += value;
    a->mean[arm] = a->totals[arm] / (double)a->visits[arm];
    a->explore[arm] = 1.0 / sqrt((double)a->visits[arm]);
    a->playouts++;
}

/* The answer: the most visited arm, ties to the higher mean, then to the first. */
static int best_arm(const Arms *a) {
    int best = 0;
    for (int i = 1; i < a->narms; i++) {
        long long v = a->visits[i], b = a->visits[best];
        if (v > b || (v == b && v > 0 && a->totals[i] / (double)v > a->totals[best] / (double)b)) best = i;
    }
    return best;
}

static inline double arm_mean(const Arms *a, int i) {
    return a->visits[i] ? a->totals[i] / (double)a->visits[i] : 0.5;
}

/* budget = (seed, ucb_c, node_limit, playout_limit, deadline, progress, every) */
static int read_budget(PyObject *tuple, Budget *b) {
    unsigned long long seed;
    if (require_tuple(tuple, "budget") < 0) return -1;
    if (!PyArg_ParseTuple(tuple, "KdLLdOd", &seed, &b->ucb_c, &b->node_limit, &b->playout_limit, &b->deadline,
                          &b->progress, &b->every))
        return -1;
    b->seed = seed;
    if (!(b->ucb_c >= 0.0 && b->ucb_c <= 100.0) || b->node_limit < 0 || b->playout_limit < 0 ||
        !(b->deadline >= 0.0) || !(b->every > 0.0 && b->every <= 10.0)) {
        PyErr_SetString(PyExc_ValueError, "budget: ucb_c 0 to 100, node and playout limits >= 0 (0: none), "
                                          "a deadline >= 0 (0: none) and every 0 to 10 s");
        return -1;
    }
    if (b->progress != Py_None && !PyCallable_Check(b->progress)) {
        PyErr_SetString(PyExc_TypeError, "budget: progress is None or a callable");
        return -1;
    }
    return 0;
}

/* Calls progress(nodes, playouts, best, mean) with the GIL held; 1 to stop, -1 on an error. */
static int call_progress(const Budget *b, const Arms *a) {
    int best = best_arm(a);
    PyObject *r = PyObject_CallFunction(b->progress, "LLid", a->nodes, a->playouts, best, arm_mean(a, best));
    if (!r) return -1;
    int stop = PyObject_IsTrue(r);
    Py_DECREF(r);
    return stop;
}

/* UCB1 over `narms` arms until a limit: at least one playout, at most the limits. 0, or -1 with a
 * Python error set (the progress callback raised). Called with the GIL held. */
static int run_flat_mc(PlayoutFn play_arm, const void *game, int narms, const Budget *b, Arms *a) {
    memset(a, 0, sizeof(*a));
    a->narms = narms;
    Rng rng = b->seed;
    double next_call = b->progress != Py_None ? monotonic_seconds() + b->every : 0.0;
    int status = 0;
    PyThreadState *released = PyEval_SaveThread();
    for (;;) {
        int arm = ucb_pick(a, b->ucb_c);
        record(a, arm, play_arm(game, arm, &rng, &a->nodes));
        if (b->node_limit && a->nodes >= b->node_limit) break;
        if (b->playout_limit && a->playouts >= b->playout_limit) break;
        if (b->deadline > 0.0 || next_call > 0.0) {
            double now = monotonic_seconds();
            if (b->deadline > 0.0 && now >= b->deadline) break;
            if (next_call > 0.0 && now >= next_call) {
                PyEval_RestoreThread(released);
                int stop = call_progress(b, a);
                released = PyEval_SaveThread();
                if (stop) { status = stop < 0 ? -1 : 0; break; }
                next_call = monotonic_seconds() + b->every;
            }
        }
    }
    PyEval_RestoreThread(released);
    return status;
}

/* The search's answer (moves, visits, totals, nodes, playouts), `moves` (the arms, stolen) first. */
static PyObject *search_result(PyObject *moves, const Arms *a) {
    if (!moves) return NULL;
    PyObject *visits = PyList_New(a->narms), *totals = PyList_New(a->narms);
    if (!visits || !totals) { Py_DECREF(moves); Py_XDECREF(visits); Py_XDECREF(totals); return NULL; }
    for (int i = 0; i < a->narms; i++) {
        PyList_SET_ITEM(visits, i, PyLong_FromLongLong(a->visits[i]));
        PyList_SET_ITEM(totals, i, PyFloat_FromDouble(a->totals[i]));
    }
    return Py_BuildValue("(NNNLL)", moves, visits, totals, a->nodes, a->playouts);
}

/* A policy's parameters: a sequence of exactly n floats, each within [lo[i], hi[i]]. */
static int read_params(PyObject *seq, double *out, int n, const double *lo, const double *hi, const char *const *names) {
    if (read_floats(seq, out, n, "params") < 0) return -1;
    for (int i = 0; i < n; i++)
        if (!(out[i] >= lo[i] && out[i] <= hi[i])) {
            char text[160]; /* PyErr_Format knows no %g */
            PyOS_snprintf(text, sizeof text, "params: %s must be %g to %g, not %g", names[i], lo[i], hi[i], out[i]);
            PyErr_SetString(PyExc_ValueError, text);
            return -1;
        }
    return 0;
}

/* A playout's result for the root mover: win 1, draw 1/2, loss 0, blended by `margin_weight`
 * with tanh(margin / scale), the final margin in the game's own measure (positive: ahead). */
static inline double blended(int winner, int root, double margin, double margin_weight, double scale) {
    double wdl = winner < 0 ? 0.5 : (winner == root ? 1.0 : 0.0);
    return (1.0 - margin_weight) * wdl + margin_weight * 0.5 * (1.0 + tanh(margin / scale));
}

#endif
