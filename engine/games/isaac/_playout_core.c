/* ISAAC's playout core in C: its model of the position, root candidates and epsilon-greedy playouts, for
 * the `fastmc` sparring partner's flat Monte Carlo (engine/search/native/_flat_mc.h, _playout_api.h) and
 * for ISAAC's search: its playouts value the search's leaves (leaf()) and its C tree runs on this model
 * (_tree_game.h over engine/search/native/_tree.h). ISAAC's one C model of a position.
 *
 * Why: a sparring partner is only a yardstick if it plays well, and a flat Monte-Carlo player is
 * as good as the number and the sense of its playouts; in Python a playout of ISAAC costs about a
 * millisecond, here a few microseconds. This is a private model of the position for playouts, not
 * a rulebook: engine/games/isaac/playout_core.py hands it a position, and the move it answers is
 * checked by the rules (check_move) before it is played. The tests replay its playouts on IsaacGame
 * (every move legal, the same end, scores and winner).
 *
 * Playouts (epsilon-greedy, both sides alike):
 *   placement: with chance EPS_PLACE a uniformly drawn legal placement; else the longest length
 *     that fits, on the best of SAMPLE drawn spots by what it adds to the lines: its value x the
 *     pieces on its line, plus the values of own pieces along the lines it crosses, minus the
 *     opponent's (weighted by FEED);
 *   scoring: a removal that reaches 100 at once if there is one; else with chance EPS_REMOVE a
 *     uniformly drawn removable piece, else the piece whose points minus GIVE_UP x the points of
 *     the shorter own pieces it makes unremovable is best; the new score is the full one, unless
 *     a lower one puts the counter on the piece with which the opponent would reach 100 next (then
 *     the highest such), or costs at most BLOCK points and covers an opponent piece worth more.
 */
#include "_board.h"
#include "_flat_mc.h"

#define NPARAMS 15
#define MAXPIECES 15
#define MAXMOVES 700 /* 600 placements at most; removals are fewer */
#define MAX_PLIES 128

/* The policy's and the root's parameters (engine/games/isaac/playout_core.py PARAMS names them). */
enum { EPS_PLACE, SAMPLE, FEED, SPREAD, EPS_REMOVE, GIVE_UP, BLOCK, MARGIN_W, MARGIN_SCALE, PER_LENGTH, REMOVALS,
       DENY, PLAN_BLOCK, PLAN_DOUBLE, PLAN_SELF };

static const char *const PARAM_NAMES[NPARAMS] = {"eps_place", "sample", "feed", "spread", "eps_remove", "give_up",
                                                  "block", "margin_weight", "margin_scale", "per_length", "removals",
                                                  "deny", "plan_block", "plan_double", "plan_self"};
static const double PARAM_LO[NPARAMS] = {0, 1, 0, 0, 0, 0, 0, 0, 1, 1, 1, 0, 0, 0, 0};
static const double PARAM_HI[NPARAMS] = {1, 64, 10, 10, 1, 10, 99, 1, 100, 200, 1024, 10, 10, 10, 10};

static u128 LINE_MASK[20];     /* rows 0..9, columns 10..19 */
static int SEG_LINE[NSEG];     /* the line a piece lies along */
static int NTOUCH[NSEG];       /* its line and the lines it crosses (protocol.isaac.TOUCHED_LINES) */
static int TOUCH[NSEG][8];
static int CELL_LINES[100][2]; /* row, 10 + column */

static void build_tables(void) {
    build_segments();
    for (int l = 0; l < 20; l++) {
        LINE_MASK[l] = 0;
        for (int k = 0; k < 10; k++) LINE_MASK[l] |= BIT(l < 10 ? 10 * l + k : 10 * k + (l - 10));
    }
    for (int c = 0; c < 100; c++) { CELL_LINES[c][0] = c / 10; CELL_LINES[c][1] = 10 + c % 10; }
    for (int i = 0; i < NSEG; i++) {
        const Seg *s = &SEG[i];
        SEG_LINE[i] = s->horizontal ? s->lo / 10 : 10 + s->lo % 10;
        NTOUCH[i] = 0;
        TOUCH[i][NTOUCH[i]++] = SEG_LINE[i];
        int step = s->horizontal ? 1 : 10;
        for (int j = 0; j < s->length; j++) {
            int c = s->lo + step * j;
            TOUCH[i][NTOUCH[i]++] = s->horizontal ? 10 + c % 10 : c / 10;
        }
    }
}

