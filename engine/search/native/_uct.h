/* UCT, a Monte Carlo tree search kept between moves: the `treemc` sparring partner's tree (SPEC 9.7), over a
 * game's own position, pruned candidates and playouts, and its Python type `UctTree`.
 *
 * Why a second tree beside _tree.h: _tree.h is the search's PUCT, step for step engine/search/mcts.py, with
 * priors from the search's knowledge, built afresh at every move. This one is a player of another kind, an
 * outsider's: plain UCB1 over the candidates the game's playout core prunes (no priors: they are tried in
 * the core's order), its playouts to the end as leaves, and the tree kept from one move to the next.
 *
 * The algorithm. A node's candidates are built once it has `expand_visits` visits (the root's at once): the
 * game's `root` list at the root, its narrower inner list below. A child node is made when its move is first
 * tried, and valued by one playout (exactly at a game end). Selection maximises
 * mean + c * sqrt(ln N / n) over the candidates; an untried one counts as `fpu` (1 or more: every candidate is
 * tried once, in the core's order, before any twice). Values are kept for the player who made the move into
 * a node (turns need not alternate). The answer is the most visited root move, ties to the higher mean.
 *
 * Reuse: advance(position) looks for the new position among the tree's nodes at most UCT_REUSE_PLIES plies
 * below the root (our move, the reply, more where a side has passed) and makes it the root: its subtree is
 * copied into fresh arrays, the rest dropped; its candidates become the root's list, the children already
 * searched kept (those the root list lacks go after it). Not found: a new tree.
 *
 * Memory is bounded by max_nodes and max_slots (arrays grown by doubling); once either is full the tree stops
 * growing and values by playouts where it would have made a node. Random numbers are the tree's own
 * generator, seeded by the caller: a search limited by plies is reproducible.
 *
 * The game defines before including this: its Pos (with `turn`) and Move, Rng (_flat_mc.h), read_position,
 * UCT_MAX_MOVES (the most candidates a position has), UCT_TYPE_NAME, UctGame (its numbers) and
 *   int uct_game_read(PyObject *settings, UctGame *g): its numbers from Python (-1 with an exception set);
 *   int uct_moves(const UctGame *g, const Pos *p, int root, Move *out): the candidates, best first; 0: a pass;
 *   Move uct_pass(void); void uct_play(Pos *p, const Move *m);
 *   int uct_same_move(const Move *a, const Move *b); int uct_same_position(const Pos *a, const Pos *b);
 *   int uct_over(const Pos *p); double uct_end(const UctGame *g, const Pos *p, int color): a game end's value;
 *   double uct_playout(const UctGame *g, const Pos *p, Rng *rng, long long *plies, int color): one playout's
 *     value for `color`, its plies added to *plies;
 *   PyObject *uct_move_object(const Move *m): a move for Python.
 */
#ifndef NATIVE_UCT_H
#define NATIVE_UCT_H

#include <math.h>

#define UCT_MAX_DEPTH 256
#define UCT_REUSE_PLIES 4

typedef struct {
    double total;      /* values summed for `mover` */
    double exact;      /* a game end's value for `mover` */
    int visits, first; /* first: the node's first slot, -1 until its candidates are built */
    short nmoves, tried;
    signed char mover, terminal;
} UctNode;

typedef struct {
    int child; /* -1 until the move is tried */
    Move move;
} UctSlot;

typedef struct {
    double c, fpu;
    int expand_visits;
} UctSettings;

typedef struct {
    UctNode *nodes;
    UctSlot *slots;
    int nnodes, cap_nodes, max_nodes, nslots, cap_slots, max_slots;
    int full; /* the arrays are full: the tree no longer grows */
    Pos root;
    Rng rng;
    UctSettings s;
    UctGame game;
    long long plies, simulations; /* since the tree was made or advanced */
    int max_depth;
} Uct;

static int uct_grow(void **items, int *cap, int need, int limit, size_t size) {
    if (need > limit) return 0;
    if (need <= *cap) return 1;
    int wanted = *cap ? *cap : 4096;
    while (wanted < need) wanted = wanted > limit / 2 ? limit : wanted * 2;
    if (wanted > limit) wanted = limit;
    void *grown = PyMem_RawRealloc(*items, (size_t)wanted * size);
    if (!grown) return 0;
    *items = grown;
    *cap = wanted;
    return 1;
}

