/* ISAAC's part of a search tree in C (engine/search/native/_tree.h) over the playout core's position: the search's
 * placement guess and the playout core's removal candidates for priors, the playout core's playouts for leaves.
 *
 * Why: ISAAC's placement MCTS spent most of a simulation in Python (selection, IsaacGame's moves, the
 * guesses of up to 600 placements) and a fraction in its leaves (the playout core's playouts, already C).
 * Included by _playout_core.c after its position, playouts and Python readers.
 *
 * The candidates are knowledge.placement_candidates' (what a piece adds to the lines it touches: its
 * value x the pieces on its line, plus the values of own pieces along the lines it touches minus the
 * opponent's, plus half its value), best first, ties in the rules' order, prior weights
 * exp((guess - best) / prior_scale) as search.candidates gives them. A node in the scoring phase gets the
 * playout core's removal candidates, prior weights removal_decay ** i (with removal_decay 0 it stays a leaf,
 * valued at each visit by new playouts). A leaf's value is the mean result of `playouts` of the playout core's
 * playouts for its side to move (playout_core.leaf).
 */
#ifndef ISAAC_TREE_GAME_H
#define ISAAC_TREE_GAME_H

#define TREE_MAX_MOVES MAXMOVES
#define TREE_TYPE_NAME "engine.games.isaac._playout_core.Tree"

typedef struct {
    double prior_scale, prm[NPARAMS], removal_decay;
    int playouts;
} TreeGame;

/* A removal's code: after the placements' (the segment), NSEG + segment x 1024 + the new score. */
#define REMOVAL_CODE(seg, score) (NSEG + (seg) * 1024 + (score))

/* game: (prior_scale, playouts a leaf, the leaf playouts' params, removal_decay), as playout_core.new_tree gives them. */
static int tree_game_read(PyObject *settings, TreeGame *g) {
    PyObject *params;
    if (!PyArg_ParseTuple(settings, "diOd", &g->prior_scale, &g->playouts, &params, &g->removal_decay)) return -1;
    if (!(g->prior_scale > 0) || g->playouts < 1 || g->playouts > MAX_LEAF_PLAYOUTS ||
        !(g->removal_decay >= 0 && g->removal_decay <= 1)) {
        PyErr_Format(PyExc_ValueError,
                     "tree settings: prior_scale above 0, 1 to %d playouts a leaf, removal_decay 0 to 1",
                     MAX_LEAF_PLAYOUTS);
        return -1;
    }
    return read_prm(params, g->prm);
}

static void tree_game_free(TreeGame *g) { (void)g; }

static void tree_game_seed(Rng *r, uint64_t seed) { *r = seed; }

static int tree_game_over(const Pos *p) { return is_over(p); }

/* IsaacKnowledge.terminal_value: 1 a win, 0 a loss (ISAAC has no draws). */
static double tree_game_end(const TreeGame *g, const Pos *p, int color, int *outcome) {
    int won = winner(p) == color;
    *outcome = won ? 1 : -1;
    return won ? 1.0 : 0.0;
}

/* A node in the scoring phase gets the playout core's removal candidates when removal_decay is above 0, else it
 * stays a leaf. */
static int tree_game_expands(const TreeGame *g, const Pos *p) { return !p->scoring || g->removal_decay > 0; }

/* Guess (a placement and its guess) and best_first come from the playout core (_best_first.h): here equal guesses
 * keep the rules' order (`order`, as Python's stable sort does). */

/* knowledge.placement_candidates: every legal placement with its guess, in the rules' order (best_first sorts
 * them); the count. */
static int placement_guesses(const Pos *p, Guess *out) {
    Move all[MAXMOVES];
    int n = placements(p, all), me = p->turn;
    double feed[20];
    for (int l = 0; l < 20; l++) feed[l] = p->line_value[me][l] - p->line_value[1 - me][l];
    for (int i = 0; i < n; i++) {
        int seg = all[i].seg;
        double lines = 0.0;
        for (int k = 0; k < NTOUCH[seg]; k++) lines += feed[TOUCH[seg][k]];
        int value = SEG[seg].value;
        out[i] = (Guess){value * p->line_count[SEG_LINE[seg]] + lines + 0.5 * value, seg, i};
    }
    return n;
}

static int tree_game_moves(const TreeGame *g, const Pos *p, int keep, int *codes, double *weights) {
    if (p->scoring) { /* the playout core's removal candidates, priors removal_decay ** i */
        Move found[MAX_ARMS];
        int n = removal_candidates(p, g->prm, found);
        if (n > keep) n = keep;
        if (n == 1 && found[0].seg < 0) return 0;
        double w = 1.0;
        for (int i = 0; i < n; i++, w *= g->removal_decay) {
            codes[i] = REMOVAL_CODE(found[i].seg, found[i].score);
            weights[i] = w;
        }
        return n;
    }
    Guess guesses[MAXMOVES];
    int count = best_first(guesses, placement_guesses(p, guesses), keep);
    for (int i = 0; i < count; i++) {
        codes[i] = guesses[i].seg;
        weights[i] = exp((guesses[i].score - guesses[0].score) / g->prior_scale);
    }
    return count;
}

