/* HARI's search core in C: the same candidates (_candidates.h), packing race (_race.h) and alpha-beta
 * as engine/games/hari/candidates.py, race.py and search.py, about a hundred times faster; this file
 * holds its model of the position (why HARI has two: _shared.h), the alpha-beta and the Python entry
 * points.
 *
 * Why: HARI's end game is decided by exact geometry a few plays ahead, and the Python
 * alpha-beta reaches only 3 or 4 plies in the 80 ms of a 100 ms move. This module is a private
 * model of the position for that search, not a second rulebook: it is handed a position by
 * engine/games/hari/search_core.py, returns a move that the rules (check_move)
 * vet before it is played, and its pieces, candidates and race are tested against the Python
 * functions it mirrors, value for value (tests/engine/games/hari/test_hari_search_core.py).
 *
 * Boards and segments are engine/games/_board.h's (protocol/board.py's cells and SEGMENTS order).
 */
#include "_shared.h"

#define MAXPIECES 32
#define MAXMOVES 320
#define MAX_PER_LENGTH 32
#define MAX_SLIDES 64 /* 5 lengths x 32 + a discard + 64 slides + 31 blocks + 63 placement blocks fit */
#define MAX_BLOCKS 31
#define MAX_PLACE_BLOCKS 63
#define MAXPLY 64
#define MAX_LINES 16 /* MultiPV: the most root lines kept (the engine's MultiPV option allows as many) */

static uint64_t ZOB_PIECE[2][NSEG], ZOB_HAND[2][8][8], ZOB_MIN[2][8], ZOB_TURN, ZOB_PASS[3][3];

/* The segments, the slides (_shared.h) and the Zobrist keys of the transposition table. */
static void build_tables(void) {
    build_segments();
    build_slide_tables();
    uint64_t seed = 0x15AAC0A7E7AULL;
    for (int c = 0; c < 2; c++) {
        for (int i = 0; i < NSEG; i++) ZOB_PIECE[c][i] = splitmix(&seed);
        for (int n = 0; n < 8; n++)
            for (int j = 0; j < 8; j++) ZOB_HAND[c][n][j] = splitmix(&seed);
        for (int n = 0; n < 8; n++) ZOB_MIN[c][n] = splitmix(&seed);
    }
    ZOB_TURN = splitmix(&seed);
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++) ZOB_PASS[a][b] = splitmix(&seed);
}

/* -- the position ------------------------------------------------------------------------ */

typedef struct {
    int pieces[2][MAXPIECES]; /* segment indices, (lo, hi) order: HariGame.pieces() */
    int npieces[2];
    int hand[2][8];
    int minlen[2];
    int turn;
    int passes[2];
    int npasses;
    u128 own[2];
    int board_value[2];
    uint64_t key;
} Pos;

typedef struct {
    int slide_start, slide_end; /* -1: no slide; slide_end -1 with a start: off the board */
    int place;                  /* -1: a discard (or a pass when length is 0) */
    int length;
} Move;

typedef struct {
    Move move;
    int turn, minlen;
    uint64_t key;
} Undo;

static inline int seg_before(int a, int b) {
    return SEG[a].lo < SEG[b].lo || (SEG[a].lo == SEG[b].lo && SEG[a].hi < SEG[b].hi);
}

static void add_piece(Pos *p, int color, int s) {
    int *arr = p->pieces[color], n = p->npieces[color], i = n;
    while (i > 0 && seg_before(s, arr[i - 1])) { arr[i] = arr[i - 1]; i--; }
    arr[i] = s;
    p->npieces[color] = n + 1;
    p->own[color] |= SEG[s].mask;
    p->board_value[color] += SEG[s].value;
    p->key ^= ZOB_PIECE[color][s];
}

static void remove_piece(Pos *p, int color, int s) {
    int *arr = p->pieces[color], n = p->npieces[color], i = 0;
    while (i < n && arr[i] != s) i++;
    for (; i < n - 1; i++) arr[i] = arr[i + 1];
    p->npieces[color] = n - 1;
    p->own[color] &= ~SEG[s].mask;
    p->board_value[color] -= SEG[s].value;
    p->key ^= ZOB_PIECE[color][s];
}

#define HARI_POSITION
#include "_shared.h"