/* -- the position ------------------------------------------------------------------------ */

typedef struct {
    u128 occ, own[2];
    int pieces[2][MAXPIECES], npieces[2];
    int hand[2][8];
    int turn, npasses, passes[2], scoring;
    int scores[2], removed_max[2];
    int line_count[20];    /* pieces with a cell on each line */
    int line_value[2][20]; /* values of each colour's pieces lying along each line */
} Pos;

typedef struct {
    int seg;   /* -1: a pass */
    int score; /* -1: a placement; else the new score of a removal */
} Move;

static inline int is_over(const Pos *p) {
    return p->scoring && (p->npasses == 2 || p->scores[0] >= 100 || p->scores[1] >= 100);
}

static inline int has_passed(const Pos *p, int color) {
    for (int i = 0; i < p->npasses; i++)
        if (p->passes[i] == color) return 1;
    return 0;
}

static inline int counter_cell(int color, int score) {
    if (score > 99) return -1;
    return color == 0 ? score : 99 - score;
}

static inline u128 counter_mask(const Pos *p) {
    u128 m = 0;
    for (int c = 0; c < 2; c++) {
        int cell = counter_cell(c, p->scores[c]);
        if (cell >= 0) m |= BIT(cell);
    }
    return m;
}

/* protocol.isaac.points: value x the other pieces on its line, doubled per counter on the line. */
static inline int earned(const Pos *p, int seg, u128 counters) {
    int line = SEG_LINE[seg];
    return ((p->line_count[line] - 1) * SEG[seg].value) << popc(counters & LINE_MASK[line]);
}

static void put(Pos *p, int color, int seg) {
    p->occ |= SEG[seg].mask;
    p->own[color] |= SEG[seg].mask;
    p->pieces[color][p->npieces[color]++] = seg;
    for (int i = 0; i < NTOUCH[seg]; i++) p->line_count[TOUCH[seg][i]]++;
    p->line_value[color][SEG_LINE[seg]] += SEG[seg].value;
}

static void take(Pos *p, int color, int seg) {
    p->occ &= ~SEG[seg].mask;
    p->own[color] &= ~SEG[seg].mask;
    int n = p->npieces[color], i = 0;
    while (i < n && p->pieces[color][i] != seg) i++;
    for (; i < n - 1; i++) p->pieces[color][i] = p->pieces[color][i + 1];
    p->npieces[color] = n - 1;
    for (int k = 0; k < NTOUCH[seg]; k++) p->line_count[TOUCH[seg][k]]--;
    p->line_value[color][SEG_LINE[seg]] -= SEG[seg].value;
}

/* IsaacGame.push: the mover moves again while the opponent has passed (ruling 1). */
static void play(Pos *p, const Move *m) {
    int c = p->turn;
    if (m->seg < 0) {
        p->passes[p->npasses++] = c;
        int first = p->passes[0];
        if (p->npasses < 2) p->turn = 1 - c;
        else if (!p->scoring) { p->scoring = 1; p->npasses = 0; p->turn = first; }
        else p->turn = first;
        return;
    }
    if (m->score < 0) {
        put(p, c, m->seg);
        p->hand[c][SEG[m->seg].length]--;
    } else {
        take(p, c, m->seg);
        p->removed_max[c] = SEG[m->seg].length;
        p->scores[c] = m->score;
    }
    p->turn = has_passed(p, 1 - c) ? c : 1 - c;
}

/* The winner of a finished game (ruling 4: no draws). */
static int winner(const Pos *p) {
    for (int c = 0; c < 2; c++)
        if (p->scores[c] >= 100) return c;
    if (p->scores[0] != p->scores[1]) return p->scores[0] > p->scores[1] ? 0 : 1;
    int cells[2] = {0, 0}, count[2] = {0, 0};
    for (int c = 0; c < 2; c++)
        for (int n = 3; n <= 7; n++) { cells[c] += n * p->hand[c][n]; count[c] += p->hand[c][n]; }
    if (cells[0] != cells[1]) return cells[0] > cells[1] ? 0 : 1;
    if (count[0] != count[1]) return count[0] < count[1] ? 0 : 1;
    return 0;
}

