/* Pig's rules behind game.h (gtsearch.sources.library.pig.Pig), state for state.
 *
 * A state is the Python state (MAX's score, MIN's score, turn total, decisions so far, MAX's
 * turn, rolling) and one flag more: w[0] MAX's score, w[1] MIN's, w[2] the turn total, w[3]
 * the decisions in bits 0-31, bit 32 MAX's turn, bit 33 rolling (a chance node: the die's
 * faces 1..die, equally likely), bit 34 a forced pass.  After a face other than 1 the player
 * who rolled decides again, where gtsearch's tree expects the other: the state has the flag
 * and its kind is that other player's, whose one move GAME_PASS clears it (the Python tree's
 * forced pass).  The moves are 0 "roll" and 1 "stop" (only "stop" when the score and the turn
 * total reach the target).  params: target, die, horizon (die at most GAME_MAX_MOVES). */
#include "core.h"
#include "game.h"

enum { P_TARGET, P_DIE, P_HORIZON };
enum { PIG_ROLL = 0, PIG_STOP = 1 };
#define P_DECIDED 0xFFFFFFFFull
#define P_MAX_TURN ((uint64_t)1 << 32)
#define P_ROLLING ((uint64_t)1 << 33)
#define P_PASS ((uint64_t)1 << 34)

static int pig_open(Game *g, const int64_t *params, int n_params) {
    if (n_params != 3)
        return -1;
    const int64_t target = params[P_TARGET], die = params[P_DIE], horizon = params[P_HORIZON];
    if (target < 1 || target > ((int64_t)1 << 40) || die < 2 || die > GAME_MAX_MOVES ||
        horizon < 1 || horizon > (int64_t)P_DECIDED)
        return -1;
    for (int i = 0; i < 3; i++)
        g->params[i] = params[i];
    g->n_aux = 0;
    g->scale = (double)(2 * target);
    return 0;
}

static void pig_initial(const Game *g, GState *s) {
    (void)g;
    memset(s, 0, sizeof *s);
    s->w[3] = P_MAX_TURN;
}

static inline int pig_over(const Game *g, const GState *s) {
    const int64_t target = g->params[P_TARGET];
    return (int64_t)(s->w[3] & P_DECIDED) >= g->params[P_HORIZON] ||
           (int64_t)s->w[0] >= target || (int64_t)s->w[1] >= target;
}

static int pig_kind(const Game *g, const GState *s) {
    if (pig_over(g, s))
        return GAME_END;
    if (s->w[3] & P_ROLLING)
        return GAME_CHANCE;
    const int max_turn = (s->w[3] & P_MAX_TURN) != 0;
    if (s->w[3] & P_PASS)
        return max_turn ? GAME_MIN : GAME_MAX;
    return max_turn ? GAME_MAX : GAME_MIN;
}

static int pig_moves(const Game *g, const GState *s, int *out) {
    if (pig_over(g, s))
        return 0;
    if (s->w[3] & P_ROLLING) {
        for (int face = 1; face <= g->params[P_DIE]; face++)
            out[face - 1] = face;
        return (int)g->params[P_DIE];
    }
    if (s->w[3] & P_PASS) {
        out[0] = GAME_PASS;
        return 1;
    }
    const uint64_t score = s->w[3] & P_MAX_TURN ? s->w[0] : s->w[1];
    if ((int64_t)(score + s->w[2]) >= g->params[P_TARGET]) {
        out[0] = PIG_STOP;
        return 1;
    }
    out[0] = PIG_ROLL;
    out[1] = PIG_STOP;
    return 2;
}

static void pig_play(const Game *g, const GState *s, int move, GState *out) {
    (void)g;
    *out = *s;
    if (s->w[3] & P_ROLLING) { /* the die's face */
        out->w[3] &= ~P_ROLLING;
        if (move == 1) {
            out->w[2] = 0;
            out->w[3] ^= P_MAX_TURN;
        } else {
            out->w[2] += (uint64_t)move;
            out->w[3] |= P_PASS; /* the roller again, where the tree expects the other */
        }
    } else if (move == GAME_PASS) {
        out->w[3] &= ~P_PASS;
    } else if (move == PIG_ROLL) {
        out->w[3] = (s->w[3] + 1) | P_ROLLING;
    } else {
        out->w[s->w[3] & P_MAX_TURN ? 0 : 1] += s->w[2];
        out->w[2] = 0;
        out->w[3] = (s->w[3] + 1) ^ P_MAX_TURN;
    }
}

static double pig_utility(const Game *g, const GState *s) {
    if ((int64_t)s->w[0] >= g->params[P_TARGET])
        return 1.0;
    return (int64_t)s->w[1] >= g->params[P_TARGET] ? -1.0 : 0.0;
}

/* (MAX's score - MIN's, the turn total counted for the player whose turn it is) / (2 target) */
static double pig_estimate(const Game *g, const GState *s) {
    const int64_t turn = (int64_t)s->w[2];
    const int64_t diff =
        (int64_t)s->w[0] - (int64_t)s->w[1] + (s->w[3] & P_MAX_TURN ? turn : -turn);
    return (double)diff / g->scale;
}

const GameRules GAME_PIG = {"pig",    pig_open, pig_initial, pig_kind,    pig_moves,
                            pig_play, NULL,     pig_utility, pig_estimate};