/* Whether `code` is a legal removal: an own removable piece, a new score its points allow. */
static int legal_removal(const Pos *p, int code) {
    int seg = (code - NSEG) / 1024, t = (code - NSEG) % 1024, me = p->turn, owned = 0;
    if (seg >= NSEG) return 0;
    for (int i = 0; i < p->npieces[me]; i++) owned |= p->pieces[me][i] == seg;
    u128 counters = counter_mask(p);
    if (!owned || !removable(p, me, seg, counters)) return 0;
    return score_allowed(p, t, p->scores[me] + earned(p, seg, counters));
}

/* The moves listed once: a placement (the segment's code) or, with none, a pass (-1) in the placement phase;
 * a legal removal (or the pass the playout core's candidates offer when there is none) in the scoring phase. */
static int tree_game_first_illegal(const TreeGame *g, const Pos *p, const int *codes, int count) {
    if (p->scoring) {
        Move found[MAX_ARMS];
        int pass_only = removal_candidates(p, g->prm, found) == 1 && found[0].seg < 0;
        for (int i = 0; i < count; i++)
            if (codes[i] >= NSEG ? !legal_removal(p, codes[i]) : !(codes[i] == -1 && pass_only)) return i;
        return -1;
    }
    Move all[MAXMOVES];
    unsigned char legal[NSEG] = {0};
    int n = placements(p, all);
    for (int i = 0; i < n; i++) legal[all[i].seg] = 1;
    for (int i = 0; i < count; i++) {
        int code = codes[i];
        if (code == -1 ? n != 0 : (code < 0 || code >= NSEG || !legal[code])) return i;
    }
    return -1;
}

static void tree_game_play(Pos *p, int code) {
    Move m = {code, -1};
    if (code >= NSEG) m = (Move){(code - NSEG) / 1024, (code - NSEG) % 1024};
    play(p, &m);
}

/* playout_core.leaf: the mean result of `playouts` playouts for the side to move. */
static double tree_game_leaf(const TreeGame *g, const Pos *p, Rng *r, long long *nodes) {
    int me = p->turn;
    double total = 0.0;
    for (int i = 0; i < g->playouts; i++) {
        Pos q = *p;
        *nodes += play_out(&q, g->prm, r, NULL);
        total += result_for(&q, me, g->prm);
    }
    return total / g->playouts;
}

/* The tree is kept between moves (_tree.h's advance): one position, as the treemc partner's tree finds it. */
#define TREE_REUSE 1
static int tree_game_same(const Pos *a, const Pos *b) { return same_position(a, b); }

/* 0 when no line from p reaches want: the placement phase only adds cells to each side, the scoring phase only takes
 * them away, and it never ends. */
static int tree_game_may_reach(const Pos *p, const Pos *want) {
    if (p->scoring && !want->scoring) return 0;
    for (int c = 0; c < 2; c++) {
        if (!p->scoring && !want->scoring && (p->own[c] & ~want->own[c])) return 0;
        if (p->scoring && want->scoring && (want->own[c] & ~p->own[c])) return 0;
    }
    return 1;
}

#include "_tree.h"

/* guesses(position[, keep]) -> [(segment, guess)] best first, all or the best `keep` as a tree node keeps them: the
 * tree's placement candidates (for the tests). */
static PyObject *py_guesses(PyObject *self, PyObject *args) {
    PyObject *position;
    int keep = MAXMOVES;
    if (!PyArg_ParseTuple(args, "O|i", &position, &keep)) return NULL;
    if (keep < 1) {
        PyErr_SetString(PyExc_ValueError, "keep is at least 1");
        return NULL;
    }
    Pos p;
    if (read_position(position, &p) < 0) return NULL;
    if (p.scoring) {
        PyErr_SetString(PyExc_ValueError, "placement guesses are for the placement phase");
        return NULL;
    }
    Guess guesses[MAXMOVES];
    int n = best_first(guesses, placement_guesses(&p, guesses), keep);
    PyObject *list = PyList_New(n);
    for (int i = 0; list && i < n; i++) {
        PyObject *item = Py_BuildValue("(id)", guesses[i].seg, guesses[i].score);
        if (!item) { Py_CLEAR(list); break; }
        PyList_SET_ITEM(list, i, item);
    }
    return list;
}

#endif
