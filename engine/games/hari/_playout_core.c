/* HARI's playout core in C: its model of the position for playouts, root candidates and epsilon-greedy
 * playouts, for the `fastmc` sparring partner's flat Monte Carlo (engine/search/native/_flat_mc.h,
 * _playout_api.h). Why HARI has two C models: _shared.h.
 *
 * A private model of the position for playouts, not a rulebook: engine/games/hari/playout_core.py hands
 * it a position, the strategy has the move it answers checked by the rules (check_move), and the tests
 * replay its playouts on HariGame (every move legal, the same end, board values and winner).
 *
 * Root candidates: per playable length its PER_LENGTH snuggest placements (fewest free neighbours,
 * ties to the lower cells); the shortest piece's discard; and one own piece slid (along its line,
 * or off the board) so that a length with fewer than SCARCE placements fits in the freed cells,
 * on its snuggest spot there, the best SLIDES of those by value gained, lost and snugness; and the
 * best BLOCKS moves sliding one own piece along its line into the room of the opponent's next
 * piece, then placing our shortest length allowed on its snuggest spot.
 * Playouts (both sides alike): with chance EPS a playable length drawn uniformly, on a uniformly
 * drawn spot (or discarded if it fits nowhere); else the shortest playable length, a 3 only with
 * chance PLAY3 while a longer length fits, and with chance JUMP the next length that fits
 * instead, on the snuggest of SAMPLE drawn spots. When no playable length fits, the best upgrade
 * by one slide: an own piece slid along its line, or off the board if the piece placed is worth
 * more, so that the longest possible length fits in the freed cells; else the shortest piece is
 * discarded.
 */
#include "_flat_mc.h"
#include "_shared.h"

#define NPARAMS 12
#define MAXPIECES 15
#define MAXSLIDES 3
#define MAX_PLIES 64 /* 15 plays each and 2 passes */
#define MAX_FOUND 1024

enum { EPS, PLAY3, JUMP, SAMPLE, MARGIN_W, MARGIN_SCALE, PER_LENGTH, SLIDES, SCARCE, SPREAD, UPGRADE, BLOCKS };

static const char *const PARAM_NAMES[NPARAMS] = {"eps", "play3", "jump", "sample", "margin_weight", "margin_scale",
                                                  "per_length", "slides", "scarce", "spread", "upgrade", "blocks"};
static const double PARAM_LO[NPARAMS] = {0, 0, 0, 1, 0, 1, 1, 0, 0, 0, 0, 0};
static const double PARAM_HI[NPARAMS] = {1, 1, 1, 200, 1, 100, 200, 1024, 200, 10, 1, 256};

static void build_tables(void) {
    build_segments();
    build_slide_tables();
}

/* -- the position ---------------------------------------------------------------------------- */

typedef struct {
    int pieces[2][MAXPIECES], npieces[2];
    u128 own[2];
    int hand[2][8], minlen[2];
    int turn, npasses, passes[2];
    int board_value[2];
} Pos;

typedef struct {
    int nslides;
    int start[MAXSLIDES], end[MAXSLIDES]; /* end -1: off the board */
    int place;                            /* -1: a discard */
    int length;                           /* 0: a pass */
} Move;

static void add_piece(Pos *p, int c, int s) {
    p->pieces[c][p->npieces[c]++] = s;
    p->own[c] |= SEG[s].mask;
    p->board_value[c] += SEG[s].value;
}

static void remove_piece(Pos *p, int c, int s) {
    int n = p->npieces[c], i = 0;
    while (i < n && p->pieces[c][i] != s) i++;
    if (i == n) return;
    p->pieces[c][i] = p->pieces[c][n - 1];
    p->npieces[c] = n - 1;
    p->own[c] &= ~SEG[s].mask;
    p->board_value[c] -= SEG[s].value;
}

#define HARI_POSITION
#include "_shared.h"

/* HariGame.push: slides in order, then the play; the opponent moves next unless it has passed
 * and the mover has not (ruling 1). */
static void play(Pos *p, const Move *m) {
    int c = p->turn;
    if (m->length == 0) {
        p->passes[p->npasses++] = c;
    } else {
        for (int i = 0; i < m->nslides; i++) {
            remove_piece(p, c, m->start[i]);
            if (m->end[i] >= 0) add_piece(p, c, m->end[i]);
        }
        p->hand[c][m->length]--;
        if (m->length > p->minlen[c]) p->minlen[c] = m->length;
        if (m->place >= 0) add_piece(p, c, m->place);
    }
    int other = 1 - c;
    p->turn = (has_passed(p, other) && !has_passed(p, c)) ? c : other;
}

