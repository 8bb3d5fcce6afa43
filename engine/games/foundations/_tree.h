/* FOUNDATIONS' search tree in C: engine/search/mcts.py's PUCT with progressive widening, over the
 * C core's position, ordering and leaf values (included by _core.c, which defines those).
 *
 * Why: with its leaves and ordering in C, FOUNDATIONS' search still spent most of a simulation in
 * Python (selection, pushing moves on FoundationsGame, node objects). Here the whole simulation is C,
 * so a 100 ms move runs several times the simulations; three times the time was worth about +250 Elo
 * in self-play (docs/benchmarks.md).
 *
 * The algorithm is mcts.py's, step for step: selection maximises Q + c_puct * P * sqrt(N + 1) / (1 + n)
 * over the first widen_base + widen_factor * N ** widen_power candidates (an untried child counts as its
 * parent's value minus fpu_reduction); a node's candidates (the cheap guesses' best inner_max, softmax
 * priors) are built at its second visit; a new leaf is valued leaf_mix x the static model + the rest x
 * one playout; game ends are exact and remembered; statistics are kept for the player who made the
 * move. The random numbers are the tree's own (seeded by the caller): a search limited by
 * simulations or nodes is reproducible.
 *
 * Memory is bounded: the node and candidate arrays grow by doubling up to `max_nodes` and
 * `max_slots`; once either is full the tree stops growing and its simulations value a leaf again
 * where they would have built a node (a very long `go infinite` keeps refining, in fixed memory).
 */
#ifndef FOUNDATIONS_TREE_H
#define FOUNDATIONS_TREE_H

typedef struct {
    double total, exact;   /* total: summed values for `mover`; exact: a game end's value for `mover` */
    int visits, first;     /* first: the node's first candidate slot, -1 until its candidates are built */
    short nmoves, tried;   /* candidates, and children built so far */
    signed char mover, terminal, ordered, outcome; /* outcome of a game end: 1 `mover` won, -1 lost, 0 drawn */
} TNode;

typedef struct {
    int child;  /* node index, -1 until built */
    short code; /* segment index * 16 + level, -1 for a pass */
    double prior;
} Slot;

typedef struct {
    double c_puct, fpu_reduction, widen_factor, widen_power, temperature, leaf_mix, deviate, wdl_weight,
        margin_scale, bias, weights[NFEATURES];
    int widen_base, inner_max, playout_plies, sample;
} TreeSettings;

typedef struct {
    TNode *nodes;
    Slot *slots;
    int nnodes, cap_nodes, max_nodes, nslots, cap_slots, max_slots;
    Pos root;
    Rng rng;
    TreeSettings s;
    long long nodes_counted; /* positions reached by a move, in the tree or in a playout (`info nodes`) */
    long long simulations;
    int max_depth;
    Guess *guesses; /* scratch for cheap_guesses */
} Tree;

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double logistic(double x) {
    if (x > 40) return 1.0;
    if (x < -40) return 0.0;
    return 1.0 / (1.0 + exp(-x));
}

