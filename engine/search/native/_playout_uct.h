/* The `treemc` partner's tree (_uct.h) over a game's playout core: the core's candidates, with the root's
 * parameters at the root and narrower ones below it, and its epsilon-greedy playouts as the leaves.
 *
 * Included by engine/games/<game>/_playout_core.c after _playout_api.h, once the game defines what only it
 * knows (the rest is the playout core's contract, _playout_api.h):
 *   UCT_TYPE_NAME; PASS_MOVE, its pass as a Move; same_move(a, b) and same_position(a, b): one move, one
 *   position (the tree is kept between moves by finding the game's new position in it).
 * The module's FINISH adds the type with add_uct_type (engine/search/native/_uct.h).
 */
#ifndef NATIVE_PLAYOUT_UCT_H
#define NATIVE_PLAYOUT_UCT_H

#define UCT_MAX_MOVES MAX_ARMS

/* The numbers of one tree: the core's parameters for the root's candidates, for the inner nodes', and for
 * its playouts (the game's PlayoutSettings, each in the core's order). */
typedef struct {
    double root[NPARAMS], inner[NPARAMS], playouts[NPARAMS];
} UctGame;

/* game settings: (root params, inner params, playout params) */
static int uct_game_read(PyObject *o, UctGame *g) {
    PyObject *root, *inner, *playouts;
    if (require_tuple(o, "game settings") < 0 || !PyArg_ParseTuple(o, "OOO", &root, &inner, &playouts)) return -1;
    if (read_prm(root, g->root) < 0 || read_prm(inner, g->inner) < 0 || read_prm(playouts, g->playouts) < 0)
        return -1;
    return 0;
}

/* The core's candidates with the root's or the inner nodes' parameters; 0 when the mover must pass. */
static int uct_moves(const UctGame *g, const Pos *p, int root, Move *out) {
    int count = candidates(p, root ? g->root : g->inner, out);
    return count == 1 && same_move(&out[0], &PASS_MOVE) ? 0 : count;
}

static Move uct_pass(void) { return PASS_MOVE; }
static void uct_play(Pos *p, const Move *m) { play(p, m); }
static int uct_same_move(const Move *a, const Move *b) { return same_move(a, b); }
static int uct_same_position(const Pos *a, const Pos *b) { return same_position(a, b); }
static int uct_over(const Pos *p) { return is_over(p); }
static double uct_end(const UctGame *g, const Pos *p, int color) { return result_for(p, color, g->playouts); }
static PyObject *uct_move_object(const Move *m) { return move_tuple(m); }

static double uct_playout(const UctGame *g, const Pos *p, Rng *rng, long long *plies, int color) {
    Pos q = *p;
    *plies += play_out(&q, g->playouts, rng, NULL);
    return result_for(&q, color, g->playouts);
}

#include "_uct.h"

#endif