static int playout_measure(const Pos *p, int color) { return p->board_value[color]; }

static inline int winner(const Pos *p) {
    if (p->board_value[0] == p->board_value[1]) return -1;
    return p->board_value[0] > p->board_value[1] ? 0 : 1;
}

static inline int same_move(const Move *a, const Move *b) {
    if (a->nslides != b->nslides || a->place != b->place || a->length != b->length) return 0;
    for (int i = 0; i < a->nslides; i++)
        if (a->start[i] != b->start[i] || a->end[i] != b->end[i]) return 0;
    return 1;
}

static inline Move simple(int place, int length) {
    Move m = {0, {0}, {0}, place, length};
    return m;
}

static inline Move slid(int start, int end, int place, int length) {
    Move m = {1, {start}, {end}, place, length};
    return m;
}

/* -- the playout policy ---------------------------------------------------------------------- */

/* The snuggest (fewest free neighbours, jitter `spread`) of `sample` spots drawn from h and v. */
static int snug_spot(u128 h, u128 v, int n, u128 empty, int sample, double spread, Rng *r) {
    int total = popc(h) + popc(v), best = -1;
    double best_key = 1e300;
    for (int i = 0; i < sample && i < total; i++) {
        int seg = seg_at(h, v, n, sample >= total ? i : rng_below(r, total));
        double key = popc(SEG[seg].nb & empty) + spread * rng_unit(r);
        if (key < best_key) { best_key = key; best = seg; }
    }
    return best;
}

/* The best upgrade by one slide when no playable length fits: the move, or a length of 0. */
static Move upgrade(const Pos *p, const int *lengths, int nl, u128 empty) {
    int c = p->turn, ends[24];
    u128 occupied = ALL & ~empty;
    Move best = simple(-1, 0);
    int best_gain = 0;
    for (int i = 0; i < p->npieces[c]; i++) {
        int q = p->pieces[c][i], ne = slide_ends(q, occupied, ends);
        for (int e = 0; e < ne; e++) {
            int end = ends[e], lost = end < 0 ? SEG[q].value : 0;
            u128 freed = (empty | SEG[q].mask) & ~(end >= 0 ? SEG[end].mask : 0);
            for (int k = nl - 1; k >= 0; k--) {
                int n = lengths[k], gain = VALUE[n] - lost;
                if (VALUE[n] < SEG[q].value || gain <= best_gain) continue;
                u128 h, v;
                placement_starts(freed, n, &h, &v);
                h &= COVER_H[n][q];
                v &= COVER_V[n][q];
                if (!(h | v)) continue;
                best = slid(q, end, h ? H_SEG[n][lowbit(h)] : V_SEG[n][lowbit(v)], n);
                best_gain = gain;
                break;
            }
        }
    }
    return best;
}

static Move playout_move(const Pos *p, const double *prm, Rng *r) {
    int c = p->turn, lengths[5], nl = playable(p, c, lengths);
    if (!nl) return simple(-1, 0);
    u128 empty = empty_cells(p), hs[8], vs[8];
    int count[8] = {0}, fits = 0;
    for (int i = 0; i < nl; i++) {
        int n = lengths[i];
        placement_starts(empty, n, &hs[n], &vs[n]);
        count[n] = popc(hs[n]) + popc(vs[n]);
        if (count[n]) fits++;
    }
    if (rng_unit(r) < prm[EPS]) {
        int n = lengths[rng_below(r, nl)];
        if (!count[n]) return simple(-1, n);
        return simple(seg_at(hs[n], vs[n], n, rng_below(r, count[n])), n);
    }
    if (!fits) {
        if (prm[UPGRADE] > 0.0) {
            Move m = upgrade(p, lengths, nl, empty);
            if (m.length) return m;
        }
        return simple(-1, lengths[0]);
    }
    int i = 0;
    while (!count[lengths[i]]) i++;
    if (lengths[i] == 3 && fits > 1 && rng_unit(r) >= prm[PLAY3]) i++;
    else if (rng_unit(r) < prm[JUMP] && fits > 1) i++;
    while (!count[lengths[i]]) i++; /* the next length that fits (there is one: fits > 1) */
    int n = lengths[i];
    return simple(snug_spot(hs[n], vs[n], n, empty, (int)prm[SAMPLE], prm[SPREAD], r), n);
}

