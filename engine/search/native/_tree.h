/* A search tree in C: engine/search/mcts.py's PUCT with progressive widening, over a game core's own
 * position, candidates and leaf values, and its Python type `Tree`.
 *
 * Why: with their leaves in C, the MCTS searches still spent most of a simulation in Python (selection,
 * pushing moves on the protocol's game, node objects). Here the whole simulation is C, so a 100 ms move
 * runs several times the simulations (docs/benchmarks.md says what that was worth).
 *
 * The algorithm is mcts.py's, step for step: selection maximises Q + c_puct * P * sqrt(N + 1) / (1 + n)
 * over the first widen_base + widen_factor * N ** widen_power candidates (an untried child counts as its
 * parent's value minus fpu_reduction); a node's candidates (the game's best inner_max, with prior weights)
 * are built at its second visit; a new leaf is valued by the game; game ends are exact and remembered;
 * statistics are kept for the player who made the move. The random numbers are the game's generator,
 * seeded by the caller: a search limited by simulations or nodes is reproducible.
 *
 * Memory is bounded: the node and candidate arrays grow by doubling up to `max_nodes` and `max_slots`;
 * once either is full the tree stops growing and its simulations value a leaf again where they would
 * have built a node (a very long `go infinite` keeps refining, in fixed memory).
 *
 * A core includes this after defining its position `Pos` (with `turn`), its generator `Rng`,
 * read_position(PyObject *, Pos *), TREE_MAX_MOVES (the most candidates a position has), TREE_TYPE_NAME,
 * and the game's part of a tree, `TreeGame` (its numbers) with these functions:
 *   tree_game_read(settings, g): the game's numbers from a Python tuple (-1 with an exception set);
 *   tree_game_free(g); tree_game_seed(rng, seed);
 *   tree_game_over(p); tree_game_end(g, p, color, &outcome): a game end's value for `color` (outcome 1 won,
 *     -1 lost, 0 drawn);
 *   tree_game_expands(g, p): whether a node there gets candidates (else it stays a leaf, valued at each visit);
 *   tree_game_moves(g, p, keep, codes, weights): the best `keep` candidates with prior weights, best first
 *     (0: the mover must pass); tree_game_first_illegal(g, p, codes, count): the index of the first code
 *     that is not a legal move at p, -1 when all are (the moves listed once for the whole root);
 *     tree_game_play(p, code) (-1 is a pass);
 *   tree_game_leaf(g, p, rng, &nodes): the side to move's value of an unfinished position, adding the
 *     positions a playout reached to `nodes`.
 */
#ifndef NATIVE_TREE_H
#define NATIVE_TREE_H

#include "_common.h"
#include <math.h>

typedef struct {
    double total, exact;   /* total: summed values for `mover`; exact: a game end's value for `mover` */
    int visits, first;     /* first: the node's first candidate slot, -1 until its candidates are built */
    short nmoves, tried;   /* candidates, and children built so far */
    signed char mover, terminal, ordered, outcome; /* outcome of a game end: 1 `mover` won, -1 lost, 0 drawn */
} TNode;

typedef struct {
    int child; /* node index, -1 until built */
    int code;  /* the game's move code, -1 for a pass */
    double prior;
} Slot;

typedef struct {
    double c_puct, fpu_reduction, widen_factor, widen_power;
    int widen_base, inner_max;
} TreeSettings;

typedef struct {
    TNode *nodes;
    Slot *slots;
    int nnodes, cap_nodes, max_nodes, nslots, cap_slots, max_slots;
    Pos root;
    Rng rng;
    TreeSettings s;
    TreeGame game;
    long long nodes_counted; /* positions reached by a move, in the tree or in a playout (`info nodes`) */
    long long simulations;
    int max_depth;
} Tree;

/* Grows an array of `size`-byte items to hold `need`; 0 when that would pass `limit` or memory is short. */
static int tree_grow(void **items, int *cap, int need, int limit, size_t size) {
    if (need > limit) return 0;
    if (need <= *cap) return 1;
    int wanted = *cap ? *cap : 1024;
    while (wanted < need) wanted = wanted > limit / 2 ? limit : wanted * 2;
    if (wanted > limit) wanted = limit;
    void *grown = PyMem_RawRealloc(*items, (size_t)wanted * size);
    if (!grown) return 0;
    *items = grown;
    *cap = wanted;
    return 1;
}