static int playout_measure(const Pos *p, int color) { return p->scores[color]; }

/* -- legal moves ----------------------------------------------------------------------- */

/* Removable: own, at least as long as the longest removed, under no counter. */
static inline int removable(const Pos *p, int color, int seg, u128 counters) {
    return SEG[seg].length >= p->removed_max[color] && !(SEG[seg].mask & counters);
}

static inline int forbidden_score(const Pos *p) { return 99 - p->scores[1 - p->turn]; }

/* The highest allowed new score <= top (the mover's full score, or `top` itself at 100+). */
static inline int full_score(const Pos *p, int top) {
    if (top >= 100) return top;
    int t = top;
    if (t == forbidden_score(p)) t--; /* never below s: the counters are never on one cell */
    return t;
}

/* Whether new score t is allowed after a removal earning up to `top`. */
static inline int score_allowed(const Pos *p, int t, int top) {
    int s = p->scores[p->turn];
    if (t == top && top >= 100) return 1;
    return t >= s && t <= (top < 99 ? top : 99) && t != forbidden_score(p);
}

/* Every legal placement of the side to move (placement phase), horizontal then vertical by length. */
static int placements(const Pos *p, Move *out) {
    int k = 0, c = p->turn;
    u128 empty = ALL & ~p->occ;
    for (int n = 3; n <= 7; n++) {
        if (!p->hand[c][n]) continue;
        u128 h, v;
        placement_starts(empty, n, &h, &v);
        for (; h; h &= h - 1) out[k++] = (Move){H_SEG[n][lowbit(h)], -1};
        for (; v; v &= v - 1) out[k++] = (Move){V_SEG[n][lowbit(v)], -1};
    }
    return k;
}

/* -- the playout policy ------------------------------------------------------------------- */

/* What a placement adds to the lines (the spot score of the module comment). */
static double spot_score(const Pos *p, int seg, double feed) {
    int c = p->turn;
    double score = SEG[seg].value * (double)p->line_count[SEG_LINE[seg]];
    int fed = 0;
    for (int i = 0; i < NTOUCH[seg]; i++) {
        int l = TOUCH[seg][i];
        fed += p->line_value[c][l] - p->line_value[1 - c][l];
    }
    return score + feed * fed;
}

/* The opponent's longest length in hand (0: none), whose room a placement may take (DENY). */
static int longest_in_hand(const Pos *p, int color) {
    for (int n = 7; n >= 3; n--)
        if (p->hand[color][n]) return n;
    return 0;
}

/* The opponent's placements of length n (0: none) that a piece on `seg` would take away. */
static inline int denied(u128 empty, int seg, int n) {
    if (!n) return 0;
    u128 h, v, h2, v2;
    placement_starts(empty, n, &h, &v);
    placement_starts(empty & ~SEG[seg].mask, n, &h2, &v2);
    return popc(h) + popc(v) - popc(h2) - popc(v2);
}

static Move playout_placement(const Pos *p, const double *prm, Rng *r) {
    int c = p->turn;
    u128 empty = ALL & ~p->occ, hs[8], vs[8];
    int count[8] = {0}, total = 0, longest = 0;
    for (int n = 3; n <= 7; n++) {
        if (!p->hand[c][n]) continue;
        placement_starts(empty, n, &hs[n], &vs[n]);
        count[n] = popc(hs[n]) + popc(vs[n]);
        total += count[n];
        if (count[n]) longest = n;
    }
    if (!total) return (Move){-1, -1};
    int n = longest;
    if (rng_unit(r) < prm[EPS_PLACE]) { /* a uniformly drawn legal placement */
        int pick = rng_below(r, total);
        for (n = 3; pick >= count[n]; n++) pick -= count[n];
        int nh = popc(hs[n]);
        return (Move){pick < nh ? H_SEG[n][nth_bit(hs[n], pick)] : V_SEG[n][nth_bit(vs[n], pick - nh)], -1};
    }
    int k = (int)prm[SAMPLE], m = count[n], nh = popc(hs[n]), best = -1;
    int their = prm[DENY] > 0.0 ? longest_in_hand(p, 1 - c) : 0;
    double best_score = -1e300;
    for (int i = 0; i < k && i < m; i++) {
        int pick = k >= m ? i : rng_below(r, m);
        int seg = pick < nh ? H_SEG[n][nth_bit(hs[n], pick)] : V_SEG[n][nth_bit(vs[n], pick - nh)];
        double s = spot_score(p, seg, prm[FEED]) + prm[SPREAD] * rng_unit(r);
        if (their) s += prm[DENY] * denied(empty, seg, their);
        if (s > best_score) { best_score = s; best = seg; }
    }
    return (Move){best, -1};
}

