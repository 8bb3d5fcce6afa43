/* HARI sparring partner in C: flat Monte Carlo with epsilon-greedy playouts (strategy `fastmc`).
 *
 * A private model of the position for playouts, not a rulebook: engine/games/hari/playout_core.py hands
 * it a position, the strategy has the move it answers checked by the rules (protocol/hari.py,
 * check_move), and the tests replay its playouts on HariGame (every move legal, the same end,
 * board values and winner).
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

/* Slide paths: per segment the ends toward the low edge (nearest first) and the cell each step
 * needs empty; the same toward the high edge (protocol.hari's _PATHS). */
static int LOW_N[NSEG], HIGH_N[NSEG];
static int LOW_END[NSEG][10], HIGH_END[NSEG][10];
static int LOW_CELL[NSEG][10], HIGH_CELL[NSEG][10];
static u128 COVER_H[8][NSEG], COVER_V[8][NSEG]; /* starts of length-n runs covering a cell of the segment */

static void build_tables(void) {
    build_segments();
    for (int i = 0; i < NSEG; i++) {
        const Seg *s = &SEG[i];
        int step = s->horizontal ? 1 : 10, pos = s->horizontal ? s->lo % 10 : s->lo / 10;
        const int *same = s->horizontal ? H_SEG[s->length] : V_SEG[s->length]; /* this length and direction */
        LOW_N[i] = 0;
        for (int d = 1; d <= pos; d++) {
            LOW_END[i][LOW_N[i]] = same[s->lo - step * d];
            LOW_CELL[i][LOW_N[i]++] = s->lo - step * d;
        }
        HIGH_N[i] = 0;
        for (int d = 1; d <= 10 - (pos + s->length); d++) {
            HIGH_END[i][HIGH_N[i]] = same[s->lo + step * d];
            HIGH_CELL[i][HIGH_N[i]++] = s->hi + step * d;
        }
        for (int n = 3; n <= 7; n++) {
            u128 ch = 0, cv = 0;
            for (int j = 0; j < n; j++) { ch |= s->mask >> j; cv |= s->mask >> (10 * j); }
            COVER_H[n][i] = ch & H_START[n];
            COVER_V[n][i] = cv & V_START[n];
        }
    }
}

/* The ends a piece on `seg` may slide to through `occupied` cells: on-board ends toward the low
 * edge, then the high edge, then -1 if it can leave the board (protocol.hari.slide_ends). */
