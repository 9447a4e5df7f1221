/* Dots and boxes's rules behind game.h (gtsearch.sources.library.dotsandboxes.DotsAndBoxes),
 * state for state.
 *
 * A state is the Python state (lines drawn, MAX's boxes - MIN's, MAX to move) and one flag
 * more: w[0] the lines drawn (bit i: line i, OpenSpiel's numbering, the horizontal lines row by
 * row, then the vertical ones), w[1] MAX's boxes - MIN's (a two's-complement int), w[2] bit 0
 * MAX to move, bit 1 a forced pass: whoever closes a box moves again, where gtsearch's tree
 * expects the other, so the state has the flag and its kind is that other player's, whose one
 * move GAME_PASS clears it.  The moves are the lines not drawn, in order.  params: rows,
 * columns (at most 64 lines: every Python board fits).  open() precomputes each box's four
 * lines (aux[0 .. boxes - 1]) and the board's lines (params[2]: how many). */
#include "core.h"
#include "game.h"

enum { D_ROWS, D_COLUMNS, D_LINES };
#define D_MAX_TO_MOVE 1u
#define D_PASS 2u

static int dab_open(Game *g, const int64_t *params, int n_params) {
    if (n_params != 2)
        return -1;
    const int64_t rows = params[D_ROWS], columns = params[D_COLUMNS];
    if (rows < 1 || columns < 1 || rows > 64 || columns > 64)
        return -1;
    const int64_t horizontal = (rows + 1) * columns, lines = horizontal + rows * (columns + 1);
    if (lines > 64)
        return -1;
    int n = 0;
    for (int64_t r = 0; r < rows; r++)
        for (int64_t c = 0; c < columns; c++)
            g->aux[n++] = (uint64_t)1 << (r * columns + c) | (uint64_t)1 << ((r + 1) * columns + c) |
                          (uint64_t)1 << (horizontal + r * (columns + 1) + c) |
                          (uint64_t)1 << (horizontal + r * (columns + 1) + c + 1);
    g->n_aux = n;
    g->params[D_ROWS] = rows;
    g->params[D_COLUMNS] = columns;
    g->params[D_LINES] = lines;
    g->scale = (double)(n + 1);
    return 0;
}

static void dab_initial(const Game *g, GState *s) {
    (void)g;
    memset(s, 0, sizeof *s);
    s->w[2] = D_MAX_TO_MOVE;
}

static inline uint64_t dab_all(const Game *g) {
    return g->params[D_LINES] == 64 ? ~(uint64_t)0 : ((uint64_t)1 << g->params[D_LINES]) - 1;
}

static int dab_kind(const Game *g, const GState *s) {
    if (s->w[0] == dab_all(g))
        return GAME_END;
    /* the mover, or the other at a forced pass */
    return !(s->w[2] & D_MAX_TO_MOVE) != !(s->w[2] & D_PASS) ? GAME_MAX : GAME_MIN;
}

static int dab_moves(const Game *g, const GState *s, int *out) {
    uint64_t open_lines = dab_all(g) & ~s->w[0];
    if (!open_lines)
        return 0;
    if (s->w[2] & D_PASS) {
        out[0] = GAME_PASS;
        return 1;
    }
    int count = 0;
    for (; open_lines; open_lines &= open_lines - 1)
        out[count++] = __builtin_ctzll(open_lines);
    return count;
}

static void dab_play(const Game *g, const GState *s, int move, GState *out) {
    *out = *s;
    if (move == GAME_PASS) {
        out->w[2] &= ~(uint64_t)D_PASS;
        return;
    }
    const uint64_t drawn = s->w[0] | (uint64_t)1 << move;
    int64_t closed = 0;
    for (int i = 0; i < g->n_aux; i++)
        closed += (g->aux[i] >> move & 1) && (drawn & g->aux[i]) == g->aux[i];
    out->w[0] = drawn;
    if (!closed) {
        out->w[2] ^= D_MAX_TO_MOVE;
        return;
    }
    const int64_t diff = (int64_t)s->w[1] + (s->w[2] & D_MAX_TO_MOVE ? closed : -closed);
    out->w[1] = (uint64_t)diff;
    if (drawn != dab_all(g)) /* the closer moves again, where the tree expects the other */
        out->w[2] |= D_PASS;
}

static double dab_utility(const Game *g, const GState *s) {
    (void)g;
    const int64_t diff = (int64_t)s->w[1];
    return (double)((diff > 0) - (diff < 0));
}

/* (MAX's boxes - MIN's) / (boxes + 1) */
static double dab_estimate(const Game *g, const GState *s) {
    return (double)(int64_t)s->w[1] / g->scale;
}

const GameRules GAME_DOTSANDBOXES = {"dotsandboxes", dab_open, dab_initial, dab_kind,
                                     dab_moves,      dab_play, NULL,        dab_utility,
                                     dab_estimate};