static int tree_new_node(Tree *t, int mover) {
    if (!tree_grow((void **)&t->nodes, &t->cap_nodes, t->nnodes + 1, t->max_nodes, sizeof(TNode))) return -1;
    TNode *n = &t->nodes[t->nnodes];
    memset(n, 0, sizeof(*n));
    n->first = -1;
    n->mover = (signed char)mover;
    return t->nnodes++;
}

/* Gives `node` its candidates: `count` codes with weights (clipped at 0, then normalised; all equal
 * when none is positive), as mcts.MCTS._set_moves does. 0 when the slots are full. */
static int tree_set_moves(Tree *t, int node, int count, const int *codes, const double *weights) {
    if (!tree_grow((void **)&t->slots, &t->cap_slots, t->nslots + count, t->max_slots, sizeof(Slot))) return 0;
    double total = 0.0;
    for (int i = 0; i < count; i++) total += weights[i] > 0.0 ? weights[i] : 0.0;
    Slot *slots = &t->slots[t->nslots];
    int ordered = 1;
    for (int i = 0; i < count; i++) {
        double w = weights[i] > 0.0 ? weights[i] : 0.0;
        slots[i].child = -1;
        slots[i].code = codes[i];
        slots[i].prior = total > 0.0 ? w / total : 1.0 / count;
        if (i && slots[i].prior > slots[i - 1].prior) ordered = 0;
    }
    TNode *n = &t->nodes[node];
    n->first = t->nslots;
    n->nmoves = (short)count;
    n->ordered = (signed char)ordered;
    t->nslots += count;
    return 1;
}

/* An inner node's candidates: the game's best inner_max; a pass when the mover has none. */
static int tree_expand(Tree *t, int node, const Pos *p) {
    int codes[TREE_MAX_MOVES];
    double weights[TREE_MAX_MOVES];
    int count = tree_game_moves(&t->game, p, t->s.inner_max, codes, weights);
    if (!count) {
        codes[0] = -1;
        weights[0] = 1.0;
        count = 1;
    }
    return tree_set_moves(t, node, count, codes, weights);
}

/* mcts.MCTS._select: the slot (offset from the node's first) to descend into. */
static int tree_select(const Tree *t, const TNode *n) {
    const TreeSettings *s = &t->s;
    int limit = s->widen_base + (int)(s->widen_factor * pow(n->visits, s->widen_power));
    if (limit > n->nmoves) limit = n->nmoves;
    if (n->ordered && n->tried < limit) limit = n->tried + 1;
    double sqrt_n = sqrt(n->visits + 1.0);
    double fpu = 0.5;
    if (n->visits) {
        fpu = (1.0 - n->total / n->visits) - s->fpu_reduction;
        if (fpu < 0.0) fpu = 0.0;
    }
    const Slot *slots = &t->slots[n->first];
    int best = 0;
    double best_score = -1e18;
    for (int i = 0; i < limit; i++) {
        double q = fpu;
        int visits = 0;
        if (slots[i].child >= 0 && t->nodes[slots[i].child].visits) {
            const TNode *c = &t->nodes[slots[i].child];
            q = c->total / c->visits;
            visits = c->visits;
        }
        double score = q + s->c_puct * slots[i].prior * sqrt_n / (1 + visits);
        if (score > best_score) {
            best = i;
            best_score = score;
        }
    }
    return best;
}

#define TREE_MAX_DEPTH 512