static int queue_of(const Pos *p, int color, int *out) {
    int k = 0;
    for (int n = 3; n <= 7; n++)
        if (p->hand[color][n] && n >= p->minlen[color])
            for (int j = 0; j < p->hand[color][n]; j++) out[k++] = n;
    return k;
}

static uint64_t pass_key(const Pos *p) {
    int a = p->npasses > 0 ? p->passes[0] + 1 : 0, b = p->npasses > 1 ? p->passes[1] + 1 : 0;
    return ZOB_PASS[a][b];
}

static void compute_key(Pos *p) {
    uint64_t k = 0;
    for (int c = 0; c < 2; c++) {
        for (int i = 0; i < p->npieces[c]; i++) k ^= ZOB_PIECE[c][p->pieces[c][i]];
        for (int n = 3; n <= 7; n++) k ^= ZOB_HAND[c][n][p->hand[c][n]];
        k ^= ZOB_MIN[c][p->minlen[c]];
    }
    if (p->turn) k ^= ZOB_TURN;
    k ^= pass_key(p);
    p->key = k;
}

static void push(Pos *p, const Move *m, Undo *u) {
    int mover = p->turn;
    u->move = *m;
    u->turn = p->turn;
    u->minlen = p->minlen[mover];
    u->key = p->key;
    if (m->length == 0) { /* pass */
        p->key ^= pass_key(p);
        p->passes[p->npasses++] = mover;
        p->key ^= pass_key(p);
    } else {
        if (m->slide_start >= 0) {
            remove_piece(p, mover, m->slide_start);
            if (m->slide_end >= 0) add_piece(p, mover, m->slide_end);
        }
        int n = m->length;
        p->key ^= ZOB_HAND[mover][n][p->hand[mover][n]];
        p->hand[mover][n]--;
        p->key ^= ZOB_HAND[mover][n][p->hand[mover][n]];
        if (n > p->minlen[mover]) {
            p->key ^= ZOB_MIN[mover][p->minlen[mover]] ^ ZOB_MIN[mover][n];
            p->minlen[mover] = n;
        }
        if (m->place >= 0) add_piece(p, mover, m->place);
    }
    /* HariGame._next_turn: the opponent moves unless it has passed and the mover has not. */
    int other = 1 - mover;
    p->turn = (has_passed(p, other) && !has_passed(p, mover)) ? mover : other;
    if (p->turn != u->turn) p->key ^= ZOB_TURN;
}

static void pop(Pos *p, const Undo *u) {
    const Move *m = &u->move;
    int mover = u->turn;
    if (m->length == 0) {
        p->npasses--;
    } else {
        if (m->place >= 0) remove_piece(p, mover, m->place);
        p->hand[mover][m->length]++;
        p->minlen[mover] = u->minlen;
        if (m->slide_start >= 0) {
            if (m->slide_end >= 0) remove_piece(p, mover, m->slide_end);
            add_piece(p, mover, m->slide_start);
        }
    }
    p->turn = u->turn;
    p->key = u->key;
}

#include "_race.h"
#include "_candidates.h"

/* -- alpha-beta (engine/search/alphabeta.py with search.py's terminal and leaf values) -- */

#define WIN 1000.0
#define INF 1e30
enum { EXACT = 0, LOWER = 1, UPPER = 2 };

typedef struct {
    uint64_t key;
    float value;
    int8_t depth, bound;
    Move best;
} Entry;

typedef struct {
    Move pv[MAXPLY];
    int pv_n;
    double value;
} Line;

typedef struct {
    Pos pos;
    Entry *table;
    uint64_t table_mask;
    long long nodes, node_limit;
    double hard_deadline; /* CLOCK_MONOTONIC seconds; <= 0: none */
    PyObject *should_stop; /* called now and then with the GIL held: True stops the search */
    PyThreadState *released;
    int aborted, error;
    uint64_t tie_seed; /* 0: none; else leaves get a small noise from it and the position's key */
    Widths inner;
    Move pv[MAXPLY][MAXPLY];
    int pv_len[MAXPLY];
    Line lines[MAX_LINES], done[MAX_LINES]; /* this iteration's best root lines, and the last complete one's */
    int n_lines, n_done;
} Search;

#define CHECK_EVERY 256