/* -- root candidates -------------------------------------------------------------------------- */

#include "_scored.h"

/* Equal scores: by the placement, then the first slid piece. */
static int scored_tie(const Scored *x, const Scored *y) {
    if (x->move.place != y->move.place) return x->move.place - y->move.place;
    return x->move.start[0] - y->move.start[0];
}

/* Moves that slide one own piece along its line into the room of the opponent's next piece (its
 * shortest playable length), then place our shortest length allowed on its snuggest spot; scored
 * by the opponent's placements taken away. At most MAX_FOUND, written to found; the count. */
static int block_candidates(const Pos *p, const int *lengths, int nl, Scored *found) {
    int c = p->turn, opp = 1 - c, theirs[5], nt = has_passed(p, opp) ? 0 : playable(p, opp, theirs);
    if (!nt) return 0;
    u128 empty = empty_cells(p), occupied = ALL & ~empty, h, v;
    int n_opp = theirs[0], nf = 0, ends[24];
    placement_starts(empty, n_opp, &h, &v);
    int before = popc(h) + popc(v);
    for (int i = 0; i < p->npieces[c]; i++) {
        int q = p->pieces[c][i], ne = slide_ends(q, occupied, ends);
        for (int e = 0; e < ne; e++) {
            int end = ends[e];
            if (end < 0) continue;
            u128 after = (empty | SEG[q].mask) & ~SEG[end].mask;
            placement_starts(after, n_opp, &h, &v);
            int taken = before - popc(h) - popc(v);
            if (taken <= 0) continue;
            for (int j = 0; j < nl; j++) {
                int n = lengths[j];
                if (VALUE[n] < SEG[q].value) continue;
                placement_starts(after, n, &h, &v);
                int best = -1, best_snug = 99;
                for (u128 bits = h; bits; bits &= bits - 1) {
                    int s = H_SEG[n][lowbit(bits)], snug = popc(SEG[s].nb & after);
                    if (snug < best_snug) { best = s; best_snug = snug; }
                }
                for (u128 bits = v; bits; bits &= bits - 1) {
                    int s = V_SEG[n][lowbit(bits)], snug = popc(SEG[s].nb & after);
                    if (snug < best_snug) { best = s; best_snug = snug; }
                }
                if (best < 0) continue;
                if (nf < MAX_FOUND) found[nf++] = (Scored){taken - 0.1 * best_snug, slid(q, end, best, n)};
                break;
            }
        }
    }
    return nf;
}