static int uct_new_node(Uct *t, int mover) {
    if (!uct_grow((void **)&t->nodes, &t->cap_nodes, t->nnodes + 1, t->max_nodes, sizeof(UctNode))) return -1;
    UctNode *n = &t->nodes[t->nnodes];
    memset(n, 0, sizeof(*n));
    n->first = -1;
    n->mover = (signed char)mover;
    return t->nnodes++;
}

/* Gives `node` the candidates of p (the root list at the root); 0 when the slots are full. */
static int uct_expand(Uct *t, int node, const Pos *p, int root) {
    Move moves[UCT_MAX_MOVES];
    int count = uct_moves(&t->game, p, root, moves);
    if (!count) { moves[0] = uct_pass(); count = 1; }
    if (!uct_grow((void **)&t->slots, &t->cap_slots, t->nslots + count, t->max_slots, sizeof(UctSlot))) return 0;
    for (int i = 0; i < count; i++) {
        t->slots[t->nslots + i].child = -1;
        t->slots[t->nslots + i].move = moves[i];
    }
    UctNode *n = &t->nodes[node];
    n->first = t->nslots;
    n->nmoves = (short)count;
    n->tried = 0;
    t->nslots += count;
    return 1;
}

/* The slot (offset from the node's first) UCB1 picks. */
static int uct_select(const Uct *t, const UctNode *n) {
    double log_n = log(n->visits + 1.0), best_score = -1e300;
    int best = 0;
    const UctSlot *slots = &t->slots[n->first];
    for (int i = 0; i < n->nmoves; i++) {
        int c = slots[i].child;
        double score = t->s.fpu;
        if (c >= 0 && t->nodes[c].visits) {
            const UctNode *child = &t->nodes[c];
            score = child->total / child->visits + t->s.c * sqrt(log_n / child->visits);
        }
        if (score > best_score) { best_score = score; best = i; }
    }
    return best;
}

/* A position's value for `*value_for`: exact at a game end, else one playout. */
static double uct_value(Uct *t, const Pos *p, int mover, int *value_for) {
    if (uct_over(p)) {
        *value_for = mover;
        return uct_end(&t->game, p, mover);
    }
    *value_for = p->turn;
    return uct_playout(&t->game, p, &t->rng, &t->plies, p->turn);
}

/* One simulation: select down the tree, make and value one node (or value a leaf again), back the value up. */
static void uct_simulate(Uct *t) {
    Pos p = t->root;
    int path[UCT_MAX_DEPTH + 2], depth = 0, node = 0, value_for = 0;
    double value;
    path[0] = 0;
    for (;;) {
        UctNode *n = &t->nodes[node];
        if (n->terminal) { value_for = n->mover; value = n->exact; break; }
        if (n->first < 0) {
            if (uct_over(&p)) {
                n->terminal = 1;
                n->exact = uct_end(&t->game, &p, n->mover);
                value_for = n->mover;
                value = n->exact;
                break;
            }
            int grow = n->visits >= t->s.expand_visits && depth < UCT_MAX_DEPTH && !t->full;
            if (grow && !uct_expand(t, node, &p, node == 0)) { t->full = 1; grow = 0; }
            if (!grow) { value = uct_value(t, &p, n->mover, &value_for); break; }
            n = &t->nodes[node];
        }
        int slot = n->first + uct_select(t, n), mover = p.turn;
        uct_play(&p, &t->slots[slot].move);
        t->plies++;
        int child = t->slots[slot].child;
        if (child >= 0) { node = child; path[++depth] = node; continue; }
        child = t->full ? -1 : uct_new_node(t, mover);
        if (child < 0) { /* no room for a node: the position reached is valued without one */
            t->full = 1;
            value = uct_value(t, &p, mover, &value_for);
            break;
        }
        t->slots[slot].child = child;
        t->nodes[node].tried++;
        node = child;
        path[++depth] = node;
        value = uct_value(t, &p, mover, &value_for);
        if (uct_over(&p)) { t->nodes[node].terminal = 1; t->nodes[node].exact = value; }
        break;
    }
    if (depth > t->max_depth) t->max_depth = depth;
    for (int k = 0; k <= depth; k++) {
        UctNode *n = &t->nodes[path[k]];
        n->visits++;
        n->total += n->mover == value_for ? value : 1.0 - value;
    }
    t->simulations++;
}

