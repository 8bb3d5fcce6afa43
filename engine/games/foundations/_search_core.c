/* FOUNDATIONS' search core in C: the static model, the playout and the cheap guesses of
 * engine/games/foundations/value.py, playout_policy.py and ordering.py, many times faster, and
 * FOUNDATIONS' part of the C search tree (engine/search/native/_tree.h).
 *
 * Why: FOUNDATIONS' search is short of simulations and most of a simulation is its leaf: one
 * playout and the static model. On the game's one C model of a position (_position.h, which the
 * playout core shares), not a second rulebook: it is handed a position by
 * engine/games/foundations/search_core.py and answers numbers; no move it plays leaves the playout.
 * It is a separate extension from the playout core because the two play different policies with
 * different random numbers, each held to its own reference (this one to the Python playout policy
 * and model, move for move and value for value; the playout core is `fastmc`'s fixed yardstick).
 * The tests replay its playouts' moves on protocol's FoundationsGame (every one legal, the
 * same end) and compare its model with the Python one, value for value
 * (tests/engine/games/foundations/test_foundations_search_core.py).
 *
 * The playout policy is playout_policy.play_out's: the shortest length that fits,
 * `deviate` of the time the length of a uniformly drawn legal placement instead, placed
 * on the snuggest (fewest free neighbours, ties at random) of at most `sample` start
 * cells drawn without replacement. Its random numbers are its own (xoshiro256**, seeded
 * by the caller), so the distribution of moves is the Python policy's, the draws are not.
 */
#include "_position.h"
#include <math.h>

#define MAX_PLIES 200  /* a game has at most 30 placements and 2 passes */
#define NFEATURES 9

/* -- random numbers: xoshiro256** ----------------------------------------------------- */

typedef struct { uint64_t s[4]; } Rng;

