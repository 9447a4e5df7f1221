/* The table of the built-in games' rules in C (game.h), in the order of gtsearch games, and
 * Connect Four's rules (every other game's are in game_<name>.c).
 *
 * Connect Four (gtsearch.sources.library.connect4.ConnectFour): the state's words are the
 * Python state's (x, o, won): X's and O's discs as bitboards, column by column, rows + 1 bits a
 * column (the top bit of a column stays empty), and won (1 when X just made a line, 2 when O
 * did: the Python state's +1 and -1).  The board must fit 64 bits: (rows + 1) * columns <= 64
 * (6x7 takes 49); a larger one keeps the Python rules.  aux holds the board's lines of k
 * squares (ConnectFour.windows, in its order: at most 4 a square, so at most 252 of them, a
 * board of 64 bits holding at most 63 squares), params the rows, columns and k, and aux's last
 * word the full board (C4_FULL), which kind() and moves() compare with the discs. */
#include "core.h"
#include "game.h"

enum { C4_ROWS, C4_COLUMNS, C4_K, C4_FULL = 255 };

static int c4_open(Game *g, const int64_t *params, int n_params) {
    if (n_params != 3)
        return -1;
    const int64_t rows = params[C4_ROWS], columns = params[C4_COLUMNS], k = params[C4_K];
    if (rows < 1 || columns < 1 || k < 1 || (rows + 1) * columns > 64)
        return -1;
    const int64_t height = rows + 1;
    int n = 0;
    static const int dirs[4][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};
    for (int64_t c = 0; c < columns; c++)
        for (int64_t r = 0; r < rows; r++)
            for (int d = 0; d < 4; d++) {
                uint64_t w = 0;
                int inside = 1;
                for (int64_t i = 0; i < k && inside; i++) {
                    const int64_t cc = c + i * dirs[d][0], rr = r + i * dirs[d][1];
                    if (cc < 0 || cc >= columns || rr < 0 || rr >= rows)
                        inside = 0;
                    else
                        w |= (uint64_t)1 << (cc * height + rr);
                }
                if (inside)
                    g->aux[n++] = w;
            }
    g->n_aux = n;
    /* ConnectFour.scale: a power of two above the number of lines */
    int bits = 0;
    while (n >> bits)
        bits++;
    g->scale = (double)((int64_t)1 << bits);
    for (int i = 0; i < 3; i++)
        g->params[i] = params[i];
    uint64_t full = 0;
    const uint64_t column = ((uint64_t)1 << rows) - 1;
    for (int64_t c = 0; c < columns; c++)
        full |= column << (c * height);
    g->aux[C4_FULL] = full;
    return 0;
}

static void c4_initial(const Game *g, GState *s) {
    (void)g;
    memset(s, 0, sizeof *s);
}

static inline uint64_t c4_full(const Game *g) { return g->aux[C4_FULL]; }

static int c4_moves(const Game *g, const GState *s, int *out) {
    const uint64_t taken = s->w[0] | s->w[1];
    if (s->w[2] || taken == c4_full(g))
        return 0;
    const int64_t height = g->params[C4_ROWS] + 1, top = g->params[C4_ROWS] - 1;
    int count = 0;
    for (int64_t c = 0; c < g->params[C4_COLUMNS]; c++)
        if (!(taken >> (c * height + top) & 1))
            out[count++] = (int)c;
    return count;
}

static int c4_kind(const Game *g, const GState *s) {
    if (s->w[2] || (s->w[0] | s->w[1]) == c4_full(g))
        return GAME_END;
    return __builtin_popcountll(s->w[0]) == __builtin_popcountll(s->w[1]) ? GAME_MAX : GAME_MIN;
}

/* ConnectFour._line: k discs in a line along one of the four steps */
static int c4_line(const Game *g, uint64_t discs) {
    const int64_t height = g->params[C4_ROWS] + 1;
    const int64_t steps[4] = {1, height, height + 1, height - 1};
    for (int d = 0; d < 4; d++) {
        uint64_t run = discs;
        for (int64_t i = 1; i < g->params[C4_K] && run; i++)
            run &= discs >> (i * steps[d]);
        if (run)
            return 1;
    }
    return 0;
}

static void c4_play(const Game *g, const GState *s, int move, GState *out) {
    const int64_t height = g->params[C4_ROWS] + 1;
    const uint64_t taken = s->w[0] | s->w[1];
    const uint64_t column = taken >> (move * height) & (((uint64_t)1 << height) - 1);
    const int filled = column ? 64 - __builtin_clzll(column) : 0;
    const uint64_t disc = (uint64_t)1 << (move * height + filled);
    *out = *s;
    if (__builtin_popcountll(s->w[0]) == __builtin_popcountll(s->w[1])) {
        out->w[0] |= disc;
        out->w[2] = c4_line(g, out->w[0]) ? 1 : 0;
    } else {
        out->w[1] |= disc;
        out->w[2] = c4_line(g, out->w[1]) ? 2 : 0;
    }
}

static double c4_utility(const Game *g, const GState *s) {
    (void)g;
    return s->w[2] == 1 ? 1.0 : s->w[2] == 2 ? -1.0 : 0.0;
}

static double c4_estimate(const Game *g, const GState *s) {
    if (s->w[2])
        return c4_utility(g, s);
    const uint64_t x = s->w[0], o = s->w[1];
    int64_t mine = 0, theirs = 0;
    for (int i = 0; i < g->n_aux; i++) {
        const uint64_t w = g->aux[i];
        mine += (w & x) && !(w & o);
        theirs += (w & o) && !(w & x);
    }
    return (double)(mine - theirs) / g->scale;
}

const GameRules GAME_CONNECT4 = {"connect4", c4_open,  c4_initial, c4_kind,    c4_moves,
                                   c4_play,    NULL,     c4_utility, c4_estimate};

const GameRules *const GAME_RULES[] = {&GAME_TICTACTOE, &GAME_NIM,  &GAME_CONNECT4,    &GAME_PIG,
                                       &GAME_DOTSANDBOXES, &GAME_OTHELLO, &GAME_HEXAPAWN};
const int GAME_RULES_COUNT = (int)(sizeof GAME_RULES / sizeof GAME_RULES[0]);

const GameRules *game_rules(const char *name) {
    for (int i = 0; i < GAME_RULES_COUNT; i++)
        if (!strcmp(GAME_RULES[i]->name, name))
            return GAME_RULES[i];
    return NULL;
}
