/* Othello's rules behind game.h (gtsearch.sources.library.othello.Othello), state for state.
 *
 * A state is the Python state (black, white, black to move) and one flag more: w[0] Black's
 * discs and w[1] White's as bitboards, row by row from the top left (square r * columns + c),
 * w[2] bit 0 when Black is to move, bit 1 after a forced pass.  The turn is the player
 * gtsearch's tree expects there: when that player has no move and the other has, the state's
 * one move is GAME_PASS (the tree's forced pass), which gives the same state with the flag:
 * the Python tree's entry of the same state below the pass, where the other moves (and, as
 * Othello.play does, leaves the turn as it was); when neither has a move, the game is over,
 * worth Black's discs - White's.  The words are the Python tree's entries one for one (a
 * position after a pass and the same position reached otherwise are two, as they are two
 * entries and two positions of the table in Python).  The moves are squares in order.  params: rows, columns
 * (even, at most 64 squares: every Python board fits).
 *
 * The move squares are found for all squares at once (Othello._move_squares: a run of the
 * other's discs grown by shifts in each of the eight directions), the discs a move turns by
 * the same shifts from the square played (Othello._flips walks the same rays).  open()
 * precomputes: aux[0] the board, aux[1] the corners, aux[2 + d] the squares a step in
 * direction d may reach (a step east must not wrap into the next row's first column), and
 * params[2] the times a run is grown (Othello.grow); the steps are the table below. */
#include "core.h"
#include "game.h"

enum { O_ROWS, O_COLUMNS, O_GROW };
enum { O_BOARD, O_CORNERS, O_REACH };

static int oth_open(Game *g, const int64_t *params, int n_params) {
    if (n_params != 2)
        return -1;
    const int64_t rows = params[O_ROWS], columns = params[O_COLUMNS];
    if (rows < 2 || columns < 2 || rows % 2 || columns % 2 || rows * columns > 64)
        return -1;
    const int size = (int)(rows * columns);
    const uint64_t board = size == 64 ? ~(uint64_t)0 : ((uint64_t)1 << size) - 1;
    uint64_t first = 0;
    for (int64_t r = 0; r < rows; r++)
        first |= (uint64_t)1 << (r * columns);
    const uint64_t last = first << (columns - 1);
    g->aux[O_BOARD] = board;
    g->aux[O_CORNERS] = (uint64_t)1 << 0 | (uint64_t)1 << (columns - 1) |
                        (uint64_t)1 << (size - columns) | (uint64_t)1 << (size - 1);
    /* the eight directions in Othello's order: (dr, dc) for dr, dc in -1, 0, 1 */
    int d = 0;
    for (int dr = -1; dr <= 1; dr++)
        for (int dc = -1; dc <= 1; dc++)
            if (dr || dc) {
                g->aux[O_REACH + d] = board & ~(dc == 1 ? first : dc == -1 ? last : 0);
                g->aux[O_REACH + 8 + d] = (uint64_t)(int64_t)(dr * columns + dc);
                d++;
            }
    g->n_aux = O_REACH + 16;
    g->params[O_ROWS] = rows;
    g->params[O_COLUMNS] = columns;
    g->params[O_GROW] = (rows > columns ? rows : columns) - 3;
    g->scale = 1.0;
    return 0;
}

/* a bitboard moved one step in direction d (aux[O_REACH + 8 + d] is the step, as an int) */
static inline uint64_t oth_step(const Game *g, int d, uint64_t b) {
    const int64_t shift = (int64_t)g->aux[O_REACH + 8 + d];
    return shift > 0 ? b << shift : b >> -shift;
}

/* the empty squares where a disc of `mine` flanks a line of `theirs` */
static uint64_t oth_squares(const Game *g, uint64_t mine, uint64_t theirs) {
    const uint64_t empty = g->aux[O_BOARD] & ~(mine | theirs);
    uint64_t found = 0;
    for (int d = 0; d < 8; d++) {
        const uint64_t reach = g->aux[O_REACH + d], flanked = theirs & reach;
        uint64_t run = oth_step(g, d, mine) & flanked;
        for (int64_t i = 0; i < g->params[O_GROW]; i++)
            run |= oth_step(g, d, run) & flanked;
        found |= oth_step(g, d, run) & reach & empty;
    }
    return found;
}

