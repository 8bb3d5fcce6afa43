/* HARI's packing race in C (engine/games/hari/race.py's contest_margin with upgrades, and the snug
 * placements of engine/games/packing.py it plays), for the search core's leaves: each side in turn puts
 * its next piece on its snuggest spot, sliding one own piece to make room where that is worth it; the
 * board-value margin at the end. Included by _search_core.c after its position; the tests hold it to
 * the Python, value for value (tests/engine/games/hari/test_hari_search_core.py).
 */
#ifndef HARI_RACE_H
#define HARI_RACE_H

#define FIT_SCAN 12

/* -- snug placements (engine/games/packing.py) ---------------------------------------- */


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

#endif
