/* HARI's search core in C: the same candidates, packing race and alpha-beta as
 * engine/games/hari/candidates.py, race.py and search.py, about a hundred times faster.
 *
 * Why: HARI's end game is decided by exact geometry a few plays ahead, and the Python
 * alpha-beta reaches only 3 or 4 plies in the 80 ms of a 100 ms move. This module is a private
 * model of the position for that search, not a second rulebook: it is handed a position by
 * engine/games/hari/search_core.py, returns a move that the rules (protocol/hari.py, check_move)
 * vet before it is played, and its pieces, candidates and race are tested against the Python
 * functions it mirrors, value for value (tests/engine/test_hari_search_core.py).
 *
 * Boards and segments are _bitboard.h's (protocol/board.py's cells and SEGMENTS order).
 */
#include "_board.h"

#define MAXPIECES 32
#define MAXMOVES 320
#define MAX_PER_LENGTH 32
#define MAX_SLIDES 64 /* 5 lengths x 32 + a discard + 64 slides + 31 blocks + 63 placement blocks fit */
#define MAX_BLOCKS 31
#define MAX_PLACE_BLOCKS 63
#define MAXPLY 64
#define FIT_SCAN 12


static u128 COVER_H[8][NSEG], COVER_V[8][NSEG];
/* Slide paths: per segment, the ends toward the low edge (nearest first), the cell each
 * step needs empty, and the same toward the high edge. */
static int LOW_N[NSEG], HIGH_N[NSEG];
static int LOW_END[NSEG][10], HIGH_END[NSEG][10];
static int LOW_CELL[NSEG][10], HIGH_CELL[NSEG][10];
static uint64_t ZOB_PIECE[2][NSEG], ZOB_HAND[2][8][8], ZOB_MIN[2][8], ZOB_TURN, ZOB_PASS[3][3];


static int segment_at(int a, int b) {
    for (int i = 0; i < NSEG; i++)
        if (SEG[i].lo == a && SEG[i].hi == b) return i;
    return -1;
}