/* Whether the opponent could reach 100 at once after the mover's counter goes to score t. */
static int opponent_wins_after(const Pos *after, int me, int t, int *threat) {
    int opp = 1 - me;
    if (has_passed(after, opp)) return 0;
    u128 counters = 0;
    int mine = counter_cell(me, t), theirs = counter_cell(opp, after->scores[opp]);
    if (mine >= 0) counters |= BIT(mine);
    if (theirs >= 0) counters |= BIT(theirs);
    for (int i = 0; i < after->npieces[opp]; i++) {
        int q = after->pieces[opp][i];
        if (!removable(after, opp, q, counters)) continue;
        if (after->scores[opp] + earned(after, q, counters) >= 100) { *threat = q; return 1; }
    }
    return 0;
}

/* Adds `v` to cellv[] at each cell of `mask`. */
static inline void add_cells(double *cellv, u128 mask, double v) {
    for (; mask; mask &= mask - 1) cellv[lowbit(mask)] += v;
}

/* The planned new score in s..t (PLAN_*): points, plus what the counter does where it lands,
 * after the removal: on an opponent piece it blocks it (PLAN_BLOCK x its points), on an own piece
 * it blocks that one (-PLAN_SELF x), on the line of a piece it doubles its points (PLAN_DOUBLE x,
 * for us or against us). */
static int planned_score(const Pos *p, const Pos *after, int s, int t, int top, const double *prm) {
    int me = p->turn, opp = 1 - me;
    double cellv[100] = {0};
    int oc = counter_cell(opp, after->scores[opp]);
    u128 theirs = oc >= 0 ? BIT(oc) : 0;
    for (int side = 0; side < 2; side++) {
        int c = side ? opp : me;
        if (c == opp && has_passed(after, opp)) continue;
        double sign = c == me ? 1.0 : -1.0;
        for (int i = 0; i < after->npieces[c]; i++) {
            int q = after->pieces[c][i];
            if (SEG[q].length < after->removed_max[c] || (SEG[q].mask & theirs)) continue;
            double e0 = earned(after, q, theirs);
            add_cells(cellv, SEG[q].mask, c == me ? -prm[PLAN_SELF] * e0 : prm[PLAN_BLOCK] * e0);
            add_cells(cellv, LINE_MASK[SEG_LINE[q]] & ~SEG[q].mask, sign * prm[PLAN_DOUBLE] * e0);
        }
    }
    int best = t;
    double best_v = -1e300;
    for (int u = t; u >= s; u--) {
        if (!score_allowed(p, u, top)) continue;
        double v = (u - s) + cellv[counter_cell(me, u)];
        if (v > best_v) { best_v = v; best = u; }
    }
    return best;
}

static inline int planning(const double *prm) {
    return prm[PLAN_BLOCK] > 0.0 || prm[PLAN_DOUBLE] > 0.0 || prm[PLAN_SELF] > 0.0;
}