/* value.end_value: a game end for `color`, win/draw/loss blended with the hand-value margin. */
static double end_value(const TreeSettings *s, int win, int dark, int light, int color) {
    int margin = (color ? dark : light) - (color ? light : dark);
    double wdl = win < 0 ? 0.5 : (win == color ? 1.0 : 0.0);
    return s->wdl_weight * wdl + (1 - s->wdl_weight) * (0.5 + 0.5 * tanh(margin / s->margin_scale));
}

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
static int tree_set_moves(Tree *t, int node, int count, const short *codes, const double *weights) {
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

/* An inner node's candidates: the best inner_max cheap guesses, priors exp((guess - best) / temperature);
 * a pass when the mover has no placement. */
static int tree_expand(Tree *t, int node, const Pos *p) {
    short codes[MAX_GUESSES];
    double weights[MAX_GUESSES];
    int count = cheap_guesses(p, t->guesses);
    if (count > t->s.inner_max) count = t->s.inner_max;
    for (int i = 0; i < count; i++) {
        codes[i] = (short)(t->guesses[i].seg * 16 + t->guesses[i].level);
        weights[i] = exp((t->guesses[i].score - t->guesses[0].score) / t->s.temperature);
    }
    if (!count) {
        codes[0] = -1;
        weights[0] = 1.0;
        count = 1;
    }
    return tree_set_moves(t, node, count, codes, weights);
}

/* FoundationsKnowledge.leaf_value for the side to move of the unfinished `p`. */
static double tree_leaf(Tree *t, const Pos *p) {
    const TreeSettings *s = &t->s;
    int me = p->turn;
    double model = model_value(p, s->weights, s->bias);
    if (s->leaf_mix >= 1) return model;
    Pos q = *p;
    t->nodes_counted += play_out(&q, s->playout_plies, s->deviate, s->sample, &t->rng, NULL);
    double played;
    if (is_over(&q)) played = end_value(s, winner(&q), hand_value(&q, 0), hand_value(&q, 1), me);
    else played = logistic((hand_value(&q, 1 - me) - hand_value(&q, me)) / s->margin_scale);
    return s->leaf_mix * model + (1 - s->leaf_mix) * played;
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

/* One simulation (mcts.MCTS.simulate): select down the tree, build or value one leaf, back it up. */
static void tree_simulate(Tree *t) {
    Pos p = t->root;
    int path[MAX_PLIES + 2], depth = 0, node = 0, value_for;
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
            if (is_over(&p)) {
                int win = winner(&p);
                n->terminal = 1;
                n->exact = end_value(&t->s, win, hand_value(&p, 0), hand_value(&p, 1), n->mover);
                n->outcome = (signed char)(win < 0 ? 0 : (win == n->mover ? 1 : -1));
                value_for = n->mover;
                value = n->exact;
                break;
            }
            /* A new leaf is only valued; its candidates wait for its second visit. A full tree values it again. */
            if (n->visits == 0 || !tree_expand(t, node, &p)) {
                value = tree_leaf(t, &p);
                value_for = p.turn;
                break;
            }
            n = &t->nodes[node];
        }
        int i = tree_select(t, n), mover = p.turn, slot = n->first + i, code = t->slots[slot].code;
        if (code < 0) pass_turn(&p);
        else place(&p, code >> 4, code & 15);
        t->nodes_counted++;
        int child = t->slots[slot].child;
        if (child < 0) {
            child = tree_new_node(t, mover);
            if (child < 0) { /* the tree is full: value the position this move reached, without a node */
                if (is_over(&p)) {
                    value_for = mover;
                    value = end_value(&t->s, winner(&p), hand_value(&p, 0), hand_value(&p, 1), mover);
                } else {
                    value = tree_leaf(t, &p);
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
static int tree_best(const Tree *t, int node) {
    const TNode *n = &t->nodes[node];
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

/* The most-visited line from the root (first of equals), at most `max` plies, as slot indices. */
static int tree_pv(const Tree *t, int *slots, int max) {
    int node = 0, len = 0;
    while (len < max) {
        const TNode *n = &t->nodes[node];
        if (n->first < 0) break;
        int best = -1, best_visits = 0;
        for (int i = 0; i < n->nmoves; i++) {
            int c = t->slots[n->first + i].child;
            if (c >= 0 && t->nodes[c].visits > best_visits) {
                best = n->first + i;
                best_visits = t->nodes[c].visits;
            }
        }
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
        const TNode *n = &t->nodes[node];
        if (n->terminal) return 1;
        if (n->first < 0) return 0;
        int best = -1, best_visits = 0;
        for (int i = 0; i < n->nmoves; i++) {
            int c = t->slots[n->first + i].child;
            if (c >= 0 && t->nodes[c].visits > best_visits) {
                best = c;
                best_visits = t->nodes[c].visits;
            }
        }
        if (best < 0) return 0;
        node = best;
    }
    return 1;
}

#endif
