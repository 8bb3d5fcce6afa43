/* FOUNDATIONS' playout core in C: root candidates and epsilon-greedy playouts, for the `fastmc` sparring
 * partner's flat Monte Carlo (engine/search/native/_flat_mc.h, _playout_api.h).
 *
 * On the game's one C model of a position (_position.h): engine/games/foundations/playout_core.py hands it
 * a position, the strategy has the move it answers checked by the rules (check_move), and the tests replay
 * its playouts on FoundationsGame (every move legal, the same end, hands and winner).
 *
 * Root candidates: every legal placement when there are at most WIDTH, else the WIDTH best by a
 * guess (shorter pieces first, a snug fit: few free neighbours on the level), each length that
 * fits keeping at least its best two.
 * Playouts (both sides alike): with chance EPS a uniformly drawn legal placement; else the
 * shortest length that fits (with chance SKIP the next length that fits instead), on the snuggest
 * of SAMPLE drawn spots (ties at random).
 */
#include "_flat_mc.h"
#include "_position.h"

#define NPARAMS 7
#define MAXMOVES 1000 /* five lengths of at most 200 placements */
#define MAX_PLIES 64  /* 30 placements and 2 passes at most */

enum { EPS, SKIP, SAMPLE, MARGIN_W, MARGIN_SCALE, WIDTH, SNUG_W };

static const char *const PARAM_NAMES[NPARAMS] = {"eps", "skip", "sample", "margin_weight", "margin_scale", "width",
                                                  "snug_weight"};
static const double PARAM_LO[NPARAMS] = {0, 0, 1, 0, 1, 1, 0};
static const double PARAM_HI[NPARAMS] = {1, 1, 200, 1, 100, 256, 10};

/* -- moves ----------------------------------------------------------------------------------- */

typedef struct {
    int seg;   /* -1: a pass */
    int level;
} Move;

/* The side to move's placements by length on the level it must play: its level, else the next
 * (FoundationsGame.placement_groups). Returns that level, 0 when it must pass. */
static int groups(const Pos *p, u128 *hs, u128 *vs, int *count) {
    if (is_over(p)) return 0;
    int c = p->turn, minimum = p->minlen[c];
    for (int lv = p->level[c]; lv <= p->level[c] + 1; lv++, minimum = 0) {
        if (!buildable(p, c, lv)) continue;
        u128 free = free_cells(p, lv);
        int total = 0;
        for (int n = 3; n <= 7; n++) {
            hs[n] = vs[n] = 0;
            count[n] = 0;
            if (n < minimum || !p->hand[c][n]) continue;
            starts(p, c, lv, n, free, &hs[n], &vs[n]);
            count[n] = popc(hs[n]) + popc(vs[n]);
            total += count[n];
        }
        if (total) return lv;
    }
    return 0;
}

static void play(Pos *p, const Move *m) {
    if (m->seg < 0) pass_turn(p);
    else place(p, m->seg, m->level);
}

#define MEASURE_SIGN -1 /* the hand value left: lower is better */
static int playout_measure(const Pos *p, int color) { return hand_value(p, color); }

/* -- the playout policy ------------------------------------------------------------------------- */

static Move playout_move(const Pos *p, const double *prm, Rng *r) {
    u128 hs[8], vs[8];
    int count[8];
    int lv = groups(p, hs, vs, count);
    if (!lv) return (Move){-1, 0};
    int n = 3;
    if (rng_unit(r) < prm[EPS]) {
        int total = 0;
        for (int m = 3; m <= 7; m++) total += count[m];
        int pick = rng_below(r, total);
        for (n = 3; pick >= count[n]; n++) pick -= count[n];
        return (Move){seg_at(hs[n], vs[n], n, pick), lv};
    }
    while (!count[n]) n++;
    if (rng_unit(r) < prm[SKIP]) {
        int m = n + 1;
        while (m <= 7 && !count[m]) m++;
        if (m <= 7) n = m;
    }
    u128 free = free_cells(p, lv);
    int k = (int)prm[SAMPLE], total = count[n], best = -1;
    double best_key = 1e300;
    for (int i = 0; i < k && i < total; i++) {
        int seg = seg_at(hs[n], vs[n], n, k >= total ? i : rng_below(r, total));
        double key = popc(SEG[seg].nb & free) + rng_unit(r);
        if (key < best_key) { best_key = key; best = seg; }
    }
    return (Move){best, lv};
}

/* -- root candidates -------------------------------------------------------------------------- */

typedef struct {
    double score;
    Move move;
    int order;
} Scored;