/* The new score for removing `seg` (module comment); `top` = s + earned. */
static int choose_score(const Pos *p, int seg, int top, const double *prm) {
    int me = p->turn, opp = 1 - me, s = p->scores[me];
    int t = full_score(p, top);
    if (top >= 100) return t;
    Pos after = *p;
    take(&after, me, seg);
    after.removed_max[me] = SEG[seg].length;
    int threat;
    if (opponent_wins_after(&after, me, t, &threat)) {
        for (int u = t; u >= s; u--) { /* the highest score whose counter stops every winning reply */
            if (!score_allowed(p, u, top) || !(SEG[threat].mask & BIT(counter_cell(me, u)))) continue;
            int again;
            if (!opponent_wins_after(&after, me, u, &again)) return u;
        }
        return t;
    }
    if (planning(prm)) return planned_score(p, &after, s, t, top, prm);
    int block = (int)prm[BLOCK];
    if (!block || has_passed(p, opp)) return t;
    u128 counters = counter_mask(&after);
    int best = t;
    double best_gain = 0.0;
    for (int u = t - 1; u >= s && u >= t - block; u--) {
        if (!score_allowed(p, u, top)) continue;
        int cell = counter_cell(me, u);
        if (!(after.own[opp] & BIT(cell))) continue;
        for (int i = 0; i < after.npieces[opp]; i++) {
            int q = after.pieces[opp][i];
            if (!(SEG[q].mask & BIT(cell)) || !removable(&after, opp, q, counters)) continue;
            double gain = earned(&after, q, counters) - (t - u);
            if (gain > best_gain) { best_gain = gain; best = u; }
        }
    }
    return best;
}

static Move playout_removal(const Pos *p, const double *prm, Rng *r) {
    int me = p->turn, s = p->scores[me];
    u128 counters = counter_mask(p);
    int cand[MAXPIECES], gain[MAXPIECES], nc = 0;
    for (int i = 0; i < p->npieces[me]; i++) {
        int seg = p->pieces[me][i];
        if (!removable(p, me, seg, counters)) continue;
        int e = earned(p, seg, counters);
        if (s + e >= 100) return (Move){seg, s + e}; /* wins at once */
        cand[nc] = seg;
        gain[nc++] = e;
    }
    if (!nc) return (Move){-1, -1};
    int pick = 0;
    if (rng_unit(r) < prm[EPS_REMOVE]) {
        pick = rng_below(r, nc);
    } else {
        double best = -1e300;
        for (int i = 0; i < nc; i++) {
            int len = SEG[cand[i]].length, lost = 0;
            for (int j = 0; j < nc; j++)
                if (SEG[cand[j]].length < len) lost += gain[j];
            double v = gain[i] - prm[GIVE_UP] * lost - 0.01 * len;
            if (v > best) { best = v; pick = i; }
        }
    }
    return (Move){cand[pick], choose_score(p, cand[pick], s + gain[pick], prm)};
}

static inline Move playout_move(const Pos *p, const double *prm, Rng *r) {
    return p->scoring ? playout_removal(p, prm, r) : playout_placement(p, prm, r);
}

/* -- root candidates -------------------------------------------------------------------- */

#include "_scored.h"

/* Equal scores: by the segment, then the new score. */
static int scored_tie(const Scored *x, const Scored *y) {
    if (x->move.seg != y->move.seg) return x->move.seg - y->move.seg;
    return x->move.score - y->move.score;
}

/* A placement with its guess, best first by best_first: equal guesses by `order` (the segment here, as scored_tie
 * orders them; the rules' order in the search tree's guesses, _tree_game.h). */
typedef struct {
    double score;
    int seg, order;
} Guess;

#define BEST_FIRST_T Guess
#include "_best_first.h"

/* Placement phase: per length in hand its PER_LENGTH best spots by the spot score. */
static int placement_candidates(const Pos *p, const double *prm, Move *out) {
    Move all[MAXMOVES];
    int n = placements(p, all), k = 0;
    if (!n) { out[0] = (Move){-1, -1}; return 1; }
    int per = (int)prm[PER_LENGTH];
    Guess scored[MAXMOVES];
    for (int len = 3; len <= 7; len++) {
        int m = 0;
        for (int i = 0; i < n; i++)
            if (SEG[all[i].seg].length == len)
                scored[m++] = (Guess){spot_score(p, all[i].seg, prm[FEED]), all[i].seg, all[i].seg};
        int kept = best_first(scored, m, per);
        for (int i = 0; i < kept && k < MAX_ARMS; i++) out[k++] = (Move){scored[i].seg, -1};
    }
    return k;
}