/* One simulation (mcts.MCTS.simulate): select down the tree, build or value one leaf, back it up. */
static void tree_simulate(Tree *t) {
    Pos p = t->root;
    int path[TREE_MAX_DEPTH + 1], depth = 0, node = 0, value_for, outcome;
    double value;
    path[0] = 0;
    for (;;) {
        TNode *n = &t->nodes[node];
        if (n->terminal) {
            value_for = n->mover;
            value = n->exact;
            break;
        }
        if (n->first < 0) {
            if (tree_game_over(&p)) {
                n->terminal = 1;
                n->exact = tree_game_end(&t->game, &p, n->mover, &outcome);
                n->outcome = (signed char)outcome;
                value_for = n->mover;
                value = n->exact;
                break;
            }
            /* A new leaf is only valued; its candidates wait for its second visit. A full tree values it again. */
            if (n->visits == 0 || depth >= TREE_MAX_DEPTH || !tree_game_expands(&t->game, &p) || !tree_expand(t, node, &p)) {
                value = tree_game_leaf(&t->game, &p, &t->rng, &t->nodes_counted);
                value_for = p.turn;
                break;
            }
            n = &t->nodes[node];
        }
        int i = tree_select(t, n), mover = p.turn, slot = n->first + i;
        tree_game_play(&p, t->slots[slot].code);
        t->nodes_counted++;
        int child = t->slots[slot].child;
        if (child < 0) {
            child = tree_new_node(t, mover);
            if (child < 0) { /* the tree is full: value the position this move reached, without a node */
                if (tree_game_over(&p)) {
                    value_for = mover;
                    value = tree_game_end(&t->game, &p, mover, &outcome);
                } else {
                    value = tree_game_leaf(&t->game, &p, &t->rng, &t->nodes_counted);
                    value_for = p.turn;
                }
                break;
            }
            t->slots[slot].child = child;
            t->nodes[node].tried++;
        }
        node = child;
        path[++depth] = node;
    }
    if (depth > t->max_depth) t->max_depth = depth;
    for (int k = 0; k <= depth; k++) {
        TNode *n = &t->nodes[path[k]];
        n->visits++;
        n->total += n->mover == value_for ? value : 1.0 - value;
    }
    t->simulations++;
}

/* mcts.MCTS.best_index: the root's slot with the most visits, ties to the higher mean; -1 before any. */
static int tree_best(const Tree *t) {
    const TNode *n = &t->nodes[0];
    int best = -1, best_visits = -1;
    double best_q = -1.0;
    for (int i = 0; i < n->nmoves; i++) {
        int c = t->slots[n->first + i].child;
        if (c < 0) continue;
        const TNode *child = &t->nodes[c];
        double q = child->visits ? child->total / child->visits : 0.5;
        if (child->visits > best_visits || (child->visits == best_visits && q > best_q)) {
            best = i;
            best_visits = child->visits;
            best_q = q;
        }
    }
    return best;
}

/* The most-visited child of `node` (the first of equals), as a slot index; -1 if none was visited. */
static int tree_most_visited(const Tree *t, int node) {
    const TNode *n = &t->nodes[node];
    if (n->first < 0) return -1;
    int best = -1, best_visits = 0;
    for (int i = 0; i < n->nmoves; i++) {
        int c = t->slots[n->first + i].child;
        if (c >= 0 && t->nodes[c].visits > best_visits) {
            best = n->first + i;
            best_visits = t->nodes[c].visits;
        }
    }
    return best;
}

/* The most-visited line from the root (mcts.MCTS.principal_variation), at most `max` plies, as slots. */
static int tree_pv(const Tree *t, int *slots, int max) {
    int node = 0, len = 0;
    while (len < max) {
        int best = tree_most_visited(t, node);
        if (best < 0) break;
        slots[len++] = best;
        node = t->slots[best].child;
    }
    return len;
}

/* mcts.MCTS.pv_depth_reached: the most-visited line is `depth` plies long or ends the game sooner. */
static int tree_depth_reached(const Tree *t, int depth) {
    int node = 0;
    for (int plies = 0; plies < depth; plies++) {
        if (t->nodes[node].terminal) return 1;
        int best = tree_most_visited(t, node);
        if (best < 0) return 0;
        node = t->slots[best].child;
    }
    return 1;
}

/* -- the Python type ------------------------------------------------------------------------------ */

typedef struct {
    PyObject_HEAD
    Tree tree;
} PyTree;

