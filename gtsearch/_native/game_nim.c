/* Nim's rules behind game.h (gtsearch.sources.builtin_games.Nim), state for state.
 *
 * A state is the Python state (what is left, MAX to move): w[0] the counters left, w[1] 1
 * when MAX is to move.  The moves take 1 to min(take, left) counters, in that order (the
 * move is how many); whoever takes the last wins (+1 or -1 for MAX), or loses when misère,
 * and a game from a heap of 0 is worth 0.  params: heap, take, misere (0 or 1).  open()
 * refuses a game whose states could have more than GAME_MAX_MOVES moves. */
#include "core.h"
#include "game.h"

enum { NIM_HEAP, NIM_TAKE, NIM_MISERE };

static int nim_open(Game *g, const int64_t *params, int n_params) {
    if (n_params != 3 || params[NIM_HEAP] < 0 || params[NIM_TAKE] < 1)
        return -1;
    const int64_t most =
        params[NIM_TAKE] < params[NIM_HEAP] ? params[NIM_TAKE] : params[NIM_HEAP];
    if (most > GAME_MAX_MOVES)
        return -1;
    for (int i = 0; i < 3; i++)
        g->params[i] = params[i];
    g->n_aux = 0;
    g->scale = 1.0;
    return 0;
}

static void nim_initial(const Game *g, GState *s) {
    memset(s, 0, sizeof *s);
    s->w[0] = (uint64_t)g->params[NIM_HEAP];
    s->w[1] = 1;
}

static int nim_kind(const Game *g, const GState *s) {
    (void)g;
    if (!s->w[0])
        return GAME_END;
    return s->w[1] ? GAME_MAX : GAME_MIN;
}

static int nim_moves(const Game *g, const GState *s, int *out) {
    const uint64_t take = (uint64_t)g->params[NIM_TAKE];
    const uint64_t most = take < s->w[0] ? take : s->w[0];
    for (uint64_t m = 1; m <= most; m++)
        out[m - 1] = (int)m;
    return (int)most;
}

static void nim_play(const Game *g, const GState *s, int move, GState *out) {
    (void)g;
    *out = *s;
    out->w[0] = s->w[0] - (uint64_t)move;
    out->w[1] = !s->w[1];
}

/* the player who just moved took the last: the one not to move now */
static double nim_utility(const Game *g, const GState *s) {
    if (!g->params[NIM_HEAP])
        return 0.0;
    return (s->w[1] != 0) != (g->params[NIM_MISERE] != 0) ? -1.0 : 1.0;
}

const GameRules GAME_NIM = {"nim",    nim_open, nim_initial, nim_kind, nim_moves,
                            nim_play, NULL,     nim_utility, NULL};