static void offer(Scored *found, int *nf, int seg, int t, double score) {
    for (int i = 0; i < *nf; i++)
        if (found[i].move.seg == seg && found[i].move.score == t) {
            if (score > found[i].score) found[i].score = score;
            return;
        }
    if (*nf < MAXMOVES) found[(*nf)++] = (Scored){score, {seg, t}};
}

/* The highest allowed score in s..hi whose counter cell of `me` is in `cells`, or -1. */
static int highest_on(const Pos *p, int me, u128 cells, int s, int hi, int top) {
    for (int t = hi; t >= s; t--)
        if ((cells & BIT(counter_cell(me, t))) && score_allowed(p, t, top)) return t;
    return -1;
}

/* Scoring phase: per removable piece the full score, the highest score blocking each opponent
 * piece, staying put where the counter blocks, and the highest score doubling one of our next
 * pieces; the best REMOVALS by points (a block counts the blocked piece's points). */
static int removal_candidates(const Pos *p, const double *prm, Move *out) {
    int me = p->turn, opp = 1 - me, s = p->scores[me];
    u128 counters = counter_mask(p);
    Scored found[MAXMOVES];
    int nf = 0;
    int my_cell = counter_cell(me, s);
    for (int i = 0; i < p->npieces[me]; i++) {
        int seg = p->pieces[me][i];
        if (!removable(p, me, seg, counters)) continue;
        int e = earned(p, seg, counters), top = s + e;
        if (top >= 100) { offer(found, &nf, seg, top, 1e9); continue; }
        int hi = top < 99 ? top : 99, full = full_score(p, top);
        offer(found, &nf, seg, full, e);
        if (planning(prm)) {
            Pos after = *p;
            take(&after, me, seg);
            after.removed_max[me] = SEG[seg].length;
            offer(found, &nf, seg, planned_score(p, &after, s, full, top, prm), e);
        }
        if (!has_passed(p, opp)) {
            for (int j = 0; j < p->npieces[opp]; j++) {
                int q = p->pieces[opp][j];
                if (SEG[q].length < p->removed_max[opp]) continue;
                int t = highest_on(p, me, SEG[q].mask, s, hi, top);
                if (t >= 0) offer(found, &nf, seg, t, e - (full - t) + 0.5 * earned(p, q, counters));
            }
            if (my_cell >= 0 && (p->own[opp] & BIT(my_cell))) offer(found, &nf, seg, s, 0.5 * e);
        }
        for (int j = 0; j < p->npieces[me]; j++) {
            int q = p->pieces[me][j];
            if (q == seg || SEG[q].length < SEG[seg].length) continue;
            int t = highest_on(p, me, LINE_MASK[SEG_LINE[q]] & ~SEG[q].mask, s, hi, top);
            if (t >= 0) offer(found, &nf, seg, t, e - (full - t) + 0.5 * SEG[q].value);
        }
    }
    if (!nf) { out[0] = (Move){-1, -1}; return 1; }
    qsort(found, (size_t)nf, sizeof(Scored), by_score_desc);
    int keep = (int)prm[REMOVALS];
    if (keep > MAX_ARMS) keep = MAX_ARMS;
    int k = 0;
    for (int i = 0; i < nf && k < keep; i++) out[k++] = found[i].move;
    return k;
}

static int candidates(const Pos *p, const double *prm, Move *out) {
    if (is_over(p)) return 0;
    return p->scoring ? removal_candidates(p, prm, out) : placement_candidates(p, prm, out);
}

/* -- Python interface ---------------------------------------------------------------------- */

/* position: (pieces0, pieces1, hand0, hand1, turn, passes, scoring, score0, score1, removed0, removed1),
 * as engine/games/isaac/playout_core.position_tuple gives it. */