static int slide_ends(int seg, u128 occupied, int *out) {
    int k = 0, leaves = 0, j;
    for (j = 0; j < LOW_N[seg] && !(occupied & BIT(LOW_CELL[seg][j])); j++) out[k++] = LOW_END[seg][j];
    if (j == LOW_N[seg]) leaves = 1;
    for (j = 0; j < HIGH_N[seg] && !(occupied & BIT(HIGH_CELL[seg][j])); j++) out[k++] = HIGH_END[seg][j];
    if (j == HIGH_N[seg]) leaves = 1;
    if (leaves) out[k++] = -1;
    return k;
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

static inline int is_over(const Pos *p) { return p->npasses == 2; }

static inline int has_passed(const Pos *p, int color) {
    for (int i = 0; i < p->npasses; i++)
        if (p->passes[i] == color) return 1;
    return 0;
}

static inline u128 empty_cells(const Pos *p) { return ALL & ~(p->own[0] | p->own[1]); }

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

/* Ascending lengths `color` may still play (in hand, not shorter than its longest play). */
static int playable(const Pos *p, int color, int *out) {
    int k = 0;
    for (int n = 3; n <= 7; n++)
        if (p->hand[color][n] && n >= p->minlen[color]) out[k++] = n;
    return k;
}

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

static inline int seg_at(u128 h, u128 v, int n, int k) {
    int nh = popc(h);
    return k < nh ? H_SEG[n][nth_bit(h, k)] : V_SEG[n][nth_bit(v, k - nh)];
}

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

static int play_out(Pos *p, const double *prm, Rng *r, Move *moves) {
    int plies = 0;
    while (!is_over(p) && plies < MAX_PLIES) {
        Move m = playout_move(p, prm, r);
        play(p, &m);
        if (moves) moves[plies] = m;
        plies++;
    }
    return plies;
}

static double result_for(const Pos *p, int root, const double *prm) {
    if (!is_over(p)) return 0.5;
    double margin = (double)(p->board_value[root] - p->board_value[1 - root]);
    return blended(winner(p), root, margin, prm[MARGIN_W], prm[MARGIN_SCALE]);
}

/* -- root candidates -------------------------------------------------------------------------- */

typedef struct {
    double score;
    Move move;
} Scored;

static int by_score_desc(const void *a, const void *b) {
    const Scored *x = a, *y = b;
    if (x->score != y->score) return x->score < y->score ? 1 : -1;
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

/* -- the search ----------------------------------------------------------------------------------- */

typedef struct {
    Pos root;
    const Move *arms;
    const double *prm;
} Game;

static double playout(const void *game, int arm, Rng *r, long long *plies) {
    const Game *g = game;
    Pos p = g->root;
    int me = p.turn;
    play(&p, &g->arms[arm]);
    *plies += 1 + play_out(&p, g->prm, r, NULL);
    return result_for(&p, me, g->prm);
}

/* -- Python interface ---------------------------------------------------------------------------- */

/* position: (pieces0, pieces1, hand0, hand1, min0, min1, turn, passes) as HariGame gives them
 * (engine/games/hari/playout_core.position_tuple). */
static int read_position(PyObject *position, Pos *p) {
    PyObject *pc[2], *hd[2], *passes;
    int mn[2], turn;
    if (require_tuple(position, "position") < 0) return -1;
    if (!PyArg_ParseTuple(position, "OOOOiiiO", &pc[0], &pc[1], &hd[0], &hd[1], &mn[0], &mn[1], &turn, &passes))
        return -1;
    memset(p, 0, sizeof(*p));
    u128 occupied = 0;
    for (int c = 0; c < 2; c++) {
        int hand[8];
        if (read_ints(hd[c], hand, 8, "hand") != 8) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a hand has 8 counts");
            return -1;
        }
        for (int n = 0; n < 8; n++) {
            if (hand[n] < 0 || hand[n] > SET_COUNT[n]) {
                PyErr_Format(PyExc_ValueError, "a hand holds 0 to %d pieces of length %d", SET_COUNT[n], n);
                return -1;
            }
            p->hand[c][n] = hand[n];
        }
        int segs[MAXPIECES + 1], ns = read_ints(pc[c], segs, MAXPIECES, "pieces");
        if (ns < 0) return -1;
        int on[8] = {0};
        for (int i = 0; i < ns; i++) {
            if (segs[i] < 0 || segs[i] >= NSEG) {
                PyErr_Format(PyExc_ValueError, "a piece is a segment index 0 to %d", NSEG - 1);
                return -1;
            }
            if (occupied & SEG[segs[i]].mask) { PyErr_SetString(PyExc_ValueError, "pieces overlap"); return -1; }
            occupied |= SEG[segs[i]].mask;
            add_piece(p, c, segs[i]);
            on[SEG[segs[i]].length]++;
        }
        for (int n = 3; n <= 7; n++)
            if (on[n] + hand[n] > SET_COUNT[n]) {
                PyErr_Format(PyExc_ValueError, "more than %d pieces of length %d on the board and in hand",
                             SET_COUNT[n], n);
                return -1;
            }
        if (mn[c] < 0 || mn[c] > 7) { PyErr_SetString(PyExc_ValueError, "a minimum length is 0 to 7"); return -1; }
        p->minlen[c] = mn[c];
    }
    if (turn != 0 && turn != 1) { PyErr_SetString(PyExc_ValueError, "the turn is 0 or 1"); return -1; }
    p->turn = turn;
    int pas[2], np = read_ints(passes, pas, 2, "passes");
    if (np < 0) return -1;
    for (int i = 0; i < np; i++)
        if (pas[i] != 0 && pas[i] != 1) { PyErr_SetString(PyExc_ValueError, "a passer is 0 or 1"); return -1; }
    if (np == 2 && pas[0] == pas[1]) { PyErr_SetString(PyExc_ValueError, "a player passes once"); return -1; }
    p->npasses = np;
    for (int i = 0; i < np; i++) p->passes[i] = pas[i];
    return 0;
}

static int read_prm(PyObject *seq, double *prm) {
    return read_params(seq, prm, NPARAMS, PARAM_LO, PARAM_HI, PARAM_NAMES);
}

/* (place or -1, length (0: a pass), ((start, end or -1 off the board), ...)) */
static PyObject *move_tuple(const Move *m) {
    PyObject *slides = PyTuple_New(m->nslides);
    for (int i = 0; slides && i < m->nslides; i++) {
        PyObject *s = Py_BuildValue("(ii)", m->start[i], m->end[i]);
        if (!s) { Py_CLEAR(slides); break; }
        PyTuple_SET_ITEM(slides, i, s);
    }
    return slides ? Py_BuildValue("(iiN)", m->place, m->length, slides) : NULL;
}

static PyObject *move_list(const Move *moves, int n) {
    PyObject *list = PyList_New(n);
    for (int i = 0; list && i < n; i++) {
        PyObject *t = move_tuple(&moves[i]);
        if (!t) { Py_CLEAR(list); break; }
        PyList_SET_ITEM(list, i, t);
    }
    return list;
}

/* candidates(position, params) -> [(place, length, slides)]; [(-1, 0, ())]: pass */
static PyObject *py_candidates(PyObject *self, PyObject *args) {
    PyObject *position, *params;
    if (!PyArg_ParseTuple(args, "OO", &position, &params)) return NULL;
    Pos p;
    double prm[NPARAMS];
    if (read_position(position, &p) < 0 || read_prm(params, prm) < 0) return NULL;
    Move moves[MAX_ARMS];
    return move_list(moves, candidates(&p, prm, moves));
}

/* playout(position, params, seed) -> (moves, (Dark's board value, Light's), winner: 0, 1, -1 a draw, -2 cut short) */
static PyObject *py_playout(PyObject *self, PyObject *args) {
    PyObject *position, *params;
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "OOK", &position, &params, &seed)) return NULL;
    Pos p;
    double prm[NPARAMS];
    if (read_position(position, &p) < 0 || read_prm(params, prm) < 0) return NULL;
    Rng r = seed;
    Move moves[MAX_PLIES] = {0};   /* play_out writes the first n */
    int n = play_out(&p, prm, &r, moves);
    PyObject *list = move_list(moves, n);
    if (!list) return NULL;
    return Py_BuildValue("(N(ii)i)", list, p.board_value[0], p.board_value[1], is_over(&p) ? winner(&p) : -2);
}

#include "_playout_api.h"

static PyMethodDef methods[] = {
    {"candidates", py_candidates, METH_VARARGS, "candidates(position, params) -> [(place, length, slides)]"},
    PARTNER_SEARCH_METHOD,
    {"playout", py_playout, METH_VARARGS, "playout(position, params, seed) -> (moves, board values, winner)"},
    {"segments", py_segments, METH_NOARGS, "segments() -> [(lo, hi, length, horizontal)] by index"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_playout_core", "HARI playout core (C): flat Monte Carlo and playouts.", -1,
                                    methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__playout_core(void) {
    build_tables();
    return PyModule_Create(&module);
}