static int count_node(Search *s) {
    s->nodes++;
    if (s->node_limit > 0 && s->nodes >= s->node_limit) return 1;
    if ((s->nodes & 15) == 0 && s->hard_deadline > 0 && monotonic_seconds() >= s->hard_deadline) return 1;
    if ((s->nodes % CHECK_EVERY) == 0 && s->should_stop != Py_None) {
        PyEval_RestoreThread(s->released);
        PyObject *r = PyObject_CallFunction(s->should_stop, "L", s->nodes);
        int stop = 1;
        if (r == NULL) s->error = 1;
        else { stop = PyObject_IsTrue(r); Py_DECREF(r); }
        s->released = PyEval_SaveThread();
        if (stop) return 1;
    }
    return 0;
}

static double terminal_value(const Pos *p, int ply) {
    int me = p->turn, a = p->board_value[me], b = p->board_value[1 - me];
    if (a == b) return 0.0;
    int margin = a - b;
    return a > b ? (WIN - ply + margin) : -(WIN - ply - margin);
}

static double to_table(double v, int ply) {
    if (v >= WIN / 2) return v + ply;
    if (v <= -WIN / 2) return v - ply;
    return v;
}

static double from_table(double v, int ply) {
    if (v >= WIN / 2) return v - ply;
    if (v <= -WIN / 2) return v + ply;
    return v;
}

/* A leaf's tie-breaker in [0, 0.25): a function of the position and the seed, so that the same
 * position always gets the same one within a search (the table stays sound), equal race margins
 * are ordered differently under different seeds (games vary with the engine's Seed), and no
 * margin is ever overturned (margins are whole points). */
static double tie_noise(uint64_t key, uint64_t seed) {
    uint64_t x = key ^ seed;
    return (double)(splitmix(&x) >> 11) * 0x1.0p-53 * 0.25;
}

static double search(Search *s, int depth, double alpha, double beta, int ply) {
    Pos *p = &s->pos;
    s->pv_len[ply] = 0;
    if (is_over(p)) return terminal_value(p, ply);
    if (depth <= 0) {
        double v = (double)contest_margin(p, p->turn);
        return s->tie_seed ? v + tie_noise(p->key, s->tie_seed) : v;
    }
    Entry *e = NULL;
    Move hint;
    int have_hint = 0;
    if (s->table) {
        e = &s->table[p->key & s->table_mask];
        if (e->key == p->key) {
            hint = e->best;
            have_hint = hint.length >= 0;
            if (e->depth >= depth) {
                double v = from_table(e->value, ply);
                if (e->bound == EXACT || (e->bound == LOWER && v >= beta) || (e->bound == UPPER && v <= alpha)) {
                    if (have_hint) { s->pv[ply][0] = hint; s->pv_len[ply] = 1; }
                    return v;
                }
            }
        }
    }
    Move moves[MAXMOVES];
    int nm = candidates(p, &s->inner, moves);
    if (have_hint) {
        for (int i = 1; i < nm; i++)
            if (same_move(&moves[i], &hint)) {
                Move t = moves[i];
                memmove(&moves[1], &moves[0], sizeof(Move) * (size_t)i);
                moves[0] = t;
                break;
            }
    }
    double alpha0 = alpha, best = -INF;
    Move best_move = moves[0];
    int mover = p->turn;
    for (int i = 0; i < nm; i++) {
        Undo u;
        push(p, &moves[i], &u);
        if (count_node(s)) { pop(p, &u); s->aborted = 1; return 0.0; }
        double v = p->turn == mover ? search(s, depth - 1, alpha, beta, ply + 1)
                                    : -search(s, depth - 1, -beta, -alpha, ply + 1);
        pop(p, &u);
        if (s->aborted) return 0.0;
        if (v > best) {
            best = v;
            best_move = moves[i];
            s->pv[ply][0] = moves[i];
            memcpy(&s->pv[ply][1], s->pv[ply + 1], sizeof(Move) * (size_t)s->pv_len[ply + 1]);
            s->pv_len[ply] = 1 + s->pv_len[ply + 1];
            if (v > alpha) {
                alpha = v;
                if (alpha >= beta) break;
            }
        }
    }
    if (e != NULL && (e->key != p->key || e->depth <= depth)) {
        e->key = p->key;
        e->depth = (int8_t)depth;
        e->value = (float)to_table(best, ply);
        e->bound = best <= alpha0 ? UPPER : best >= beta ? LOWER : EXACT;
        e->best = best_move;
    }
    return best;
}

