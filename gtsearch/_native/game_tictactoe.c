/* Tic-tac-toe's rules behind game.h (gtsearch.sources.builtin_games.TicTacToe), state for state.
 *
 * A state is one word, the Python state itself: X's squares in bits 0-8, O's in bits 9-17,
 * bit 18 when the player who just moved has won, bit 19 when O is to move.  The moves are the
 * empty squares 0..8 in order; the game has no parameter and no estimate.  open() makes the
 * table of which of the 512 sets of a player's squares hold a line (aux: 8 words of 64 bits);
 * count_game (game_kernels.c) counts the game's states through these functions. */
#include "core.h"
#include "game.h"

enum { T_O_SHIFT = 9, T_WON = 1 << 18, T_O_TO_MOVE = 1 << 19, T_SQUARES = (1 << 9) - 1 };

static int ttt_open(Game *g, const int64_t *params, int n_params) {
    (void)params;
    if (n_params != 0)
        return -1;
    static const int lines[8] = {0007, 0070, 0700, 0111, 0222, 0444, 0421, 0124};
    memset(g->aux, 0, 8 * sizeof *g->aux);
    for (int bits = 0; bits < 512; bits++)
        for (int i = 0; i < 8; i++)
            if ((bits & lines[i]) == lines[i])
                g->aux[bits >> 6] |= (uint64_t)1 << (bits & 63);
    g->n_aux = 8;
    g->scale = 1.0;
    return 0;
}

/* whether a player's nine squares hold a line */
static inline int ttt_line(const Game *g, uint64_t bits) { return g->aux[bits >> 6] >> (bits & 63) & 1; }

static void ttt_initial(const Game *g, GState *s) {
    (void)g;
    memset(s, 0, sizeof *s);
}

static int ttt_kind(const Game *g, const GState *s) {
    (void)g;
    const uint64_t st = s->w[0];
    if (st & T_WON || ((st | st >> T_O_SHIFT) & T_SQUARES) == T_SQUARES)
        return GAME_END;
    return st & T_O_TO_MOVE ? GAME_MIN : GAME_MAX;
}

static int ttt_moves(const Game *g, const GState *s, int *out) {
    (void)g;
    const uint64_t st = s->w[0];
    if (st & T_WON)
        return 0;
    const uint64_t taken = (st | st >> T_O_SHIFT) & T_SQUARES;
    int count = 0;
    for (int sq = 0; sq < 9; sq++)
        if (!(taken >> sq & 1))
            out[count++] = sq;
    return count;
}

static void ttt_play(const Game *g, const GState *s, int move, GState *out) {
    const uint64_t st = s->w[0], x = st & T_SQUARES, o = st >> T_O_SHIFT & T_SQUARES;
    *out = *s;
    if (st & T_O_TO_MOVE) { /* O plays; X moves next */
        const uint64_t mine = o | (uint64_t)1 << move;
        out->w[0] = x | mine << T_O_SHIFT | (ttt_line(g, mine) ? T_WON : 0);
    } else {
        const uint64_t mine = x | (uint64_t)1 << move;
        out->w[0] = mine | o << T_O_SHIFT | T_O_TO_MOVE | (ttt_line(g, mine) ? T_WON : 0);
    }
}

/* 0 at a full board, else the player who just moved has won */
static double ttt_utility(const Game *g, const GState *s) {
    (void)g;
    if (!(s->w[0] & T_WON))
        return 0.0;
    return s->w[0] & T_O_TO_MOVE ? 1.0 : -1.0;
}

const GameRules GAME_TICTACTOE = {"tictactoe", ttt_open, ttt_initial, ttt_kind, ttt_moves,
                                  ttt_play,    NULL,     ttt_utility, NULL};