static void rng_seed(Rng *r, uint64_t seed) {
    for (int i = 0; i < 4; i++) r->s[i] = splitmix(&seed);
}

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t rng_next(Rng *r) {
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

static inline double rng_unit(Rng *r) { return (double)(rng_next(r) >> 11) * 0x1.0p-53; }

static inline int rng_below(Rng *r, int n) { return (int)(rng_unit(r) * n); }

/* -- the playout (playout_policy.play_out) ------------------------------------------------ */

/* FoundationsScratch.shortest: the mover's shortest legal length (level, length, starts);
 * 0 when it must pass or the game is over. */
static int shortest(const Pos *p, int *plevel, int *pn, u128 *ph, u128 *pv) {
    if (is_over(p)) return 0;
    int color = p->turn, minimum = p->minlen[color];
    for (int lv = p->level[color]; lv <= p->level[color] + 1; lv++) {
        if (buildable(p, color, lv)) {
            u128 free = free_cells(p, lv);
            for (int n = 3; n <= 7; n++) {
                if (n < minimum || !p->hand[color][n]) continue;
                u128 h, v;
                starts(p, color, lv, n, free, &h, &v);
                if (h || v) {
                    *plevel = lv;
                    *pn = n;
                    *ph = h;
                    *pv = v;
                    return 1;
                }
            }
        }
        minimum = 0;
    }
    return 0;
}

/* The snuggest of at most k start cells drawn uniformly without replacement from h and v. */
static int snug_spot(u128 h, u128 v, int n, int k, u128 free, Rng *r) {
    int cells[200], total = 0;
    for (; h; h &= h - 1) cells[total++] = H_SEG[n][lowbit(h)];
    for (; v; v &= v - 1) cells[total++] = V_SEG[n][lowbit(v)];
    if (!total) return -1; /* not reached: the callers pass a length that fits */
    int drawn = total <= k ? total : k;
    int best = cells[0];
    double best_key = 1e9;
    for (int t = 0; t < drawn; t++) {
        if (drawn < total) { /* the first k steps of a Fisher-Yates shuffle */
            int j = t + rng_below(r, total - t);
            int c = cells[t];
            cells[t] = cells[j];
            cells[j] = c;
        }
        double key = popc(SEG[cells[t]].nb & free) + rng_unit(r);
        if (key < best_key) {
            best = cells[t];
            best_key = key;
        }
    }
    return best;
}

/* One playout move: the segment and level placed, or -1 for a pass. */
static int playout_move(Pos *p, double deviate, int sample, Rng *r, int *plevel) {
    int level, n;
    u128 h, v;
    if (!shortest(p, &level, &n, &h, &v)) return -1;
    u128 free = free_cells(p, level);
    if (rng_unit(r) < deviate) { /* the length of a uniformly drawn legal placement on this level */
        u128 gh[8], gv[8];
        int count[8] = {0}, total = 0, color = p->turn;
        for (int m = n; m <= 7; m++) {
            if (!p->hand[color][m]) continue;
            starts(p, color, level, m, free, &gh[m], &gv[m]);
            count[m] = popc(gh[m]) + popc(gv[m]);
            total += count[m];
        }
        int pick = rng_below(r, total);
        for (int m = n; m <= 7; m++) {
            if (pick < count[m]) {
                n = m;
                h = gh[m];
                v = gv[m];
                break;
            }
            pick -= count[m];
        }
    }
    *plevel = level;
    return snug_spot(h, v, n, sample, free, r);
}

/* Plays up to `plies` plies (passes included) or to the game's end; the plies played.
 * With `moves`, each ply is written there as seg * 16 + level, or -1 for a pass. */
static int play_out(Pos *p, int plies, double deviate, int sample, Rng *r, int *moves) {
    int played = 0;
    while (played < plies && !is_over(p)) {
        int level = 0, seg = playout_move(p, deviate, sample, r, &level);
        if (seg < 0) pass_turn(p);
        else place(p, seg, level);
        if (moves) moves[played] = seg < 0 ? -1 : seg * 16 + level;
        played++;
    }
    return played;
}

/* -- the static model (value.value_features, model_value) ------------------ */

static void value_features(const Pos *p, int side, double *out) {
    const int *hand = p->hand[side];
    int level = p->level[side], minimum = p->minlen[side], value = hand_value(p, side);
    int fits_here = 0, fits_next = 0, fits = 0, room_here = 0, room_next = 0, pieces = 0;
    int passed = has_passed(p, side);
    for (int n = 3; n <= 7; n++) pieces += hand[n];
    if (!passed) {
        int here_ok = buildable(p, side, level), next_ok = buildable(p, side, level + 1);
        u128 free_here = here_ok ? free_cells(p, level) : 0, free_next = next_ok ? free_cells(p, level + 1) : 0;
        for (int n = 3; n <= 7; n++) {
            int k = hand[n];
            if (!k) continue;
            u128 h, v;
            int here = 0, above = 0;
            if (here_ok && n >= minimum) {
                starts(p, side, level, n, free_here, &h, &v);
                here = popc(h) + popc(v);
            }
            if (next_ok) {
                starts(p, side, level + 1, n, free_next, &h, &v);
                above = popc(h) + popc(v);
            }
            room_here += here * k;
            room_next += above * k;
            if (here) fits_here += VALUE[n] * k;
            if (above) fits_next += VALUE[n] * k;
            if (here || above) fits += VALUE[n] * k;
        }
    }
    double f[NFEATURES] = {value, pieces, fits_here, fits_next, value - fits,
                           log1p(room_here), log1p(room_next), passed, level};
    memcpy(out, f, sizeof(f));
}

static double model_value(const Pos *p, const double *weights, double bias) {
    double mine[NFEATURES], theirs[NFEATURES];
    value_features(p, p->turn, mine);
    value_features(p, 1 - p->turn, theirs);
    double sum = 0.0; /* summed in model_value's order, so that the two agree to the last bit */
    for (int i = 0; i < NFEATURES; i++) sum += weights[i] * (mine[i] - theirs[i]);
    double x = bias + sum;
    if (x > 30) return 1.0;
    if (x < -30) return 0.0;
    return 1.0 / (1.0 + exp(-x));
}

/* -- move ordering (ordering.cheap_guesses) ------------------------------------- */

#define MAX_GUESSES 1000 /* five lengths of at most 200 placements */

typedef struct {
    double score;
    int seg, level, order;
} Guess;

#define BEST_FIRST_T Guess
#include "_best_first.h" /* best first: higher score, equal scores in the rules' order (Python's stable sort) */

/* Every legal placement of the side to move (FoundationsGame.placement_groups: its level,
 * else the next), scored as _cheap_guesses scores it, unsorted, in the rules' order; the count. */
static int cheap_guesses(const Pos *p, Guess *out) {
    if (is_over(p)) return 0;
    int color = p->turn, total = 0;
    for (int lv = p->level[color]; lv <= p->level[color] + 1 && !total; lv++) {
        if (!buildable(p, color, lv)) continue;
        int minimum = lv == p->level[color] ? p->minlen[color] : 0, shortest = 0;
        u128 free = free_cells(p, lv);
        for (int n = 3; n <= 7; n++) {
            if (n < minimum || !p->hand[color][n]) continue;
            u128 h, v;
            starts(p, color, lv, n, free, &h, &v);
            if (!(h || v)) continue;
            if (!shortest) shortest = n;
            double base = -0.7 * (n - shortest) + 0.35 * VALUE[n];
            for (int dir = 0; dir < 2; dir++) {
                for (u128 bits = dir ? v : h; bits; bits &= bits - 1) {
                    int seg = dir ? V_SEG[n][lowbit(bits)] : H_SEG[n][lowbit(bits)];
                    out[total] = (Guess){base - 0.25 * popc(SEG[seg].nb & free), seg, lv, total};
                    total++;
                }
            }
        }
    }
    return total;
}

/* -- the search tree's game part (engine/search/native/_tree.h) ------------------------------------------- */

#define TREE_MAX_MOVES MAX_GUESSES
#define TREE_TYPE_NAME "engine.games.foundations._search_core.Tree"

typedef struct {
    double temperature, leaf_mix, deviate, wdl_weight, margin_scale, bias, weights[NFEATURES];
    int playout_plies, sample;
    Guess *guesses; /* scratch for cheap_guesses */
} TreeGame;

static int read_weights(PyObject *seq, double *weights);
static int check_policy(int plies, double deviate, int sample);

/* game: (temperature, leaf_mix, playout_plies, deviate, sample, wdl_weight, margin_scale, weights, bias), as
 * native.tree_game gives them: the priors' softmax temperature and FoundationsKnowledge.leaf_value's numbers. */
static int tree_game_read(PyObject *settings, TreeGame *g) {
    PyObject *weights;
    if (!PyArg_ParseTuple(settings, "ddididdOd", &g->temperature, &g->leaf_mix, &g->playout_plies, &g->deviate,
                          &g->sample, &g->wdl_weight, &g->margin_scale, &weights, &g->bias))
        return -1;
    if (!(g->temperature > 0) || !(g->leaf_mix >= 0 && g->leaf_mix <= 1) || !(g->wdl_weight >= 0 && g->wdl_weight <= 1) ||
        !(g->margin_scale > 0)) {
        PyErr_SetString(PyExc_ValueError,
                        "tree settings: temperature and margin_scale above 0, leaf_mix and wdl_weight 0 to 1");
        return -1;
    }
    if (check_policy(g->playout_plies, g->deviate, g->sample) < 0 || read_weights(weights, g->weights) < 0) return -1;
    g->guesses = PyMem_Malloc(sizeof(Guess) * MAX_GUESSES);
    if (!g->guesses) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static void tree_game_free(TreeGame *g) { PyMem_Free(g->guesses); }

static void tree_game_seed(Rng *r, uint64_t seed) { rng_seed(r, seed); }

static int tree_game_over(const Pos *p) { return is_over(p); }

static double logistic(double x) {
    if (x > 40) return 1.0;
    if (x < -40) return 0.0;
    return 1.0 / (1.0 + exp(-x));
}

/* value.end_value: a game end for `color`, win/draw/loss blended with the hand-value margin. */
static double end_value(const TreeGame *g, const Pos *p, int color, int *outcome) {
    int win = winner(p), dark = hand_value(p, 0), light = hand_value(p, 1);
    int margin = (color ? dark : light) - (color ? light : dark);
    *outcome = win < 0 ? 0 : (win == color ? 1 : -1);
    double wdl = win < 0 ? 0.5 : (win == color ? 1.0 : 0.0);
    return g->wdl_weight * wdl + (1 - g->wdl_weight) * (0.5 + 0.5 * tanh(margin / g->margin_scale));
}

static double tree_game_end(const TreeGame *g, const Pos *p, int color, int *outcome) {
    return end_value(g, p, color, outcome);
}

static int tree_game_expands(const TreeGame *g, const Pos *p) { return 1; }

/* The best `keep` cheap guesses, weights exp((guess - best) / temperature) (native.ordered_moves). */
static int tree_game_moves(const TreeGame *g, const Pos *p, int keep, int *codes, double *weights) {
    int count = best_first(g->guesses, cheap_guesses(p, g->guesses), keep);
    for (int i = 0; i < count; i++) {
        codes[i] = g->guesses[i].seg * 16 + g->guesses[i].level;
        weights[i] = exp((g->guesses[i].score - g->guesses[0].score) / g->temperature);
    }
    return count;
}

/* The legal placements listed once (cheap_guesses), then each code looked up; a pass only with none. */
static int tree_game_first_illegal(const TreeGame *g, const Pos *p, const int *codes, int count) {
    unsigned char legal[NSEG * 16] = {0};
    int n = cheap_guesses(p, g->guesses);
    for (int i = 0; i < n; i++) legal[g->guesses[i].seg * 16 + g->guesses[i].level] = 1;
    for (int i = 0; i < count; i++) {
        int code = codes[i];
        if (code == -1 ? n != 0 : (code < 0 || code >= NSEG * 16 || !legal[code])) return i;
    }
    return -1;
}

static void tree_game_play(Pos *p, int code) {
    if (code < 0) pass_turn(p);
    else place(p, code >> 4, code & 15);
}

/* FoundationsKnowledge.leaf_value: leaf_mix x the static model + the rest x one playout. */
static double tree_game_leaf(const TreeGame *g, const Pos *p, Rng *r, long long *nodes) {
    int me = p->turn, outcome;
    double model = model_value(p, g->weights, g->bias);
    if (g->leaf_mix >= 1) return model;
    Pos q = *p;
    *nodes += play_out(&q, g->playout_plies, g->deviate, g->sample, r, NULL);
    double played = is_over(&q) ? end_value(g, &q, me, &outcome)
                                : logistic((hand_value(&q, 1 - me) - hand_value(&q, me)) / g->margin_scale);
    return g->leaf_mix * model + (1 - g->leaf_mix) * played;
}

#include "_tree.h"

/* -- Python interface --------------------------------------------------------------------- */

static int read_weights(PyObject *seq, double *weights) { return read_floats(seq, weights, NFEATURES, "weights"); }

static int check_policy(int plies, double deviate, int sample) {
    if (plies < 0 || plies > MAX_PLIES || !(deviate >= 0.0 && deviate <= 1.0) || sample < 1 || sample > 200) {
        PyErr_Format(PyExc_ValueError, "plies are 0 to %d, deviate 0 to 1 and the sample 1 to 200", MAX_PLIES);
        return -1;
    }
    return 0;
}

/* leaf(position, seed, plies, deviate, sample, weights, bias)
 *   -> (model value, plies played, over, Dark's hand value, Light's hand value, winner or -1)
 * The model is read before the playout moves the position on (FoundationsKnowledge.leaf_value). */
static PyObject *py_leaf(PyObject *self, PyObject *args) {
    PyObject *position, *weights_seq;
    unsigned long long seed;
    int plies, sample;
    double deviate, bias, weights[NFEATURES];
    if (!PyArg_ParseTuple(args, "OKidiOd", &position, &seed, &plies, &deviate, &sample, &weights_seq, &bias))
        return NULL;
    Pos p;
    if (read_position(position, &p) < 0 || read_weights(weights_seq, weights) < 0 ||
        check_policy(plies, deviate, sample) < 0)
        return NULL;
    double model = model_value(&p, weights, bias);
    Rng r;
    rng_seed(&r, seed);
    int played = play_out(&p, plies, deviate, sample, &r, NULL);
    int over = is_over(&p);
    return Py_BuildValue("(diiiii)", model, played, over, hand_value(&p, 0), hand_value(&p, 1),
                         over ? winner(&p) : -1);
}

/* playout(position, seed, plies, deviate, sample) -> [seg * 16 + level or -1 for a pass] */
static PyObject *py_playout(PyObject *self, PyObject *args) {
    PyObject *position;
    unsigned long long seed;
    int plies, sample;
    double deviate;
    if (!PyArg_ParseTuple(args, "OKidi", &position, &seed, &plies, &deviate, &sample)) return NULL;
    Pos p;
    if (read_position(position, &p) < 0 || check_policy(plies, deviate, sample) < 0) return NULL;
    Rng r;
    rng_seed(&r, seed);
    int moves[MAX_PLIES];
    int played = play_out(&p, plies, deviate, sample, &r, moves);
    PyObject *list = PyList_New(played);
    if (!list) return NULL;
    for (int i = 0; i < played; i++) PyList_SET_ITEM(list, i, PyLong_FromLong(moves[i]));
    return list;
}

/* model(position, weights, bias) -> the side to move's chance by the static model */
static PyObject *py_model(PyObject *self, PyObject *args) {
    PyObject *position, *weights_seq;
    double bias, weights[NFEATURES];
    if (!PyArg_ParseTuple(args, "OOd", &position, &weights_seq, &bias)) return NULL;
    Pos p;
    if (read_position(position, &p) < 0 || read_weights(weights_seq, weights) < 0) return NULL;
    return PyFloat_FromDouble(model_value(&p, weights, bias));
}

/* The best `keep` guesses of `position`, each (segment index * 16 + level, exp((score - best) / temperature)). */
static PyObject *guess_list(PyObject *position, int keep, double temperature) {
    Pos p;
    if (read_position(position, &p) < 0) return NULL;
    Guess *guesses = PyMem_Malloc(sizeof(Guess) * MAX_GUESSES);
    if (!guesses) return PyErr_NoMemory();
    int n = best_first(guesses, cheap_guesses(&p, guesses), keep);
    PyObject *list = PyList_New(n);
    for (int i = 0; list && i < n; i++) {
        const Guess *g = &guesses[i];
        PyObject *item = Py_BuildValue("(id)", g->seg * 16 + g->level, exp((g->score - guesses[0].score) / temperature));
        if (!item) { Py_CLEAR(list); break; }
        PyList_SET_ITEM(list, i, item);
    }
    PyMem_Free(guesses);
    return list;
}

/* ordered(position, keep, temperature) -> [(segment index * 16 + level, prior)], best first, at most
 * `keep`: the guesses' softmax weights exp((score - best) / temperature), as
 * ordering.candidate_moves gives an inner node's moves; [] when the mover must pass. */
static PyObject *py_ordered(PyObject *self, PyObject *args) {
    PyObject *position;
    int keep;
    double temperature;
    if (!PyArg_ParseTuple(args, "Oid", &position, &keep, &temperature)) return NULL;
    if (keep < 1 || !(temperature > 0.0)) {
        PyErr_SetString(PyExc_ValueError, "keep is at least 1 and the temperature above 0");
        return NULL;
    }
    return guess_list(position, keep, temperature);
}

static PyMethodDef methods[] = {
    {"leaf", py_leaf, METH_VARARGS,
     "leaf(position, seed, plies, deviate, sample, weights, bias) -> (model, plies, over, dark, light, winner)"},
    {"playout", py_playout, METH_VARARGS, "playout(position, seed, plies, deviate, sample) -> [seg * 16 + level | -1]"},
    {"model", py_model, METH_VARARGS, "model(position, weights, bias) -> float"},
    {"ordered", py_ordered, METH_VARARGS, "ordered(position, keep, temperature) -> [(segment * 16 + level, prior)]"},
    SEGMENTS_METHOD,
    {NULL, NULL, 0, NULL},
};

CORE_MODULE(_search_core, "FOUNDATIONS' search core (C): leaf values, move ordering and the search tree.",
            methods, build_tables, add_tree_type)
