/* Candidates with their guesses, sorted best first: how the playout cores of ISAAC and HARI rank the
 * moves they offer at the root and at the treemc tree's nodes.
 *
 * Included by engine/games/<game>/_playout_core.c once its Move is defined; the game then defines
 * scored_tie(x, y), the order of two equal scores by the moves themselves (qsort is not stable: ties
 * broken by the moves sort alike on every machine and C library). FOUNDATIONS ranks its placements by
 * a stable order of its own (its _playout_core.c).
 */
#ifndef NATIVE_SCORED_H
#define NATIVE_SCORED_H

typedef struct {
    double score;
    Move move;
} Scored;

static int scored_tie(const Scored *x, const Scored *y);

/* qsort's comparison: the higher score first, then the game's order of the moves. */
static int by_score_desc(const void *a, const void *b) {
    const Scored *x = a, *y = b;
    if (x->score != y->score) return x->score < y->score ? 1 : -1;
    return scored_tie(x, y);
}

#endif