/* The most visited child's slot of `node` (ties: the higher mean, then the first); -1 when none was visited. */
static int uct_best(const Uct *t, int node) {
    const UctNode *n = &t->nodes[node];
    if (n->first < 0) return -1;
    int best = -1, best_visits = 0;
    double best_mean = -1.0;
    for (int i = 0; i < n->nmoves; i++) {
        int c = t->slots[n->first + i].child;
        if (c < 0 || !t->nodes[c].visits) continue;
        double mean = t->nodes[c].total / t->nodes[c].visits;
        if (t->nodes[c].visits > best_visits || (t->nodes[c].visits == best_visits && mean > best_mean)) {
            best = n->first + i;
            best_visits = t->nodes[c].visits;
            best_mean = mean;
        }
    }
    return best;
}

/* -- reuse ------------------------------------------------------------------------------------------------- */

/* The node of position `want` among `node`'s (at position p) descendants at most `left` plies down, or -1. */
static int uct_find(const Uct *t, int node, const Pos *p, const Pos *want, int left) {
    if (uct_same_position(p, want)) return node;
    const UctNode *n = &t->nodes[node];
    if (!left || n->first < 0) return -1;
    for (int i = 0; i < n->nmoves; i++) {
        const UctSlot *s = &t->slots[n->first + i];
        if (s->child < 0) continue;
        Pos q = *p;
        uct_play(&q, &s->move);
        int found = uct_find(t, s->child, &q, want, left - 1);
        if (found >= 0) return found;
    }
    return -1;
}

/* Copies node `from` of t with its subtree into u as node `to` (already made); 0 when u is full. */
static int uct_copy(const Uct *t, int from, Uct *u, int to) {
    const UctNode *n = &t->nodes[from];
    u->nodes[to] = *n;
    u->nodes[to].first = -1;
    u->nodes[to].nmoves = 0;
    if (n->first < 0) return 1;
    if (!uct_grow((void **)&u->slots, &u->cap_slots, u->nslots + n->nmoves, u->max_slots, sizeof(UctSlot))) return 0;
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
        int d = uct_new_node(u, t->nodes[c].mover);
        if (d < 0) return 0;
        u->slots[first + i].child = d;
        if (!uct_copy(t, c, u, d)) return 0;
    }
    return 1;
}

/* Whether `move` is among the `count` slots from `first`, searched (child made) ones only. */
static int uct_searched_among(const Uct *u, int first, int count, const Move *move, int *child) {
    for (int i = 0; first >= 0 && i < count; i++) {
        const UctSlot *s = &u->slots[first + i];
        if (s->child >= 0 && uct_same_move(&s->move, move)) { *child = s->child; return 1; }
    }
    return 0;
}

/* The root's candidates rebuilt as the root list, the children already searched kept; 0 when out of room. */
static int uct_root_list(Uct *u) {
    UctNode *r = &u->nodes[0];
    int old_first = r->first, old_n = r->nmoves;
    Move moves[UCT_MAX_MOVES];
    int count = uct_moves(&u->game, &u->root, 1, moves);
    if (!count) { moves[0] = uct_pass(); count = 1; }
    int room = count + old_n > UCT_MAX_MOVES ? UCT_MAX_MOVES : count + old_n;
    if (!uct_grow((void **)&u->slots, &u->cap_slots, u->nslots + room, u->max_slots, sizeof(UctSlot))) return 0;
    int first = u->nslots, k = 0, tried = 0;
    for (int j = 0; j < count && k < room; j++, k++) {
        int child = -1;
        uct_searched_among(u, old_first, old_n, &moves[j], &child);
        u->slots[first + k].move = moves[j];
        u->slots[first + k].child = child;
        tried += child >= 0;
    }
    for (int i = 0; old_first >= 0 && i < old_n && k < room; i++) {
        const UctSlot *s = &u->slots[old_first + i];
        int listed = 0;
        for (int j = 0; j < count && !listed; j++) listed = uct_same_move(&moves[j], &s->move);
        if (s->child >= 0 && !listed) { u->slots[first + k++] = *s; tried++; }
    }
    u->nslots += k;
    r = &u->nodes[0];
    r->first = first;
    r->nmoves = (short)k;
    r->tried = (short)tried;
    return 1;
}

static void uct_free(Uct *t) {
    PyMem_RawFree(t->nodes);
    PyMem_RawFree(t->slots);
    t->nodes = NULL;
    t->slots = NULL;
    t->nnodes = t->cap_nodes = t->nslots = t->cap_slots = 0;
}