/* -- Python interface ------------------------------------------------------------------- */

static PyObject *move_to_tuple(const Move *m) {
    return Py_BuildValue("(iiii)", m->slide_start, m->slide_end, m->place, m->length);
}

static PyObject *moves_to_list(const Move *moves, int n) {
    PyObject *list = PyList_New(n);
    if (!list) return NULL;
    for (int i = 0; i < n; i++) PyList_SET_ITEM(list, i, move_to_tuple(&moves[i]));
    return list;
}


/* read_position (_shared.h) and the position's Zobrist key. */
static int read_keyed(PyObject *position, Pos *p) {
    if (read_position(position, p) < 0) return -1;
    compute_key(p);
    return 0;
}

static int check_widths(const Widths *w) {
    if (w->per_length < 1 || w->per_length > MAX_PER_LENGTH || w->scarce < 0 || w->scarce > 200 ||
        w->slide_max < 0 || w->slide_max > MAX_SLIDES || w->blocks < 0 || w->blocks > MAX_BLOCKS ||
        w->place_blocks < 0 || w->place_blocks > MAX_PLACE_BLOCKS) {
        PyErr_Format(PyExc_ValueError,
                     "per_length is 1 to %d, scarce 0 to 200, slide_max 0 to %d, blocks 0 to %d, place_blocks 0 to %d",
                     MAX_PER_LENGTH, MAX_SLIDES, MAX_BLOCKS, MAX_PLACE_BLOCKS);
        return -1;
    }
    return 0;
}

/* candidates(position, per_length, scarce=4, slide_max=24, blocks=0, place_blocks=0) */
static PyObject *py_candidates(PyObject *self, PyObject *args) {
    PyObject *position;
    Widths w = {0, 4, 24, 0, 0};
    if (!PyArg_ParseTuple(args, "Oi|iiii", &position, &w.per_length, &w.scarce, &w.slide_max, &w.blocks,
                          &w.place_blocks))
        return NULL;
    if (check_widths(&w) < 0) return NULL;
    Pos p;
    if (read_keyed(position, &p) < 0) return NULL;
    Move moves[MAXMOVES];
    int n = candidates(&p, &w, moves);
    return moves_to_list(moves, n);
}

static PyObject *py_contest_margin(PyObject *self, PyObject *args) {
    PyObject *position;
    int color;
    if (!PyArg_ParseTuple(args, "Oi", &position, &color)) return NULL;
    Pos p;
    if (read_keyed(position, &p) < 0) return NULL;
    return PyLong_FromLong(contest_margin(&p, color ? 1 : 0));
}


/* Keep (value, move + the child's line) among the `want` best root lines, best first (ties: the first). */
static void keep_line(Search *s, const Move *move, double value, int want) {
    if (s->n_lines >= want && !(value > s->lines[s->n_lines - 1].value)) return;
    int at = 0;
    while (at < s->n_lines && !(value > s->lines[at].value)) at++;
    int last = s->n_lines < want ? s->n_lines : want - 1;
    memmove(&s->lines[at + 1], &s->lines[at], sizeof(Line) * (size_t)(last - at));
    Line *line = &s->lines[at];
    line->value = value;
    line->pv[0] = *move;
    line->pv_n = 1 + s->pv_len[1];
    memcpy(&line->pv[1], s->pv[1], sizeof(Move) * (size_t)s->pv_len[1]);
    if (s->n_lines < want) s->n_lines++;
}

/* [(value, pv)] of `n` lines */
static PyObject *lines_to_list(const Line *lines, int n) {
    PyObject *list = PyList_New(n);
    for (int i = 0; list && i < n; i++) {
        PyObject *pv = moves_to_list(lines[i].pv, lines[i].pv_n);
        PyObject *item = pv ? Py_BuildValue("(dN)", lines[i].value, pv) : NULL;
        if (!item) { Py_CLEAR(list); break; }
        PyList_SET_ITEM(list, i, item);
    }
    return list;
}

/* -- budget-sized widths ------------------------------------------------------------------------------------ */

