/* Hexapawn's rules behind game.h (gtsearch.sources.library.hexapawn.Hexapawn), state for state.
 *
 * A state is the Python state (white, black, white to move): w[0] White's pawns and w[1]
 * Black's as bitboards, row by row from row 1 (square r * columns + c), w[2] 1 when White is
 * to move.  A move (from, to) is the int from * 64 + to; the moves are in Hexapawn.moves's
 * order (the mover's pawns by square, each to the left, ahead, to the right).  The game ends
 * when a pawn is on the far row or the player to move has no move.  params: rows, columns
 * (at most 64 squares: every Python board fits).  open() precomputes aux[0] the first row,
 * aux[1] the last, aux[2] the first column, aux[3] the last, aux[4] the board (whether the
 * mover has a move is found for all pawns at once by shifts), and the scale of the
 * estimate, 2 rows columns. */
#include "core.h"
#include "game.h"

enum { H_ROWS, H_COLUMNS };
enum { H_FIRST, H_LAST, H_LEFT, H_RIGHT, H_BOARD };

static int hex_open(Game *g, const int64_t *params, int n_params) {
    if (n_params != 2)
        return -1;
    const int64_t rows = params[H_ROWS], columns = params[H_COLUMNS];
    if (rows < 2 || columns < 1 || rows * columns > 64)
        return -1;
    g->params[H_ROWS] = rows;
    g->params[H_COLUMNS] = columns;
    g->aux[H_FIRST] = ((uint64_t)1 << columns) - 1; /* columns <= 32 */
    g->aux[H_LAST] = g->aux[H_FIRST] << (columns * (rows - 1));
    g->aux[H_LEFT] = g->aux[H_RIGHT] = 0;
    for (int64_t r = 0; r < rows; r++) {
        g->aux[H_LEFT] |= (uint64_t)1 << (r * columns);
        g->aux[H_RIGHT] |= (uint64_t)1 << (r * columns + columns - 1);
    }
    g->aux[H_BOARD] = rows * columns == 64 ? ~(uint64_t)0 : ((uint64_t)1 << (rows * columns)) - 1;
    g->n_aux = 5;
    g->scale = (double)(2 * rows * columns);
    return 0;
}

static void hex_initial(const Game *g, GState *s) {
    memset(s, 0, sizeof *s);
    s->w[0] = g->aux[H_FIRST];
    s->w[1] = g->aux[H_LAST];
    s->w[2] = 1;
}

static int hex_moves(const Game *g, const GState *s, int *out) {
    const uint64_t white = s->w[0], black = s->w[1];
    if (white & g->aux[H_LAST] || black & g->aux[H_FIRST])
        return 0;
    const uint64_t mine = s->w[2] ? white : black, theirs = s->w[2] ? black : white;
    const int64_t columns = g->params[H_COLUMNS], step = s->w[2] ? 1 : -1;
    int count = 0;
    for (uint64_t left = mine; left; left &= left - 1) {
        const int64_t sq = __builtin_ctzll(left), r = sq / columns, c = sq % columns;
        const int64_t ahead = r + step; /* on the board: a pawn on the far row ended the game */
        for (int64_t dc = -1; dc <= 1; dc++) {
            if (c + dc < 0 || c + dc >= columns)
                continue;
            const int64_t t = ahead * columns + c + dc;
            if (dc ? (theirs >> t & 1) : !((mine | theirs) >> t & 1))
                out[count++] = (int)(sq * 64 + t);
        }
    }
    return count;
}

/* whether the player to move has a move (Hexapawn.moves is not empty), for all pawns at once:
 * a step onto an empty square, a capture to either side */
static int hex_can_move(const Game *g, const GState *s) {
    const uint64_t white = s->w[0], black = s->w[1];
    const uint64_t empty = g->aux[H_BOARD] & ~(white | black);
    const uint64_t off_left = ~g->aux[H_LEFT], off_right = ~g->aux[H_RIGHT];
    const int64_t columns = g->params[H_COLUMNS];
    if (s->w[2])
        return ((white << columns & empty) | ((white & off_left) << (columns - 1) & black) |
                ((white & off_right) << (columns + 1) & black)) != 0;
    return ((black >> columns & empty) | ((black & off_left) >> (columns + 1) & white) |
            ((black & off_right) >> (columns - 1) & white)) != 0;
}

static int hex_kind(const Game *g, const GState *s) {
    if (s->w[0] & g->aux[H_LAST] || s->w[1] & g->aux[H_FIRST] || !hex_can_move(g, s))
        return GAME_END;
    return s->w[2] ? GAME_MAX : GAME_MIN;
}

static void hex_play(const Game *g, const GState *s, int move, GState *out) {
    (void)g;
    const uint64_t from = (uint64_t)1 << (move / 64), to = (uint64_t)1 << (move % 64);
    *out = *s;
    if (s->w[2]) {
        out->w[0] = (s->w[0] & ~from) | to;
        out->w[1] = s->w[1] & ~to;
    } else {
        out->w[0] = s->w[0] & ~to;
        out->w[1] = (s->w[1] & ~from) | to;
    }
    out->w[2] = !s->w[2];
}

static double hex_utility(const Game *g, const GState *s) {
    if (s->w[0] & g->aux[H_LAST])
        return 1.0;
    if (s->w[1] & g->aux[H_FIRST])
        return -1.0;
    return s->w[2] ? -1.0 : 1.0; /* the player to move cannot */
}

/* Python's (bits.bit_length() - 1) // columns: the row of the highest (or lowest) pawn, -1
 * without one (floor division) */
static inline int64_t hex_row(uint64_t bit_index_plus_one, int64_t columns) {
    return bit_index_plus_one ? ((int64_t)bit_index_plus_one - 1) / columns : -1;
}

/* (White's pawns - Black's + White's furthest row - Black's) / (2 rows columns) */
static double hex_estimate(const Game *g, const GState *s) {
    const uint64_t white = s->w[0], black = s->w[1];
    const int64_t rows = g->params[H_ROWS], columns = g->params[H_COLUMNS];
    const int64_t far_white = hex_row(white ? 64 - (uint64_t)__builtin_clzll(white) : 0, columns);
    const int64_t far_black =
        rows - 1 - hex_row(black ? (uint64_t)__builtin_ctzll(black) + 1 : 0, columns);
    const int64_t pawns = __builtin_popcountll(white) - __builtin_popcountll(black);
    return (double)(pawns + far_white - far_black) / g->scale;
}

const GameRules GAME_HEXAPAWN = {"hexapawn", hex_open, hex_initial, hex_kind,    hex_moves,
                                 hex_play,   NULL,     hex_utility, hex_estimate};