/* An empty tree at t->root: the root node and its candidates. 0, or -1 with MemoryError set. */
static int uct_start(Uct *t) {
    t->nnodes = t->nslots = 0;
    t->full = 0;
    t->plies = t->simulations = 0;
    t->max_depth = 0;
    if (uct_new_node(t, 1 - t->root.turn) < 0 || !uct_expand(t, 0, &t->root, 1)) { PyErr_NoMemory(); return -1; }
    return 0;
}

/* -- the Python type ------------------------------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    Uct t;
} PyUct;

static void pyuct_dealloc(PyUct *self) {
    uct_free(&self->t);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* tree settings: (c, fpu, expand_visits) */
static int uct_read_settings(PyObject *o, UctSettings *s) {
    if (require_tuple(o, "tree settings") < 0 || !PyArg_ParseTuple(o, "ddi", &s->c, &s->fpu, &s->expand_visits))
        return -1;
    if (!(s->c >= 0 && s->c <= 100) || !(s->fpu >= 0 && s->fpu <= 100) || s->expand_visits < 1 ||
        s->expand_visits > 1000) {
        PyErr_SetString(PyExc_ValueError, "tree settings: c and fpu 0 to 100, expand_visits 1 to 1000");
        return -1;
    }
    return 0;
}

/* UctTree(position, game settings, tree settings, seed, max_nodes, max_slots) */
static PyObject *pyuct_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    PyObject *position, *game, *tree;
    unsigned long long seed;
    int max_nodes, max_slots;
    if (!PyArg_ParseTuple(args, "OOOKii", &position, &game, &tree, &seed, &max_nodes, &max_slots)) return NULL;
    if (max_nodes < 2 || max_slots < UCT_MAX_MOVES) {
        PyErr_Format(PyExc_ValueError, "a tree holds at least 2 nodes and %d slots", UCT_MAX_MOVES);
        return NULL;
    }
    PyUct *self = (PyUct *)type->tp_alloc(type, 0);
    if (!self) return NULL;
    Uct *t = &self->t;
    if (read_position(position, &t->root) < 0 || uct_game_read(game, &t->game) < 0 ||
        uct_read_settings(tree, &t->s) < 0)
        goto fail;
    if (uct_over(&t->root)) { PyErr_SetString(PyExc_ValueError, "the game is over: nothing to search"); goto fail; }
    t->rng = seed;
    t->max_nodes = max_nodes;
    t->max_slots = max_slots;
    if (uct_start(t) < 0) goto fail;
    return (PyObject *)self;
fail:
    Py_DECREF(self);
    return NULL;
}

/* run(simulations, deadline, ply_limit) -> True when a limit ended it: at most `simulations` more, stopping
 * after the one that passes the deadline (time.monotonic()'s clock; 0: none) or brings the plies played since
 * the tree was made or advanced to ply_limit (0: none). The GIL stays held (a few ms a call). */
static PyObject *pyuct_run(PyUct *self, PyObject *args) {
    int simulations;
    double deadline;
    long long ply_limit;
    if (!PyArg_ParseTuple(args, "idL", &simulations, &deadline, &ply_limit)) return NULL;
    for (int k = 0; k < simulations; k++) {
        uct_simulate(&self->t);
        if ((deadline > 0 && monotonic_seconds() >= deadline) || (ply_limit > 0 && self->t.plies >= ply_limit))
            Py_RETURN_TRUE;
    }
    Py_RETURN_FALSE;
}

/* advance(position) -> the root visits kept: `position`'s subtree becomes the tree (0: a new tree) */
static PyObject *pyuct_advance(PyUct *self, PyObject *args) {
    PyObject *position;
    if (!PyArg_ParseTuple(args, "O", &position)) return NULL;
    Pos want;
    if (read_position(position, &want) < 0) return NULL;
    if (uct_over(&want)) { PyErr_SetString(PyExc_ValueError, "the game is over: nothing to search"); return NULL; }
    Uct *t = &self->t, u = *t;
    int found = uct_find(t, 0, &t->root, &want, UCT_REUSE_PLIES);
    u.nodes = NULL;
    u.slots = NULL;
    u.cap_nodes = u.cap_slots = u.nnodes = u.nslots = 0;
    u.root = want;
    u.full = 0;
    u.plies = u.simulations = 0;
    u.max_depth = 0;
    int kept = 0;
    if (found >= 0 && uct_new_node(&u, t->nodes[found].mover) == 0 && uct_copy(t, found, &u, 0) && uct_root_list(&u)) {
        kept = u.nodes[0].visits;
    } else {
        uct_free(&u);
        u.root = want;
        if (uct_start(&u) < 0) { uct_free(&u); return NULL; }
    }
    uct_free(t);
    *t = u;
    return PyLong_FromLong(kept);
}