/* Where a search can expect few nodes (a short move, a loaded machine), narrow candidates reach deeper than
 * wide ones and play better; where it can expect many, the wide ones do (docs/experiments.md). So after its
 * first iteration a search may narrow itself: the nodes it can still expect per root move (its node limit, or
 * its first iteration's rate times the time left) pick the first tier whose `ratio` is above them; that tier
 * keeps its `keep` best root moves by their first-iteration values and searches below the root with its
 * widths. Above every tier, the widths as given. */
#define MAX_TIERS 8

typedef struct {
    double ratio;
    int keep;
    Widths inner;
} Tier;

/* tiers: None, or ((ratio, keep, per_length, blocks, place_blocks), ...) by rising ratio; scarce and slide_max
 * are the inner widths'. The count, or -1 with an error set. */
static int read_tiers(PyObject *list, const Widths *inner, Tier *out) {
    if (list == Py_None) return 0;
    PyObject *fast = PySequence_Fast(list, "tiers: a sequence of (ratio, keep, per_length, blocks, place_blocks)");
    if (!fast) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n > MAX_TIERS) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "tiers: at most %d", MAX_TIERS);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        Tier *t = &out[i];
        t->inner = *inner;
        PyObject *item = PySequence_Fast_GET_ITEM(fast, i);
        if (require_tuple(item, "a tier") < 0 ||
            !PyArg_ParseTuple(item, "diiii", &t->ratio, &t->keep, &t->inner.per_length, &t->inner.blocks,
                              &t->inner.place_blocks) ||
            check_widths(&t->inner) < 0) {
            Py_DECREF(fast);
            return -1;
        }
        if (!(t->ratio > 0.0) || t->keep < 1 || (i > 0 && !(t->ratio > out[i - 1].ratio))) {
            Py_DECREF(fast);
            PyErr_SetString(PyExc_ValueError, "tiers: ratios above 0 and rising, keep at least 1");
            return -1;
        }
    }
    Py_DECREF(fast);
    return (int)n;
}

/* The nodes the search can still expect: what its node limit leaves, else its rate so far (since `started`)
 * times the time left to `deadline`; a huge number with neither. */
static double expected_nodes(const Search *s, double started, double deadline) {
    if (s->node_limit > 0) return (double)(s->node_limit - s->nodes);
    double now = monotonic_seconds();
    if (deadline <= 0.0 || now <= started) return 1e18;
    return (double)s->nodes / (now - started) * (deadline > now ? deadline - now : 0.0);
}

/* The first tier whose ratio is above `per_move` (the nodes expected per root move), or NULL. */
static const Tier *budget_tier(const Tier *tiers, int n, double per_move) {
    for (int i = 0; i < n; i++)
        if (per_move < tiers[i].ratio) return &tiers[i];
    return NULL;
}

/* The `keep` best of the `n` root moves by their first-iteration values, best first (equal values in their
 * order): the new count. */
static int keep_best(Move *order, double *values, int n, int keep) {
    for (int a = 1; a < n; a++) { /* insertion sort, descending, stable */
        Move m = order[a];
        double v = values[a];
        int b = a;
        while (b > 0 && values[b - 1] < v) { order[b] = order[b - 1]; values[b] = values[b - 1]; b--; }
        order[b] = m;
        values[b] = v;
    }
    return keep < n ? keep : n;
}

/* search(position, root_moves, inner_per_length, max_depth, table_bits, node_limit, hard_deadline,
 *        should_stop, on_depth, stop_when_decided=False, scarce=4, slide_max=24, tie_seed=0, blocks=0,
 *        place_blocks=0, multipv=1, soft_deadline=0, tiers=None)
 *   -> (move, value, depth, nodes, complete, pv, lines)
 * Iterative deepening over root_moves (tuples as candidates() gives them), as
 * alphabeta.AlphaBeta.iterate: the deepest complete iteration's best, or the best of an
 * iteration cut short once its first move (the previous best) is searched. should_stop(nodes) is
 * called every CHECK_EVERY nodes (the caller reports progress there); on_depth(depth, value, pv,
 * nodes, lines) after each complete iteration, returning True ends the search. `lines` are the
 * `multipv` best root moves [(value, pv)], best first: each root move is searched above the
 * multipv-th best value so far (the best, for 1), as AlphaBeta.search_root, so those are exact;
 * the result's are the last complete iteration's (the cut one's if none completed).
 * A win or loss found over the candidates ends it only with stop_when_decided (the caller knows
 * the result is decided anyway): over a pruned list it is an estimate, not a proof. With `tiers`, the search
 * narrows itself after its first iteration where it can expect few nodes (budget_tier above; the expected
 * time runs to soft_deadline, else hard_deadline). */