static void tree_dealloc(PyTree *self) {
    PyMem_RawFree(self->tree.nodes);
    PyMem_RawFree(self->tree.slots);
    tree_game_free(&self->tree.game);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* mcts: (c_puct, fpu_reduction, widen_base, widen_factor, widen_power, inner_max), an MCTSSettings' numbers. */
static int read_tree_settings(PyObject *mcts, TreeSettings *s) {
    if (!PyArg_ParseTuple(mcts, "ddiddi", &s->c_puct, &s->fpu_reduction, &s->widen_base, &s->widen_factor,
                          &s->widen_power, &s->inner_max))
        return -1;
    if (!(s->c_puct >= 0) || !(s->widen_factor >= 0) || !(s->widen_power >= 0) || s->widen_base < 1 ||
        s->inner_max < 1 || s->inner_max > TREE_MAX_MOVES || !isfinite(s->fpu_reduction)) {
        PyErr_Format(PyExc_ValueError,
                     "tree settings: c_puct, widen_factor and widen_power at least 0, widen_base at least 1, "
                     "inner_max 1 to %d, a finite fpu_reduction", TREE_MAX_MOVES);
        return -1;
    }
    return 0;
}

/* The root's candidates [(code, prior weight)], each legal in the tree's root; the count, or -1. */
static int read_root(Tree *t, PyObject *root, int *codes, double *priors) {
    PyObject *fast = PySequence_Fast(root, "the root's candidates are a sequence of (code, prior)");
    if (!fast) return -1;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(fast);
    if (count < 1 || count > TREE_MAX_MOVES) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "the root has 1 to %d candidates, not %zd", TREE_MAX_MOVES, count);
        return -1;
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(fast, i), "id", &codes[i], &priors[i])) {
            Py_DECREF(fast);
            return -1;
        }
    }
    Py_DECREF(fast);
    int bad = tree_game_first_illegal(&t->game, &t->root, codes, (int)count);
    if (bad >= 0) {
        PyErr_Format(PyExc_ValueError, "root candidate %d (code %d) is not a legal move here", bad, codes[bad]);
        return -1;
    }
    return (int)count;
}

/* Tree(position, root, mcts, game, seed, max_nodes, max_slots): a search tree from `position` whose root has
 * the candidates `root` = [(code, prior weight)]; `mcts` the tree's numbers, `game` the game's. */
static PyObject *tree_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    PyObject *position, *root, *mcts, *game;
    unsigned long long seed;
    int max_nodes, max_slots;
    if (!PyArg_ParseTuple(args, "OOOOKii", &position, &root, &mcts, &game, &seed, &max_nodes, &max_slots))
        return NULL;
    if (max_nodes < 2 || max_slots < 1) {
        PyErr_SetString(PyExc_ValueError, "a tree holds at least 2 nodes and 1 slot");
        return NULL;
    }
    if (!PyTuple_Check(mcts) || !PyTuple_Check(game)) {
        PyErr_Format(PyExc_TypeError, "%s settings: a tuple, not %.100s", PyTuple_Check(mcts) ? "tree" : "mcts",
                     Py_TYPE(PyTuple_Check(mcts) ? game : mcts)->tp_name);
        return NULL;
    }
    PyTree *self = (PyTree *)type->tp_alloc(type, 0);
    if (!self) return NULL;
    Tree *t = &self->tree;
    int codes[TREE_MAX_MOVES], count;
    double priors[TREE_MAX_MOVES];
    if (read_position(position, &t->root) < 0 || read_tree_settings(mcts, &t->s) < 0 ||
        tree_game_read(game, &t->game) < 0)
        goto fail;
    if (tree_game_over(&t->root)) {
        PyErr_SetString(PyExc_ValueError, "the game is over: nothing to search");
        goto fail;
    }
    count = read_root(t, root, codes, priors);
    if (count < 0) goto fail;
    t->max_nodes = max_nodes;
    t->max_slots = max_slots > count ? max_slots : count;
    tree_game_seed(&t->rng, seed);
    if (tree_new_node(t, 1 - t->root.turn) < 0 || !tree_set_moves(t, 0, count, codes, priors)) {
        PyErr_NoMemory();
        goto fail;
    }
    return (PyObject *)self;
fail:
    Py_DECREF(self);
    return NULL;
}

/* run(simulations, node_limit, soft_deadline, hard_deadline, depth_limit) -> True when a limit ended the
 * search: at most `simulations` more, stopping after the one that reaches `node_limit` nodes (0: none),
 * passes a deadline (time.monotonic()'s clock; 0: none) or makes the most-visited line `depth_limit` plies
 * long (0: none). The GIL stays held: another thread may read info() between runs. */
static PyObject *tree_run(PyTree *self, PyObject *args) {
    int simulations, depth_limit;
    long long node_limit;
    double soft, hard;
    if (!PyArg_ParseTuple(args, "iLddi", &simulations, &node_limit, &soft, &hard, &depth_limit)) return NULL;
    Tree *t = &self->tree;
    double deadline = soft > 0 && (hard <= 0 || soft < hard) ? soft : hard;
    for (int k = 0; k < simulations; k++) {
        tree_simulate(t);
        if ((node_limit > 0 && t->nodes_counted >= node_limit) ||
            (deadline > 0 && monotonic_seconds() >= deadline) ||
            (depth_limit > 0 && tree_depth_reached(t, depth_limit)))
            Py_RETURN_TRUE;
    }
    Py_RETURN_FALSE;
}