#define BEST_FIRST_T Scored
#include "_best_first.h" /* best first: higher guess, equal guesses in the rules' order */

static int candidates(const Pos *p, const double *prm, Move *out) {
    u128 hs[8], vs[8];
    int count[8];
    if (is_over(p)) return 0;
    int lv = groups(p, hs, vs, count);
    if (!lv) { out[0] = (Move){-1, 0}; return 1; }
    u128 free = free_cells(p, lv);
    Scored all[MAXMOVES];
    int total = 0, shortest = 0;
    for (int n = 3; n <= 7; n++) {
        if (!count[n]) continue;
        if (!shortest) shortest = n;
        for (int i = 0; i < count[n]; i++) {
            int seg = seg_at(hs[n], vs[n], n, i);
            double guess = -0.7 * (n - shortest) + 0.35 * VALUE[n] - prm[SNUG_W] * popc(SEG[seg].nb & free);
            all[total] = (Scored){guess, {seg, lv}, total};
            total++;
        }
    }
    int width = (int)prm[WIDTH], k = 0;
    if (width > MAX_ARMS) width = MAX_ARMS;
    if (total <= width) {
        best_first(all, total, total);
        for (int i = 0; i < total; i++) out[k++] = all[i].move;
        return k;
    }
    /* each length's best two first (best first), then the best of the rest: a full sort's order, without it */
    int top[8][2];
    for (int n = 0; n < 8; n++) top[n][0] = top[n][1] = -1;
    for (int i = 0; i < total; i++) {
        int *t = top[SEG[all[i].move.seg].length];
        if (t[0] < 0 || better(&all[i], &all[t[0]])) { t[1] = t[0]; t[0] = i; }
        else if (t[1] < 0 || better(&all[i], &all[t[1]])) t[1] = i;
    }
    Scored firsts[10];
    unsigned char taken[MAXMOVES] = {0};
    int nfirst = 0, nrest = 0;
    for (int n = 3; n <= 7; n++)
        for (int j = 0; j < 2; j++)
            if (top[n][j] >= 0) { firsts[nfirst++] = all[top[n][j]]; taken[top[n][j]] = 1; }
    best_first(firsts, nfirst, nfirst);
    for (int i = 0; i < nfirst; i++) out[k++] = firsts[i].move;
    for (int i = 0; i < total; i++)
        if (!taken[i]) all[nrest++] = all[i];
    if (k < width) {
        int more = best_first(all, nrest, width - k);
        for (int i = 0; i < more; i++) out[k++] = all[i].move;
    }
    return k;
}

/* -- Python interface ---------------------------------------------------------------------------- */

static PyObject *move_tuple(const Move *m) { return Py_BuildValue("(ii)", m->seg, m->level); }

#include "_playout_api.h"

/* -- the treemc partner's tree over these candidates and playouts (engine/search/native/_playout_uct.h) -- */

#define UCT_TYPE_NAME "engine.games.foundations._playout_core.UctTree"
static const Move PASS_MOVE = {-1, 0};

static inline int same_move(const Move *a, const Move *b) { return a->seg == b->seg && a->level == b->level; }

/* One side's pieces on one level in two positions: the same segments, in any order. */
static int same_level(const Pos *a, const Pos *b, int c, int level) {
    return a->npieces[c][level] == b->npieces[c][level] && a->own[c][level] == b->own[c][level] &&
           same_segments(a->pieces[c][level], b->pieces[c][level], a->npieces[c][level]);
}

/* One position: the same pieces on every level (in any order), hands, levels, shortest lengths, turn, passes. */
static int same_position(const Pos *a, const Pos *b) {
    if (a->turn != b->turn || a->npasses != b->npasses || a->top != b->top) return 0;
    for (int i = 0; i < a->npasses; i++)
        if (a->passes[i] != b->passes[i]) return 0;
    for (int c = 0; c < 2; c++) {
        if (a->level[c] != b->level[c] || a->minlen[c] != b->minlen[c] ||
            memcmp(a->hand[c], b->hand[c], sizeof(a->hand[c])))
            return 0;
        for (int level = 0; level < SLOTS; level++)
            if (!same_level(a, b, c, level)) return 0;
    }
    return 1;
}

#include "_playout_uct.h"

static PyMethodDef methods[] = {
    PLAYOUT_CORE_METHODS,
    {NULL, NULL, 0, NULL},
};

CORE_MODULE(_playout_core, "FOUNDATIONS' playout core (C): candidates, playouts, flat Monte Carlo and the treemc "
            "tree.", methods, build_tables, add_uct_type)
