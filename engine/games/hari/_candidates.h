/* The moves HARI's search core tries, in C (engine/games/hari/candidates.py, move for move): each
 * playable length's snuggest placements, the shortest piece's discard, one own piece slid to make room
 * for a scarce length, and the moves that take room from the opponent's next piece. Included by
 * _search_core.c after its position and the race (_race.h); the tests hold it to the Python
 * (tests/engine/games/hari/test_hari_search_core.py).
 */
#ifndef HARI_CANDIDATES_H
#define HARI_CANDIDATES_H

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

#endif