/* info() -> (best code or None, pv codes, root visits, the best child's mean, 1 when the best move ends the
 * game won (a proven win), seldepth, simulations, nodes) */
static PyObject *tree_info(PyTree *self, PyObject *unused) {
    const Tree *t = &self->tree;
    int pv[TREE_MAX_DEPTH];
    int len = tree_pv(t, pv, TREE_MAX_DEPTH), best = tree_best(t);
    PyObject *codes = PyList_New(len);
    if (!codes) return NULL;
    for (int i = 0; i < len; i++) PyList_SET_ITEM(codes, i, PyLong_FromLong(t->slots[pv[i]].code));
    double mean = 0.5;
    int proven = 0;
    PyObject *code = Py_None;
    if (best >= 0) {
        const Slot *slot = &t->slots[t->nodes[0].first + best];
        const TNode *child = &t->nodes[slot->child];
        if (child->visits) mean = child->total / child->visits;
        proven = child->terminal && child->outcome > 0;
        code = PyLong_FromLong(slot->code);
        if (!code) { Py_DECREF(codes); return NULL; }
    } else {
        Py_INCREF(code);
    }
    return Py_BuildValue("(NNidiiLL)", code, codes, t->nodes[0].visits, mean, proven, t->max_depth, t->simulations,
                         t->nodes_counted);
}

/* root() -> [(code, prior, visits, mean or None)] of the root's candidates, in their order. */
static PyObject *tree_root(PyTree *self, PyObject *unused) {
    const Tree *t = &self->tree;
    const TNode *root = &t->nodes[0];
    PyObject *list = PyList_New(root->nmoves);
    for (int i = 0; list && i < root->nmoves; i++) {
        const Slot *slot = &t->slots[root->first + i];
        const TNode *child = slot->child >= 0 ? &t->nodes[slot->child] : NULL;
        PyObject *item = child && child->visits
            ? Py_BuildValue("(idid)", slot->code, slot->prior, child->visits, child->total / child->visits)
            : Py_BuildValue("(idiO)", slot->code, slot->prior, child ? child->visits : 0, Py_None);
        if (!item) { Py_CLEAR(list); break; }
        PyList_SET_ITEM(list, i, item);
    }
    return list;
}

/* lines(count) -> [(pv codes, visits, mean, proven)] of the `count` most visited root moves (ties to the
 * higher mean, as tree_best), best first: each root move, then the most-visited line below it (MultiPV). */
static PyObject *tree_lines(PyTree *self, PyObject *args) {
    const Tree *t = &self->tree;
    const TNode *root = &t->nodes[0];
    int count;
    if (!PyArg_ParseTuple(args, "i", &count)) return NULL;
    if (count < 0) count = 0;
    int order[TREE_MAX_MOVES], n = 0;
    for (int i = 0; i < root->nmoves; i++) {
        int c = t->slots[root->first + i].child;
        if (c >= 0 && t->nodes[c].visits > 0) order[n++] = i;
    }
    for (int a = 1; a < n; a++) {   /* insertion sort: most visits first, then the higher mean, then slot order */
        int slot = order[a], b = a;
        const TNode *x = &t->nodes[t->slots[root->first + slot].child];
        double qx = x->total / x->visits;
        while (b > 0) {
            const TNode *y = &t->nodes[t->slots[root->first + order[b - 1]].child];
            double qy = y->total / y->visits;
            if (y->visits > x->visits || (y->visits == x->visits && qy >= qx)) break;
            order[b] = order[b - 1];
            b--;
        }
        order[b] = slot;
    }
    if (count > n) count = n;
    PyObject *list = PyList_New(count);
    for (int k = 0; list && k < count; k++) {
        const Slot *slot = &t->slots[root->first + order[k]];
        const TNode *child = &t->nodes[slot->child];
        int pv[TREE_MAX_DEPTH], len = 0, node = slot->child;
        while (len < TREE_MAX_DEPTH - 1) {
            int best = tree_most_visited(t, node);
            if (best < 0) break;
            pv[len++] = best;
            node = t->slots[best].child;
        }
        PyObject *codes = PyList_New(len + 1);
        if (!codes) { Py_CLEAR(list); break; }
        PyList_SET_ITEM(codes, 0, PyLong_FromLong(slot->code));
        for (int i = 0; i < len; i++) PyList_SET_ITEM(codes, i + 1, PyLong_FromLong(t->slots[pv[i]].code));
        PyObject *item = Py_BuildValue("(Nidi)", codes, child->visits, child->total / child->visits,
                                       child->terminal && child->outcome > 0);
        if (!item) { Py_CLEAR(list); break; }
        PyList_SET_ITEM(list, k, item);
    }
    return list;
}