static void oth_initial(const Game *g, GState *s) {
    const int64_t columns = g->params[O_COLUMNS];
    const int64_t square = (g->params[O_ROWS] / 2 - 1) * columns + columns / 2 - 1;
    memset(s, 0, sizeof *s);
    s->w[0] = (uint64_t)1 << (square + 1) | (uint64_t)1 << (square + columns);
    s->w[1] = (uint64_t)1 << square | (uint64_t)1 << (square + columns + 1);
    s->w[2] = 1;
}

/* w[2]: bit 0 Black is to move (the Python state's turn), bit 1 the other moves there (the
 * state after the forced pass: the Python tree's entry of the same state, whose player is the
 * other) */
#define O_TURN 1u
#define O_PASSED 2u

/* whether Black moves at s: Black to move, or White to move and has passed */
static inline int oth_black(const GState *s) {
    return !(s->w[2] & O_TURN) != !(s->w[2] & O_PASSED);
}
static inline uint64_t oth_mine(const GState *s) { return oth_black(s) ? s->w[0] : s->w[1]; }
static inline uint64_t oth_theirs(const GState *s) { return oth_black(s) ? s->w[1] : s->w[0]; }

static int oth_kind(const Game *g, const GState *s) {
    if (!(s->w[2] & O_PASSED) && !oth_squares(g, oth_mine(s), oth_theirs(s)) &&
        !oth_squares(g, oth_theirs(s), oth_mine(s)))
        return GAME_END;
    /* the player to move, who passes when only the other can move; after the pass, the other */
    return oth_black(s) ? GAME_MAX : GAME_MIN;
}

static int oth_moves(const Game *g, const GState *s, int *out) {
    uint64_t found = oth_squares(g, oth_mine(s), oth_theirs(s));
    if (!found) {
        if (!oth_squares(g, oth_theirs(s), oth_mine(s)))
            return 0;
        out[0] = GAME_PASS;
        return 1;
    }
    int count = 0;
    while (found) {
        out[count++] = __builtin_ctzll(found);
        found &= found - 1;
    }
    return count;
}

static void oth_play(const Game *g, const GState *s, int move, GState *out) {
    *out = *s;
    if (move == GAME_PASS) {
        out->w[2] |= O_PASSED;
        return;
    }
    /* the other to move, as Othello.play gives it: after a pass, the same turn as before */
    out->w[2] = s->w[2] & O_PASSED ? s->w[2] & O_TURN : !(s->w[2] & O_TURN);
    const int black = oth_black(s);
    uint64_t mine = oth_mine(s), theirs = oth_theirs(s), flips = 0;
    const uint64_t disc = (uint64_t)1 << move;
    for (int d = 0; d < 8; d++) {
        const uint64_t reach = g->aux[O_REACH + d];
        uint64_t line = 0, at = oth_step(g, d, disc) & reach;
        while (at & theirs) {
            line |= at;
            at = oth_step(g, d, at) & reach;
        }
        if (at & mine)
            flips |= line;
    }
    mine |= flips | disc;
    theirs &= ~flips;
    out->w[0] = black ? mine : theirs;
    out->w[1] = black ? theirs : mine;
}

static double oth_utility(const Game *g, const GState *s) {
    (void)g;
    return (double)(__builtin_popcountll(s->w[0]) - __builtin_popcountll(s->w[1]));
}

/* Black's discs - White's, a corner counting 4 */
static double oth_estimate(const Game *g, const GState *s) {
    const uint64_t corners = g->aux[O_CORNERS];
    const int c = __builtin_popcountll(s->w[0] & corners) - __builtin_popcountll(s->w[1] & corners);
    return oth_utility(g, s) + 3.0 * c;
}

const GameRules GAME_OTHELLO = {"othello", oth_open, oth_initial, oth_kind,    oth_moves,
                                oth_play,  NULL,     oth_utility, oth_estimate};