/* info() -> (best move or None, the most visited line, root visits, the best move's mean, simulations, plies,
 * the deepest simulation, nodes) */
static PyObject *pyuct_info(PyUct *self, PyObject *unused) {
    const Uct *t = &self->t;
    PyObject *pv = PyList_New(0);
    if (!pv) return NULL;
    int node = 0, best_slot = uct_best(t, 0);
    double mean = 0.5;
    if (best_slot >= 0) {
        const UctNode *c = &t->nodes[t->slots[best_slot].child];
        mean = c->total / c->visits;
    }
    for (int d = 0; d < UCT_MAX_DEPTH; d++) {
        int s = uct_best(t, node);
        if (s < 0) break;
        PyObject *m = uct_move_object(&t->slots[s].move);
        if (!m || PyList_Append(pv, m) < 0) { Py_XDECREF(m); Py_DECREF(pv); return NULL; }
        Py_DECREF(m);
        node = t->slots[s].child;
    }
    PyObject *best = best_slot >= 0 ? uct_move_object(&t->slots[best_slot].move) : Py_NewRef(Py_None);
    if (!best) { Py_DECREF(pv); return NULL; }
    return Py_BuildValue("(NNidLLii)", best, pv, t->nodes[0].visits, mean, t->simulations, t->plies, t->max_depth,
                         t->nnodes);
}

/* root() -> [(move, visits, mean or None)] of the root's candidates, in their order */
static PyObject *pyuct_root(PyUct *self, PyObject *unused) {
    const Uct *t = &self->t;
    const UctNode *r = &t->nodes[0];
    PyObject *list = PyList_New(r->nmoves);
    for (int i = 0; list && i < r->nmoves; i++) {
        const UctSlot *s = &t->slots[r->first + i];
        PyObject *m = uct_move_object(&s->move), *item;
        if (!m) { Py_CLEAR(list); break; }
        if (s->child >= 0 && t->nodes[s->child].visits)
            item = Py_BuildValue("(Nid)", m, t->nodes[s->child].visits,
                                 t->nodes[s->child].total / t->nodes[s->child].visits);
        else
            item = Py_BuildValue("(NiO)", m, 0, Py_None);
        if (!item) { Py_CLEAR(list); break; }
        PyList_SET_ITEM(list, i, item);
    }
    return list;
}

/* size() -> (nodes, candidate slots) the tree holds */
static PyObject *pyuct_size(PyUct *self, PyObject *unused) {
    return Py_BuildValue("(ii)", self->t.nnodes, self->t.nslots);
}

static PyMethodDef pyuct_methods[] = {
    {"run", (PyCFunction)pyuct_run, METH_VARARGS, "run(simulations, deadline, ply_limit) -> a limit ended it"},
    {"advance", (PyCFunction)pyuct_advance, METH_VARARGS, "advance(position) -> root visits kept"},
    {"info", (PyCFunction)pyuct_info, METH_NOARGS,
     "info() -> (best, pv, visits, mean, simulations, plies, seldepth, nodes)"},
    {"root", (PyCFunction)pyuct_root, METH_NOARGS, "root() -> [(move, visits, mean or None)]"},
    {"size", (PyCFunction)pyuct_size, METH_NOARGS, "size() -> (nodes, slots)"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject UctType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = UCT_TYPE_NAME,
    .tp_doc = "UCT kept between moves (engine/search/native/_uct.h): "
              "UctTree(position, game settings, tree settings, seed, max_nodes, max_slots)",
    .tp_basicsize = sizeof(PyUct),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = pyuct_new,
    .tp_dealloc = (destructor)pyuct_dealloc,
    .tp_methods = pyuct_methods,
};

/* Adds the type `UctTree` to the core's module `m`; -1 on failure. */
static int add_uct_type(PyObject *m) {
    if (PyType_Ready(&UctType) < 0) return -1;
    Py_INCREF(&UctType);
    if (PyModule_AddObject(m, "UctTree", (PyObject *)&UctType) < 0) {
        Py_DECREF(&UctType);
        return -1;
    }
    return 0;
}

#endif