static int read_position(PyObject *position, Pos *p) {
    PyObject *pc[2], *hd[2], *passes;
    int turn, scoring, sc[2], rm[2];
    if (require_tuple(position, "position") < 0) return -1;
    if (!PyArg_ParseTuple(position, "OOOOiOiiiii", &pc[0], &pc[1], &hd[0], &hd[1], &turn, &passes, &scoring, &sc[0],
                          &sc[1], &rm[0], &rm[1]))
        return -1;
    memset(p, 0, sizeof(*p));
    if (turn != 0 && turn != 1) { PyErr_SetString(PyExc_ValueError, "the turn is 0 or 1"); return -1; }
    if (scoring != 0 && scoring != 1) { PyErr_SetString(PyExc_ValueError, "scoring is 0 or 1"); return -1; }
    p->turn = turn;
    p->scoring = scoring;
    int np = read_passes(passes, p->passes, "a player passes once a phase");
    if (np < 0) return -1;
    if (np == 2 && !scoring) {
        PyErr_SetString(PyExc_ValueError, "two passes end the placement phase: the position is in the scoring phase");
        return -1;
    }
    p->npasses = np;
    u128 occupied = 0;
    for (int c = 0; c < 2; c++) {
        int segs[MAXPIECES], ns = read_side(hd[c], pc[c], p->hand[c], segs, MAXPIECES, &occupied);
        if (ns < 0) return -1;
        for (int i = 0; i < ns; i++) put(p, c, segs[i]);
        if (sc[c] < 0 || sc[c] > 200 || (rm[c] != 0 && (rm[c] < 3 || rm[c] > 7))) {
            PyErr_SetString(PyExc_ValueError, "a score is 0 to 200 and a longest removed length 0 or 3 to 7");
            return -1;
        }
        if (!scoring && (sc[c] || rm[c])) {
            PyErr_SetString(PyExc_ValueError, "scores and removals belong to the scoring phase");
            return -1;
        }
        p->scores[c] = sc[c];
        p->removed_max[c] = rm[c];
    }
    if (sc[0] >= 100 && sc[1] >= 100) { PyErr_SetString(PyExc_ValueError, "only one score reaches 100"); return -1; }
    return 0;
}

static PyObject *move_tuple(const Move *m) { return Py_BuildValue("(ii)", m->seg, m->score); }

#define PLAYOUT_LEAF   /* its playouts value ISAAC search's placement leaves */
#include "_playout_api.h"
/* One side's pieces in two positions: the same segments, in any order. */
static int same_pieces(const Pos *a, const Pos *b, int c) {
    return a->npieces[c] == b->npieces[c] && a->own[c] == b->own[c] &&
           same_segments(a->pieces[c], b->pieces[c], a->npieces[c]);
}

/* One position: the phase, the same pieces (in any order), hands, scores, longest removals, turn and passes. */
static int same_position(const Pos *a, const Pos *b) {
    if (a->turn != b->turn || a->npasses != b->npasses || a->scoring != b->scoring) return 0;
    for (int i = 0; i < a->npasses; i++)
        if (a->passes[i] != b->passes[i]) return 0;
    for (int c = 0; c < 2; c++)
        if (a->scores[c] != b->scores[c] || a->removed_max[c] != b->removed_max[c] ||
            memcmp(a->hand[c], b->hand[c], sizeof(a->hand[c])) || !same_pieces(a, b, c))
            return 0;
    return 1;
}

#include "_tree_game.h" /* and the search's placement tree over them */

/* -- the treemc partner's tree over these candidates and playouts (engine/search/native/_playout_uct.h) -- */

#define UCT_TYPE_NAME "engine.games.isaac._playout_core.UctTree"
static const Move PASS_MOVE = {-1, -1};

static inline int same_move(const Move *a, const Move *b) { return a->seg == b->seg && a->score == b->score; }

#include "_playout_uct.h"

/* Both trees: the search's (_tree.h) and the treemc partner's (_uct.h). */
static int add_tree_types(PyObject *m) { return add_tree_type(m) < 0 ? -1 : add_uct_type(m); }

static PyMethodDef methods[] = {
    PLAYOUT_CORE_METHODS,
    PLAYOUT_LEAF_METHOD,
    {"guesses", py_guesses, METH_VARARGS, "guesses(position[, keep]) -> [(segment, guess)] best first"},
    {NULL, NULL, 0, NULL},
};

CORE_MODULE(_playout_core, "ISAAC's playout core (C): candidates, playouts, flat Monte Carlo, the search tree and "
            "the treemc tree.", methods, build_tables, add_tree_types)