/* size() -> (nodes, candidate slots) the tree holds */
static PyObject *tree_size(PyTree *self, PyObject *unused) {
    return Py_BuildValue("(ii)", self->tree.nnodes, self->tree.nslots);
}

#ifdef TREE_REUSE
/* -- reuse between moves (a game that defines TREE_REUSE, tree_game_same(a, b): one position, and
 * tree_game_may_reach(p, want): 0 when no line from p leads to want, which prunes the search for it) ----------- *
 * advance(position, root, seed) finds `position` among the tree's nodes 1 to TREE_REUSE_PLIES plies below its root
 * (our move and the reply, more where a side passed) and makes it the root: the root gets the caller's candidates
 * `root`, each keeping the subtree it had there; the rest of the old tree is dropped (the kept part is copied into
 * fresh arrays). The same position is not looked for at 0 plies: a search repeated on one position starts afresh,
 * as a search limited by nodes must give the same answer twice. */

#define TREE_REUSE_PLIES 4

/* The node of position `want` among `node`'s (at position p) descendants 1 to `left` plies down, or -1. */
static int tree_find(const Tree *t, int node, const Pos *p, const Pos *want, int left, int depth) {
    if (depth && tree_game_same(p, want)) return node;
    const TNode *n = &t->nodes[node];
    if (!left || n->first < 0) return -1;
    for (int i = 0; i < n->nmoves; i++) {
        const Slot *s = &t->slots[n->first + i];
        if (s->child < 0) continue;
        Pos q = *p;
        tree_game_play(&q, s->code);
        if (!tree_game_may_reach(&q, want)) continue;
        int found = tree_find(t, s->child, &q, want, left - 1, depth + 1);
        if (found >= 0) return found;
    }
    return -1;
}

/* Copies node `from` of t with its subtree into u as node `to` (already made); 0 when u is full. */
static int tree_copy(const Tree *t, int from, Tree *u, int to) {
    const TNode *n = &t->nodes[from];
    u->nodes[to] = *n;
    u->nodes[to].first = -1;
    u->nodes[to].nmoves = 0;
    if (n->first < 0) return 1;
    if (!tree_grow((void **)&u->slots, &u->cap_slots, u->nslots + n->nmoves, u->max_slots, sizeof(Slot))) return 0;
    int first = u->nslots;
    u->nslots += n->nmoves;
    u->nodes[to].first = first;
    u->nodes[to].nmoves = n->nmoves;
    for (int i = 0; i < n->nmoves; i++) {
        u->slots[first + i] = t->slots[n->first + i];
        u->slots[first + i].child = -1;
    }
    for (int i = 0; i < n->nmoves; i++) {
        int c = t->slots[n->first + i].child;
        if (c < 0) continue;
        int d = tree_new_node(u, t->nodes[c].mover);
        if (d < 0) return 0;
        u->slots[first + i].child = d;
        if (!tree_copy(t, c, u, d)) return 0;
    }
    return 1;
}

/* u's root from t's node `found`: the candidates codes/priors, each with the subtree t had below it there, the
 * node's statistics kept; 0 when u is full. A kept child that is not among the first candidates makes the root
 * unordered (selection then looks at every candidate within the widening). */
