/* A node's candidate guesses put best first, only as many as the node keeps: for a game's part of the C search
 * tree (_tree.h), whose tree_game_moves gives a new node at most inner_max_children (64) candidates, best first,
 * and for the partners' roots and nodes (the playout cores' candidates: each length's best few).
 *
 * Why: a placement position has up to several hundred legal placements, and sorting them all with qsort at every
 * expansion took about a quarter (ISAAC) to half (FOUNDATIONS) of a search's time. A selection (quickselect) puts
 * the kept ones first, and only those are sorted, by insertion when they are few. The order is the full sort's:
 * higher `score` first, equal scores in `order` (the rules' order, as Python's stable sort keeps them); `order`
 * differs between guesses, so the order is total and the kept guesses are exactly a full sort's first ones.
 *
 * The including file defines BEST_FIRST_T first: its candidates' struct type, with a double `score` and an int `order`.
 */
#ifndef NATIVE_BEST_FIRST_H
#define NATIVE_BEST_FIRST_H

#include <stdlib.h>

/* qsort's comparator of that order (best first). */
static int by_score(const void *a, const void *b) {
    const BEST_FIRST_T *x = a, *y = b;
    if (x->score != y->score) return x->score < y->score ? 1 : -1;
    return x->order - y->order;
}

static inline int better(const BEST_FIRST_T *x, const BEST_FIRST_T *y) {
    return x->score > y->score || (x->score == y->score && x->order < y->order);
}

/* Puts the `keep` best of g[0..n) first, best first, the rest after them in no order; the count put first (n when
 * n <= keep). */
static int best_first(BEST_FIRST_T *g, int n, int keep) {
    if (keep < n) {
        int lo = 0, hi = n - 1, k = keep - 1;
        while (lo < hi) { /* quickselect: g[k] ends where a full sort puts it, the better ones before it */
            BEST_FIRST_T pivot = g[lo + (hi - lo) / 2];
            int i = lo, j = hi;
            while (i <= j) {
                while (better(&g[i], &pivot)) i++;
                while (better(&pivot, &g[j])) j--;
                if (i <= j) {
                    BEST_FIRST_T t = g[i];
                    g[i++] = g[j];
                    g[j--] = t;
                }
            }
            if (k <= j) hi = j;
            else if (k >= i) lo = i;
            else break;
        }
        n = keep;
    }
    if (n > 128) {
        qsort(g, (size_t)n, sizeof(BEST_FIRST_T), by_score);
        return n;
    }
    for (int i = 1; i < n; i++) {
        BEST_FIRST_T t = g[i];
        int j = i;
        for (; j > 0 && better(&t, &g[j - 1]); j--) g[j] = g[j - 1];
        g[j] = t;
    }
    return n;
}

#endif