static void build_tables(void) {
    build_segments();
    for (int i = 0; i < NSEG; i++) {
        Seg *s = &SEG[i];
        int step = s->horizontal ? 1 : 10;
        for (int n = 3; n <= 7; n++) {
            u128 ch = 0, cv = 0;
            for (int j = 0; j < n; j++) { ch |= s->mask >> j; cv |= s->mask >> (10 * j); }
            COVER_H[n][i] = ch;
            COVER_V[n][i] = cv;
        }
        int pos = s->horizontal ? s->lo % 10 : s->lo / 10;
        LOW_N[i] = 0;
        for (int d = 1; d <= pos; d++) {
            LOW_END[i][LOW_N[i]] = segment_at(s->lo - step * d, s->hi - step * d);
            LOW_CELL[i][LOW_N[i]++] = s->lo - step * d;
        }
        HIGH_N[i] = 0;
        for (int d = 1; d <= 10 - (pos + s->length); d++) {
            HIGH_END[i][HIGH_N[i]] = segment_at(s->lo + step * d, s->hi + step * d);
            HIGH_CELL[i][HIGH_N[i]++] = s->hi + step * d;
        }
    }
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

/* -- board geometry (protocol/board.py, engine/games/packing.py) ------------------------ */


/* packing.first_fit: the snuggest of the 12 lowest starts of each direction, horizontal first. */
static int first_fit(u128 empty, int n) {
    u128 h, v;
    placement_starts(empty, n, &h, &v);
    int best = -1, best_free = 99;
    for (int dir = 0; dir < 2; dir++) {
        u128 bits = dir == 0 ? h : v;
        int scanned = 0;
        while (bits && scanned < FIT_SCAN) {
            int c = lowbit(bits);
            bits &= bits - 1;
            scanned++;
            int s = dir == 0 ? H_SEG[n][c] : V_SEG[n][c];
            int f = popc(SEG[s].nb & empty);
            if (f < best_free) {
                if (!f) return s;
                best = s;
                best_free = f;
            }
        }
    }
    return best;
}


/* The first placement of n in `empty` covering a cell of `piece` (race.touching), or -1. */
static int first_touching(u128 empty, int n, int piece) {
    u128 h, v;
    placement_starts(empty, n, &h, &v);
    h &= COVER_H[n][piece];
    v &= COVER_V[n][piece];
    if (h) return H_SEG[n][lowbit(h)];
    if (v) return V_SEG[n][lowbit(v)];
    return -1;
}

static int dead_cells(u128 empty, int n) {
    u128 h, v, covered = 0;
    placement_starts(empty, n, &h, &v);
    for (int k = 0; k < n; k++) covered |= (h << k) | (v << (10 * k));
    return popc(empty & ~(covered & empty));
}

static int pack_value(u128 empty, const int *lengths, int count) {
    int value = 0;
    for (int i = 0; i < count; i++) {
        int s = first_fit(empty, lengths[i]);
        if (s < 0) continue;
        empty &= ~SEG[s].mask;
        value += VALUE[lengths[i]];
    }
    return value;
}

/* protocol.hari.slide_ends: on-board ends nearest first toward the low edge, then the high
 * edge, then -1 if the piece can leave the board. Returns the count. */
static int slide_ends(int seg, u128 occupied, int *out) {
    int k = 0, leaves = 0, j;
    for (j = 0; j < LOW_N[seg]; j++) {
        if (occupied & BIT(LOW_CELL[seg][j])) break;
        out[k++] = LOW_END[seg][j];
    }
    if (j == LOW_N[seg]) leaves = 1;
    for (j = 0; j < HIGH_N[seg]; j++) {
        if (occupied & BIT(HIGH_CELL[seg][j])) break;
        out[k++] = HIGH_END[seg][j];
    }
    if (j == HIGH_N[seg]) leaves = 1;
    if (leaves) out[k++] = -1;
    return k;
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

static inline u128 empty_cells(const Pos *p) { return ALL & ~(p->own[0] | p->own[1]); }

static int playable(const Pos *p, int color, int *out) {
    int k = 0;
    for (int n = 3; n <= 7; n++)
        if (p->hand[color][n] && n >= p->minlen[color]) out[k++] = n;
    return k;
}

static int queue_of(const Pos *p, int color, int *out) {
    int k = 0;
    for (int n = 3; n <= 7; n++)
        if (p->hand[color][n] && n >= p->minlen[color])
            for (int j = 0; j < p->hand[color][n]; j++) out[k++] = n;
    return k;
}

static inline int has_passed(const Pos *p, int color) {
    for (int i = 0; i < p->npasses; i++)
        if (p->passes[i] == color) return 1;
    return 0;
}

static inline int is_over(const Pos *p) { return p->npasses == 2; }

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

/* -- the packing race (race.contest_margin with upgrades) --------------------------- */

static inline int worth_sliding(int piece, int off, int n) {
    return off ? SEG[piece].value < VALUE[n] : SEG[piece].value <= VALUE[n];
}

/* race.room_by_one_slide: 1 and (piece, end, seg) if one slide makes room for n. */
static int room_by_one_slide(const int *pieces, int count, u128 empty, int n, int *piece_out, int *end_out,
                             int *seg_out) {
    u128 occupied = ALL & ~empty;
    int movable[MAXPIECES], m = 0;
    for (int i = 0; i < count; i++) {
        int p = pieces[i];
        if (!worth_sliding(p, 0, n)) continue;
        u128 h, v;
        placement_starts(empty | SEG[p].mask, n, &h, &v);
        if (!((h & COVER_H[n][p]) || (v & COVER_V[n][p]))) continue;
        int j = m; /* stable insertion by value */
        while (j > 0 && SEG[movable[j - 1]].value > SEG[p].value) { movable[j] = movable[j - 1]; j--; }
        movable[j] = p;
        m++;
    }
    int ends[24];
    for (int off = 0; off < 2; off++) {
        for (int i = 0; i < m; i++) {
            int piece = movable[i];
            if (off && !worth_sliding(piece, 1, n)) break;
            int ne = slide_ends(piece, occupied, ends);
            for (int e = 0; e < ne; e++) {
                int end = ends[e];
                if ((end < 0) != off) continue;
                u128 freed = (empty | SEG[piece].mask) & ~(end >= 0 ? SEG[end].mask : 0);
                int seg = first_touching(freed, n, piece);
                if (seg >= 0) { *piece_out = piece; *end_out = end; *seg_out = seg; return 1; }
            }
        }
    }
    return 0;
}

static int contest_margin(const Pos *p, int color) {
    u128 empty = empty_cells(p);
    int queues[2][16], qn[2], at[2] = {0, 0}, active[2], values[2];
    int own[2][MAXPIECES + 16], on[2];
    for (int c = 0; c < 2; c++) {
        qn[c] = queue_of(p, c, queues[c]);
        active[c] = qn[c] > 0;
        values[c] = p->board_value[c];
        on[c] = p->npieces[c];
        memcpy(own[c], p->pieces[c], sizeof(int) * (size_t)on[c]);
    }
    int side = p->turn;
    while (active[0] || active[1]) {
        if (active[side]) {
            int i = at[side], placed = 0;
            while (i < qn[side]) {
                int n = queues[side][i++];
                int seg = first_fit(empty, n);
                if (seg >= 0) {
                    empty &= ~SEG[seg].mask;
                    values[side] += VALUE[n];
                    own[side][on[side]++] = seg;
                    placed = 1;
                    break;
                }
                int piece, end;
                if (room_by_one_slide(own[side], on[side], empty, n, &piece, &end, &seg)) {
                    int j = 0;
                    while (j < on[side] && own[side][j] != piece) j++;
                    for (; j < on[side] - 1; j++) own[side][j] = own[side][j + 1];
                    on[side]--;
                    if (end >= 0) own[side][on[side]++] = end;
                    own[side][on[side]++] = seg;
                    empty = (empty | SEG[piece].mask) & ~SEG[seg].mask & ~(end >= 0 ? SEG[end].mask : 0);
                    values[side] += VALUE[n] - (end < 0 ? SEG[piece].value : 0);
                    placed = 1;
                    break;
                }
            }
            if (!placed) active[side] = 0;
            at[side] = i;
        }
        side = 1 - side;
    }
    return values[color] - values[1 - color];
}

/* -- candidates (candidates.candidates, candidates.slide_candidates) ----- */

typedef struct {
    double score;
    Move move;
} Scored;

/* Stable sort by score, ascending (sign = 1) or descending (sign = -1): insertion sort. */
static void sort_scored(Scored *a, int n, int sign) {
    for (int i = 1; i < n; i++) {
        Scored x = a[i];
        int j = i;
        while (j > 0 && (sign > 0 ? a[j - 1].score > x.score : a[j - 1].score < x.score)) { a[j] = a[j - 1]; j--; }
        a[j] = x;
    }
}

static double play_score(const Pos *p, int me, int n, int seg, u128 after, const int *lengths, int nl,
                         const int *opp_next, int nopp) {
    int killed = 0;
    for (int i = 0; i < nl; i++)
        if (lengths[i] < n) killed += VALUE[lengths[i]] * p->hand[me][lengths[i]];
    double score = -1.0 * killed;
    score += 1.2 * VALUE[n];
    score -= 0.3 * popc(SEG[seg].nb & after);
    int rest[16], nr = 0;
    for (int i = 0; i < nl; i++) {
        int k = lengths[i];
        if (k < n) continue;
        int c = p->hand[me][k] - (k == n ? 1 : 0);
        for (int j = 0; j < c; j++) rest[nr++] = k;
    }
    if (nr) {
        score -= 0.12 * dead_cells(after, rest[0]);
        score += 0.5 * pack_value(after, rest, nr);
    }
    if (nopp) score -= 0.15 * pack_value(after, opp_next, nopp);
    return score;
}

/* Slides are looked for a length with fewer than `scarce` placements; the best `slide_max` are kept;
 * at most `blocks` blocking moves follow them. */
typedef struct {
    int per_length, scarce, slide_max, blocks, place_blocks;
} Widths;

static int slide_candidates(const Pos *p, u128 empty, const int *lengths, int nl, const int *counts,
                            const int *opp_next, int nopp, int scarce, int slide_max, Move *out) {
    int needed[8], nn = 0;
    for (int i = 0; i < nl; i++)
        if (counts[lengths[i]] < scarce) needed[nn++] = lengths[i];
    if (!nn) return 0;
    int me = p->turn;
    u128 occupied = ALL & ~empty;
    int budget = VALUE[needed[nn - 1]];
    Scored found[1024]; /* at most 15 pieces x 19 ends x 5 lengths fit; on the stack: searches may overlap */
    int nf = 0, ends[24];
    for (int i = 0; i < p->npieces[me]; i++) {
        int piece = p->pieces[me][i];
        if (SEG[piece].value > budget) continue;
        int ne = slide_ends(piece, occupied, ends);
        for (int e = 0; e < ne; e++) {
            int end = ends[e];
            u128 after_slide = (empty | SEG[piece].mask) & ~(end >= 0 ? SEG[end].mask : 0);
            int lost = end < 0 ? SEG[piece].value : 0;
            for (int k = 0; k < nn; k++) {
                int n = needed[k];
                if (VALUE[n] < SEG[piece].value) continue;
                u128 h, v;
                placement_starts(after_slide, n, &h, &v);
                h &= COVER_H[n][piece];
                v &= COVER_V[n][piece];
                int touching[200], nt = segments_from_starts(h, v, n, touching);
                int best = -1, best_snug = 0;
                for (int t = 0; t < nt; t++) {
                    int s = touching[t];
                    if (s == piece) continue;
                    int snug = popc(SEG[s].nb & after_slide);
                    if (best < 0 || snug < best_snug) { best = s; best_snug = snug; }
                }
                if (best < 0) continue;
                u128 after = after_slide & ~SEG[best].mask;
                double score = play_score(p, me, n, best, after, lengths, nl, opp_next, nopp) - 1.5 * lost;
                score += counts[n] == 0 ? 1.0 : -0.3;
                if (nf >= 1024) continue;
                Scored *f = &found[nf++];
                f->score = score;
                f->move.slide_start = piece;
                f->move.slide_end = end;
                f->move.place = best;
                f->move.length = n;
            }
        }
    }
    sort_scored(found, nf, -1);
    int k = nf < slide_max ? nf : slide_max;
    for (int i = 0; i < k; i++) out[i] = found[i].move;
    return k;
}

static inline int same_move(const Move *a, const Move *b) {
    return a->slide_start == b->slide_start && a->slide_end == b->slide_end && a->place == b->place &&
           a->length == b->length;
}

/* candidates.block_candidates: at most `blocks` moves sliding one own piece along its line into the
 * room of the opponent's next piece, then placing our shortest length that may follow on its
 * snuggest spot; ranked by the opponent's placements taken away less a tenth of that spot's free
 * neighbours; moves among made[0..nmade) left out. */
static int block_candidates(const Pos *p, u128 empty, const int *lengths, int nl, int blocks, const Move *made,
                            int nmade, Move *out) {
    int me = p->turn, opp = 1 - me, theirs[8];
    if (blocks <= 0 || has_passed(p, opp) || !playable(p, opp, theirs)) return 0;
    u128 occupied = ALL & ~empty, h, v;
    placement_starts(empty, theirs[0], &h, &v);
    int before = popc(h) + popc(v);
    Scored found[512]; /* at most 15 pieces x 18 ends; on the stack: searches may overlap */
    int nf = 0, ends[24];
    for (int i = 0; i < p->npieces[me]; i++) {
        int piece = p->pieces[me][i], ne = slide_ends(piece, occupied, ends);
        for (int e = 0; e < ne; e++) {
            int end = ends[e];
            if (end < 0) continue;
            u128 after = (empty | SEG[piece].mask) & ~SEG[end].mask;
            placement_starts(after, theirs[0], &h, &v);
            int taken = before - popc(h) - popc(v);
            if (taken <= 0) continue;
            for (int j = 0; j < nl; j++) {
                int n = lengths[j];
                if (VALUE[n] < SEG[piece].value) continue;
                placement_starts(after, n, &h, &v);
                int all[200], na = segments_from_starts(h, v, n, all), best = -1, best_snug = 0;
                for (int a = 0; a < na; a++) {
                    int snug = popc(SEG[all[a]].nb & after);
                    if (best < 0 || snug < best_snug) { best = all[a]; best_snug = snug; }
                }
                if (best < 0) continue;
                if (nf < 512) {
                    Scored *f = &found[nf++];
                    f->score = taken - 0.1 * best_snug;
                    f->move.slide_start = piece;
                    f->move.slide_end = end;
                    f->move.place = best;
                    f->move.length = n;
                }
                break;
            }
        }
    }
    sort_scored(found, nf, -1);
    int k = 0;
    for (int i = 0; i < nf && k < blocks; i++) {
        const Move *m = &found[i].move;
        int seen = 0;
        for (int j = 0; j < nmade && !seen; j++) seen = same_move(&made[j], m);
        if (!seen) out[k++] = *m;
    }
    return k;
}

/* candidates.placement_blocks: at most `count` placements (no slide) of our playable lengths on the
 * room of the opponent's next piece, ranked by the placements of it each takes less a tenth of its
 * free neighbours (ties in the order of the lengths, then the rules'); placements among
 * made[0..nmade) left out. None once the opponent has passed. */
static int placement_blocks(const Pos *p, u128 empty, const int *lengths, int nl, int count, const Move *made,
                            int nmade, Move *out) {
    int opp = 1 - p->turn, theirs[8];
    if (count <= 0 || has_passed(p, opp) || !playable(p, opp, theirs)) return 0;
    unsigned char seen[NSEG] = {0};
    for (int j = 0; j < nmade; j++)
        if (made[j].slide_start < 0 && made[j].place >= 0) seen[made[j].place] = 1;
    u128 oh, ov;
    placement_starts(empty, theirs[0], &oh, &ov);
    int m = theirs[0], k = 0;
    double scores[MAX_PLACE_BLOCKS];
    for (int j = 0; j < nl; j++) {
        int n = lengths[j];
        u128 h, v;
        placement_starts(empty, n, &h, &v);
        int all[200], na = segments_from_starts(h, v, n, all);
        for (int a = 0; a < na; a++) {
            int seg = all[a];
            if (seen[seg]) continue;
            int taken = popc(oh & COVER_H[m][seg]) + popc(ov & COVER_V[m][seg]);
            if (taken <= 0) continue;
            double score = taken - 0.1 * popc(SEG[seg].nb & empty);
            if (k == count && score <= scores[k - 1]) continue;
            int i = k < count ? k++ : k - 1; /* insert, the lowest falling off when full */
            while (i > 0 && scores[i - 1] < score) { scores[i] = scores[i - 1]; out[i] = out[i - 1]; i--; }
            scores[i] = score;
            out[i].slide_start = out[i].slide_end = -1;
            out[i].place = seg;
            out[i].length = n;
        }
    }
    return k;
}

/* The moves the search tries, a good guess first; one PASS when the mover must pass. */
static int candidates(const Pos *p, const Widths *w, Move *out) {
    int per_length = w->per_length;
    int lengths[8];
    int nl = is_over(p) ? 0 : playable(p, p->turn, lengths);
    if (!nl) {
        out[0].slide_start = out[0].slide_end = out[0].place = -1;
        out[0].length = 0;
        return 1;
    }
    int me = p->turn;
    u128 empty = empty_cells(p);
    Scored scored[MAXMOVES];
    int ns = 0, killed = 0, counts[8] = {0};
    int spots[200], snugs[200]; /* at most 160 placements of one length on the board */
    for (int i = 0; i < nl; i++) {
        int n = lengths[i];
        u128 h, v;
        placement_starts(empty, n, &h, &v);
        int all[200], na = segments_from_starts(h, v, n, all), k = 0;
        for (int a = 0; a < na; a++) {
            int s = all[a], snug = popc(SEG[s].nb & empty);
            /* stable insertion by (snug, lo): horizontal before vertical at equal keys */
            int j = k;
            while (j > 0 && (snugs[j - 1] > snug || (snugs[j - 1] == snug && SEG[spots[j - 1]].lo > SEG[s].lo))) {
                spots[j] = spots[j - 1];
                snugs[j] = snugs[j - 1];
                j--;
            }
            spots[j] = s;
            snugs[j] = snug;
            k++;
        }
        counts[n] = k;
        int keep = k < per_length ? k : per_length;
        for (int j = 0; j < keep; j++) {
            Scored *x = &scored[ns++];
            x->score = ((double)killed + 0.3 * snugs[j]) - 0.5 * VALUE[n];
            x->move.slide_start = x->move.slide_end = -1;
            x->move.place = spots[j];
            x->move.length = n;
        }
        killed += VALUE[n] * p->hand[me][n];
    }
    sort_scored(scored, ns, 1);
    int m = 0;
    for (int i = 0; i < ns; i++) out[m++] = scored[i].move;
    out[m].slide_start = out[m].slide_end = out[m].place = -1;
    out[m].length = lengths[0];
    m++;
    int opp_next[16];
    int nopp = queue_of(p, 1 - me, opp_next);
    if (nopp > 4) nopp = 4;
    int slides = slide_candidates(p, empty, lengths, nl, counts, opp_next, nopp, w->scarce, w->slide_max, out + m);
    m += slides;
    m += block_candidates(p, empty, lengths, nl, w->blocks, out + m - slides, slides, out + m);
    m += placement_blocks(p, empty, lengths, nl, w->place_blocks, out, m, out + m);
    return m;
}

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
} Search;

#define CHECK_EVERY 256

static int count_node(Search *s) {
    s->nodes++;
    if (s->node_limit > 0 && s->nodes >= s->node_limit) return 1;
    if ((s->nodes & 15) == 0 && s->hard_deadline > 0 && monotonic_seconds() >= s->hard_deadline) return 1;
    if ((s->nodes % CHECK_EVERY) == 0 && s->should_stop != Py_None) {
        PyEval_RestoreThread(s->released);
        PyObject *r = PyObject_CallNoArgs(s->should_stop);
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


/* position tuple: (pieces0, pieces1, hand0, hand1, min0, min1, turn, passes) as HariGame gives them */
static int read_position(PyObject *args, Pos *p) {
    PyObject *pc[2], *hd[2], *passes;
    int min0, min1, turn;
    if (!PyArg_ParseTuple(args, "OOOOiiiO", &pc[0], &pc[1], &hd[0], &hd[1], &min0, &min1, &turn, &passes))
        return -1;
    memset(p, 0, sizeof(*p));
    for (int c = 0; c < 2; c++) {
        int segs[MAXPIECES];
        int n = read_ints(pc[c], segs, MAXPIECES, "pieces");
        if (n < 0) return -1;
        for (int i = 0; i < n; i++) {
            if (segs[i] < 0 || segs[i] >= NSEG) { PyErr_SetString(PyExc_ValueError, "bad segment index"); return -1; }
            add_piece(p, c, segs[i]);
        }
        int hand[8];
        if (read_ints(hd[c], hand, 8, "hand") != 8) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a hand has 8 counts");
            return -1;
        }
        for (int n2 = 0; n2 < 8; n2++) {
            if (hand[n2] < 0 || hand[n2] > SET_COUNT[n2]) {
                PyErr_Format(PyExc_ValueError, "a hand holds 0 to %d pieces of length %d", SET_COUNT[n2], n2);
                return -1;
            }
            p->hand[c][n2] = hand[n2];
        }
    }
    if (min0 < 0 || min0 > 7 || min1 < 0 || min1 > 7 || (turn != 0 && turn != 1)) {
        PyErr_SetString(PyExc_ValueError, "minimum lengths are 0 to 7 and the turn 0 or 1");
        return -1;
    }
    p->minlen[0] = min0;
    p->minlen[1] = min1;
    p->turn = turn;
    int pas[2];
    int np = read_ints(passes, pas, 2, "passes");
    if (np < 0) return -1;
    p->npasses = np;
    for (int i = 0; i < np; i++) {
        if (pas[i] != 0 && pas[i] != 1) { PyErr_SetString(PyExc_ValueError, "a passer is 0 or 1"); return -1; }
        p->passes[i] = pas[i];
    }
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
    if (read_position(position, &p) < 0) return NULL;
    Move moves[MAXMOVES];
    int n = candidates(&p, &w, moves);
    return moves_to_list(moves, n);
}

static PyObject *py_contest_margin(PyObject *self, PyObject *args) {
    PyObject *position;
    int color;
    if (!PyArg_ParseTuple(args, "Oi", &position, &color)) return NULL;
    Pos p;
    if (read_position(position, &p) < 0) return NULL;
    return PyLong_FromLong(contest_margin(&p, color ? 1 : 0));
}


/* search(position, root_moves, inner_per_length, max_depth, table_bits, node_limit, hard_deadline,
 *        should_stop, on_depth, stop_when_decided=False, scarce=4, slide_max=24, tie_seed=0, blocks=0,
 *        place_blocks=0)
 *   -> (move, value, depth, nodes, complete, pv)
 * Iterative deepening over root_moves (tuples as candidates() gives them), as
 * alphabeta.AlphaBeta.iterate: the deepest complete iteration's best, or the best of an
 * iteration cut short once its first move (the previous best) is searched. on_depth(depth,
 * value, pv, nodes) is called after each complete iteration; returning True ends the search.
 * A win or loss found over the candidates ends it only with stop_when_decided (the caller knows
 * the result is decided anyway): over a pruned list it is an estimate, not a proof. */
static PyObject *py_search(PyObject *self, PyObject *args) {
    PyObject *position, *root_list, *should_stop, *on_depth;
    int max_depth, table_bits, stop_when_decided = 0;
    Widths inner = {0, 4, 24, 0, 0};
    long long node_limit;
    unsigned long long tie_seed = 0;
    double hard_deadline;
    if (!PyArg_ParseTuple(args, "OOiiiLdOO|piiKii", &position, &root_list, &inner.per_length, &max_depth, &table_bits,
                          &node_limit, &hard_deadline, &should_stop, &on_depth, &stop_when_decided, &inner.scarce,
                          &inner.slide_max, &tie_seed, &inner.blocks, &inner.place_blocks))
        return NULL;
    if (check_widths(&inner) < 0) return NULL;
    if (max_depth < 0 || max_depth > MAXPLY - 2) {
        PyErr_Format(PyExc_ValueError, "max_depth is 0 to %d", MAXPLY - 2);
        return NULL;
    }
    Search *s = PyMem_Calloc(1, sizeof(Search));
    if (!s) return PyErr_NoMemory();
    if (read_position(position, &s->pos) < 0) { PyMem_Free(s); return NULL; }
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
    for (int depth = 1; depth <= max_depth; depth++) {
        s->released = PyEval_SaveThread();
        double alpha = -INF, beta = INF, it_best = -INF;
        Move it_move = order[0];
        int it_pv_n = 0, searched = 0;
        Move it_pv[MAXPLY];
        for (Py_ssize_t i = 0; i < nr; i++) {
            Undo u;
            push(p, &order[i], &u);
            if (count_node(s)) { pop(p, &u); s->aborted = 1; break; }
            double v = p->turn == mover ? search(s, depth - 1, alpha, beta, 1) : -search(s, depth - 1, -beta, -alpha, 1);
            pop(p, &u);
            if (s->aborted) break;
            searched = (int)i + 1;
            if (v > it_best) {
                it_best = v;
                it_move = order[i];
                it_pv[0] = order[i];
                memcpy(&it_pv[1], s->pv[1], sizeof(Move) * (size_t)s->pv_len[1]);
                it_pv_n = 1 + s->pv_len[1];
                if (v > alpha) alpha = v;
            }
        }
        PyEval_RestoreThread(s->released);
        if (s->error) break;
        if (s->aborted) {
            if (searched > 0) { /* the previous best was searched first: a sound answer */
                best_move = it_move; best_value = it_best; best_depth = depth;
                memcpy(pv_out, it_pv, sizeof(Move) * (size_t)it_pv_n); pv_n = it_pv_n;
            }
            complete = 0;
            break;
        }
        best_move = it_move; best_value = it_best; best_depth = depth; complete = 1;
        memcpy(pv_out, it_pv, sizeof(Move) * (size_t)it_pv_n); pv_n = it_pv_n;
        /* next iteration: the best first, the rest in this iteration's order */
        Move next[MAXMOVES];
        int k = 0;
        next[k++] = it_move;
        for (Py_ssize_t i = 0; i < nr; i++)
            if (!same_move(&order[i], &it_move)) next[k++] = order[i];
        memcpy(order, next, sizeof(Move) * (size_t)nr);
        if (on_depth != Py_None) {
            PyObject *pv = moves_to_list(pv_out, pv_n);
            PyObject *r = pv ? PyObject_CallFunction(on_depth, "idOL", depth, best_value, pv, s->nodes) : NULL;
            Py_XDECREF(pv);
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
        if (pv && mv) result = Py_BuildValue("(OdiLiO)", mv, best_value, best_depth, s->nodes, complete, pv);
        Py_XDECREF(pv);
        Py_XDECREF(mv);
    }
    PyMem_Free(s->table);
    PyMem_Free(s);
    return result;
}

static PyMethodDef methods[] = {
    {"candidates", py_candidates, METH_VARARGS, "candidates(position, per_length) -> [(start, end, place, length)]"},
    {"contest_margin", py_contest_margin, METH_VARARGS, "contest_margin(position, color) -> int"},
    {"segments", py_segments, METH_NOARGS, "segments() -> [(lo, hi, length, horizontal)] by index"},
    {"search", py_search, METH_VARARGS, "iterative-deepening alpha-beta; see the source"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_search_core", "HARI alpha-beta search core (C).", -1,
                                    methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__search_core(void) {
    build_tables();
    return PyModule_Create(&module);
}