static int tree_reroot(const Tree *t, int found, Tree *u, int count, const int *codes, const double *priors) {
    if (tree_new_node(u, t->nodes[found].mover) < 0 || !tree_set_moves(u, 0, count, codes, priors)) return 0;
    const TNode *old = &t->nodes[found];
    int tried = 0, prefix = 1;
    u->nodes[0].visits = old->visits;
    u->nodes[0].total = old->total;
    for (int i = 0; i < count; i++) {
        int c = -1;
        for (int j = 0; old->first >= 0 && j < old->nmoves && c < 0; j++)
            if (t->slots[old->first + j].code == codes[i]) c = t->slots[old->first + j].child;
        if (c < 0) { prefix = 0; continue; }
        int d = tree_new_node(u, t->nodes[c].mover);
        if (d < 0) return 0;
        u->slots[u->nodes[0].first + i].child = d;
        tried++;
        if (!prefix) u->nodes[0].ordered = 0;
        if (!tree_copy(t, c, u, d)) return 0;
    }
    u->nodes[0].tried = (short)tried;
    return 1;
}

/* advance(position, root, seed) -> the root visits kept, 0 when `position` was not found (the tree is then
 * unchanged: the caller makes a new one). Found, the tree's generator is seeded afresh with `seed`. */
static PyObject *tree_advance(PyTree *self, PyObject *args) {
    PyObject *position, *root;
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "OOK", &position, &root, &seed)) return NULL;
    Tree *t = &self->tree, u = *t;
    if (read_position(position, &u.root) < 0) return NULL;
    if (tree_game_over(&u.root)) {
        PyErr_SetString(PyExc_ValueError, "the game is over: nothing to search");
        return NULL;
    }
    int codes[TREE_MAX_MOVES];
    double priors[TREE_MAX_MOVES];
    int count = read_root(&u, root, codes, priors);
    if (count < 0) return NULL;
    int found = tree_find(t, 0, &t->root, &u.root, TREE_REUSE_PLIES, 0);
    if (found < 0) return PyLong_FromLong(0);
    u.nodes = NULL;
    u.slots = NULL;
    u.nnodes = u.cap_nodes = u.nslots = u.cap_slots = 0;
    u.nodes_counted = u.simulations = 0;
    u.max_depth = 0;
    if (u.max_slots < count) u.max_slots = count;
    tree_game_seed(&u.rng, seed);
    if (!tree_reroot(t, found, &u, count, codes, priors)) {
        PyMem_RawFree(u.nodes);
        PyMem_RawFree(u.slots);
        return PyErr_NoMemory();
    }
    PyMem_RawFree(t->nodes);
    PyMem_RawFree(t->slots);
    *t = u;
    return PyLong_FromLong(u.nodes[0].visits > 0 ? u.nodes[0].visits : 1);
}
#endif

static PyMethodDef tree_methods[] = {
    {"run", (PyCFunction)tree_run, METH_VARARGS,
     "run(simulations, node_limit, soft_deadline, hard_deadline, depth_limit) -> a limit was reached"},
    {"info", (PyCFunction)tree_info, METH_NOARGS,
     "info() -> (best, pv, visits, mean, proven, seldepth, simulations, nodes)"},
    {"root", (PyCFunction)tree_root, METH_NOARGS, "root() -> [(code, prior, visits, mean or None)]"},
    {"lines", (PyCFunction)tree_lines, METH_VARARGS,
     "lines(count) -> [(pv codes, visits, mean, proven)] of the most visited root moves, best first"},
    {"size", (PyCFunction)tree_size, METH_NOARGS, "size() -> (nodes, slots)"},
#ifdef TREE_REUSE
    {"advance", (PyCFunction)tree_advance, METH_VARARGS,
     "advance(position, root, seed) -> root visits kept: the tree moved on to `position` (0: not found, unchanged)"},
#endif
    {NULL, NULL, 0, NULL},
};

static PyTypeObject TreeType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = TREE_TYPE_NAME,
    .tp_doc = "A search tree (engine/search/native/_tree.h): Tree(position, root, mcts, game, seed, max_nodes, max_slots)",
    .tp_basicsize = sizeof(PyTree),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = tree_new,
    .tp_dealloc = (destructor)tree_dealloc,
    .tp_methods = tree_methods,
};

/* Adds the type `Tree` to the core's module `m`; -1 on failure. */
static int add_tree_type(PyObject *m) {
    if (PyType_Ready(&TreeType) < 0) return -1;
    Py_INCREF(&TreeType);
    if (PyModule_AddObject(m, "Tree", (PyObject *)&TreeType) < 0) {
        Py_DECREF(&TreeType);
        return -1;
    }
    return 0;
}

#endif