static PyObject *py_search(PyObject *self, PyObject *args) {
    PyObject *position, *root_list, *should_stop, *on_depth, *tier_list = Py_None;
    int max_depth, table_bits, stop_when_decided = 0, multipv = 1;
    Widths inner = {0, 4, 24, 0, 0};
    long long node_limit;
    unsigned long long tie_seed = 0;
    double hard_deadline, soft_deadline = 0.0;
    if (!PyArg_ParseTuple(args, "OOiiiLdOO|piiKiiidO", &position, &root_list, &inner.per_length, &max_depth,
                          &table_bits, &node_limit, &hard_deadline, &should_stop, &on_depth, &stop_when_decided,
                          &inner.scarce, &inner.slide_max, &tie_seed, &inner.blocks, &inner.place_blocks, &multipv,
                          &soft_deadline, &tier_list))
        return NULL;
    if (multipv < 1 || multipv > MAX_LINES) {
        PyErr_Format(PyExc_ValueError, "multipv is 1 to %d", MAX_LINES);
        return NULL;
    }
    if (check_widths(&inner) < 0) return NULL;
    Tier tiers[MAX_TIERS];
    int ntiers = read_tiers(tier_list, &inner, tiers);
    if (ntiers < 0) return NULL;
    if (max_depth < 0 || max_depth > MAXPLY - 2) {
        PyErr_Format(PyExc_ValueError, "max_depth is 0 to %d", MAXPLY - 2);
        return NULL;
    }
    Search *s = PyMem_Calloc(1, sizeof(Search));
    if (!s) return PyErr_NoMemory();
    if (read_keyed(position, &s->pos) < 0) { PyMem_Free(s); return NULL; }
    Move root[MAXMOVES];
    PyObject *fast = PySequence_Fast(root_list, "root moves");
    if (!fast) { PyMem_Free(s); return NULL; }
    Py_ssize_t nr = PySequence_Fast_GET_SIZE(fast);
    if (nr < 1 || nr > MAXMOVES) {
        Py_DECREF(fast); PyMem_Free(s);
        PyErr_SetString(PyExc_ValueError, "root moves: 1 to 320 needed");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < nr; i++) {
        int v[4];
        if (read_ints(PySequence_Fast_GET_ITEM(fast, i), v, 4, "move") != 4) {
            Py_DECREF(fast); PyMem_Free(s);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a move has 4 numbers");
            return NULL;
        }
        root[i].slide_start = v[0]; root[i].slide_end = v[1]; root[i].place = v[2]; root[i].length = v[3];
    }
    Py_DECREF(fast);
    if (table_bits > 0) {
        if (table_bits > 24) table_bits = 24;
        s->table = PyMem_Calloc((size_t)1 << table_bits, sizeof(Entry));
        if (!s->table) { PyMem_Free(s); return PyErr_NoMemory(); }
        s->table_mask = ((uint64_t)1 << table_bits) - 1;
    }
    s->inner = inner;
    s->tie_seed = (uint64_t)tie_seed;
    s->node_limit = node_limit;
    s->hard_deadline = hard_deadline;
    s->should_stop = should_stop;
    Move best_move = root[0], order[MAXMOVES];
    double best_value = 0.0;
    int best_depth = 0, complete = 0, pv_n = 1;
    Move pv_out[MAXPLY];
    pv_out[0] = root[0];
    memcpy(order, root, sizeof(Move) * (size_t)nr);
    Pos *p = &s->pos;
    int mover = p->turn;
    double started = monotonic_seconds(), first_values[MAXMOVES];
    for (int depth = 1; depth <= max_depth; depth++) {
        s->released = PyEval_SaveThread();
        double beta = INF, it_best = -INF;
        Move it_move = order[0];
        int it_pv_n = 0, searched = 0;
        Move it_pv[MAXPLY];
        s->n_lines = 0;
        for (Py_ssize_t i = 0; i < nr; i++) {
            /* above the multipv-th best so far: with multipv 1 the best so far, as plain alpha-beta */
            double alpha = s->n_lines < multipv ? -INF : s->lines[multipv - 1].value;
            Undo u;
            push(p, &order[i], &u);
            if (count_node(s)) { pop(p, &u); s->aborted = 1; break; }
            double v = p->turn == mover ? search(s, depth - 1, alpha, beta, 1) : -search(s, depth - 1, -beta, -alpha, 1);
            pop(p, &u);
            if (s->aborted) break;
            searched = (int)i + 1;
            keep_line(s, &order[i], v, multipv);
            first_values[i] = v; /* exact at depth 1 (a leaf's value whatever the window); read only then */
            if (v > it_best) {
                it_best = v;
                it_move = order[i];
                it_pv[0] = order[i];
                memcpy(&it_pv[1], s->pv[1], sizeof(Move) * (size_t)s->pv_len[1]);
                it_pv_n = 1 + s->pv_len[1];
            }
        }
        PyEval_RestoreThread(s->released);
        if (s->error) break;
        if (s->aborted) {
            if (searched > 0) { /* the previous best was searched first: a sound answer */
                best_move = it_move; best_value = it_best; best_depth = depth;
                memcpy(pv_out, it_pv, sizeof(Move) * (size_t)it_pv_n); pv_n = it_pv_n;
                if (s->n_done == 0) {
                    memcpy(s->done, s->lines, sizeof(Line) * (size_t)s->n_lines);
                    s->n_done = s->n_lines;
                }
            }
            complete = 0;
            break;
        }
        best_move = it_move; best_value = it_best; best_depth = depth; complete = 1;
        memcpy(pv_out, it_pv, sizeof(Move) * (size_t)it_pv_n); pv_n = it_pv_n;
        memcpy(s->done, s->lines, sizeof(Line) * (size_t)s->n_lines);
        s->n_done = s->n_lines;
        if (depth == 1 && ntiers) {
            double budget = expected_nodes(s, started, soft_deadline > 0.0 ? soft_deadline : hard_deadline);
            const Tier *t = budget_tier(tiers, ntiers, budget / (double)nr);
            if (t) {
                s->inner = t->inner;
                nr = keep_best(order, first_values, (int)nr, t->keep);
            }
        }
        /* next iteration: the best first, the rest in this iteration's order */
        Move next[MAXMOVES];
        int k = 0;
        next[k++] = it_move;
        for (Py_ssize_t i = 0; i < nr; i++)
            if (!same_move(&order[i], &it_move)) next[k++] = order[i];
        memcpy(order, next, sizeof(Move) * (size_t)nr);
        if (on_depth != Py_None) {
            PyObject *pv = moves_to_list(pv_out, pv_n);
            PyObject *lines = lines_to_list(s->done, s->n_done);
            PyObject *r = pv && lines ? PyObject_CallFunction(on_depth, "idOLO", depth, best_value, pv, s->nodes, lines)
                                      : NULL;
            Py_XDECREF(pv);
            Py_XDECREF(lines);
            if (!r) { s->error = 1; break; }
            int stop = PyObject_IsTrue(r);
            Py_DECREF(r);
            if (stop) break;
        }
        if (stop_when_decided && (best_value >= WIN / 2 || best_value <= -WIN / 2)) break;
    }
    PyObject *result = NULL;
    if (!s->error) {
        PyObject *pv = moves_to_list(pv_out, pv_n);
        PyObject *mv = move_to_tuple(&best_move);
        PyObject *lines = lines_to_list(s->done, s->n_done);
        if (pv && mv && lines)
            result = Py_BuildValue("(OdiLiOO)", mv, best_value, best_depth, s->nodes, complete, pv, lines);
        Py_XDECREF(pv);
        Py_XDECREF(mv);
        Py_XDECREF(lines);
    }
    PyMem_Free(s->table);
    PyMem_Free(s);
    return result;
}

static PyMethodDef methods[] = {
    {"candidates", py_candidates, METH_VARARGS, "candidates(position, per_length) -> [(start, end, place, length)]"},
    {"contest_margin", py_contest_margin, METH_VARARGS, "contest_margin(position, color) -> int"},
    SEGMENTS_METHOD,
    {"search", py_search, METH_VARARGS, "iterative-deepening alpha-beta; see the source"},
    {NULL, NULL, 0, NULL},
};

CORE_MODULE(_search_core, "HARI's search core (C): model, candidates, packing race and alpha-beta.",
            methods, build_tables, no_types)