static int candidates(const Pos *p, const double *prm, Move *out) {
    int c = p->turn, lengths[5], nl = is_over(p) ? 0 : playable(p, c, lengths);
    if (is_over(p)) return 0;
    if (!nl) { out[0] = simple(-1, 0); return 1; }
    u128 empty = empty_cells(p), occupied = ALL & ~empty;
    int k = 0, count[8] = {0}, per = (int)prm[PER_LENGTH];
    Scored spots[200];
    for (int i = 0; i < nl; i++) {
        int n = lengths[i], m = 0;
        u128 h, v;
        placement_starts(empty, n, &h, &v);
        for (; h; h &= h - 1) { int s = H_SEG[n][lowbit(h)]; spots[m++] = (Scored){-popc(SEG[s].nb & empty), simple(s, n)}; }
        for (; v; v &= v - 1) { int s = V_SEG[n][lowbit(v)]; spots[m++] = (Scored){-popc(SEG[s].nb & empty), simple(s, n)}; }
        count[n] = m;
        qsort(spots, (size_t)m, sizeof(Scored), by_score_desc);
        for (int j = 0; j < m && j < per && k < MAX_ARMS; j++) out[k++] = spots[j].move;
    }
    out[k++] = simple(-1, lengths[0]);
    Scored *found = PyMem_Malloc(sizeof(Scored) * MAX_FOUND); /* called with the GIL held */
    if (!found) return k;
    int nf = 0, ends[24];
    for (int i = 0; i < p->npieces[c]; i++) {
        int q = p->pieces[c][i], ne = slide_ends(q, occupied, ends);
        for (int e = 0; e < ne; e++) {
            int end = ends[e], lost = end < 0 ? SEG[q].value : 0;
            u128 freed = (empty | SEG[q].mask) & ~(end >= 0 ? SEG[end].mask : 0);
            for (int j = 0; j < nl; j++) {
                int n = lengths[j];
                if (count[n] >= prm[SCARCE] || VALUE[n] < SEG[q].value || (end < 0 && VALUE[n] <= SEG[q].value))
                    continue;
                u128 h, v;
                placement_starts(freed, n, &h, &v);
                h &= COVER_H[n][q];
                v &= COVER_V[n][q];
                int best = -1, best_snug = 99;
                for (; h; h &= h - 1) {
                    int s = H_SEG[n][lowbit(h)], snug = popc(SEG[s].nb & freed);
                    if (s != q && snug < best_snug) { best = s; best_snug = snug; }
                }
                for (; v; v &= v - 1) {
                    int s = V_SEG[n][lowbit(v)], snug = popc(SEG[s].nb & freed);
                    if (s != q && snug < best_snug) { best = s; best_snug = snug; }
                }
                if (best < 0 || nf >= MAX_FOUND) continue;
                double score = VALUE[n] - 1.5 * lost - 0.3 * best_snug + (count[n] == 0 ? 2.0 : 0.0);
                found[nf++] = (Scored){score, slid(q, end, best, n)};
            }
        }
    }
    qsort(found, (size_t)nf, sizeof(Scored), by_score_desc);
    for (int i = 0; i < nf && i < (int)prm[SLIDES] && k < MAX_ARMS; i++) out[k++] = found[i].move;
    int slide_end = k, kept = 0;
    nf = block_candidates(p, lengths, nl, found);
    qsort(found, (size_t)nf, sizeof(Scored), by_score_desc);
    for (int i = 0; i < nf && kept < (int)prm[BLOCKS] && k < MAX_ARMS; i++) {
        int seen = 0; /* a block may also be one of the slides that make room */
        for (int j = slide_end - 1; j >= 0 && !seen && out[j].nslides; j--) seen = same_move(&out[j], &found[i].move);
        if (!seen) { out[k++] = found[i].move; kept++; }
    }
    PyMem_Free(found);
    return k;
}

/* -- Python interface ---------------------------------------------------------------------------- */

static PyObject *move_tuple(const Move *m) {
    PyObject *slides = PyTuple_New(m->nslides);
    for (int i = 0; slides && i < m->nslides; i++) {
        PyObject *s = Py_BuildValue("(ii)", m->start[i], m->end[i]);
        if (!s) { Py_CLEAR(slides); break; }
        PyTuple_SET_ITEM(slides, i, s);
    }
    return slides ? Py_BuildValue("(iiN)", m->place, m->length, slides) : NULL;
}

#include "_playout_api.h"

/* -- the treemc partner's tree over these candidates and playouts (engine/search/native/_playout_uct.h) -- */

#define UCT_TYPE_NAME "engine.games.hari._playout_core.UctTree"
static const Move PASS_MOVE = {0, {0}, {0}, -1, 0};

/* One side's pieces in two positions: the same segments, in any order. */
static int same_pieces(const Pos *a, const Pos *b, int c) {
    return a->npieces[c] == b->npieces[c] && a->own[c] == b->own[c] &&
           same_segments(a->pieces[c], b->pieces[c], a->npieces[c]);
}

/* One position: the same pieces (in any order), hands, longest plays, turn and passes. */
static int same_position(const Pos *a, const Pos *b) {
    if (a->turn != b->turn || a->npasses != b->npasses) return 0;
    for (int i = 0; i < a->npasses; i++)
        if (a->passes[i] != b->passes[i]) return 0;
    for (int c = 0; c < 2; c++)
        if (a->minlen[c] != b->minlen[c] || memcmp(a->hand[c], b->hand[c], sizeof(a->hand[c])) ||
            !same_pieces(a, b, c))
            return 0;
    return 1;
}

#include "_playout_uct.h"

static PyMethodDef methods[] = {
    PLAYOUT_CORE_METHODS,
    {NULL, NULL, 0, NULL},
};

CORE_MODULE(_playout_core, "HARI's playout core (C): model, candidates, playouts, flat Monte Carlo and the treemc tree.",
            methods, build_tables, add_uct_type)
