/* The C interface of a game: what a built-in game's rules give the C searches (issue 36).
 *
 * A game in C is one file, game_<name>.c, that fills a GameRules (below) and is listed in
 * GAME_RULES (game_rules.c).  Its states are a few 64-bit words (GState), copied, never
 * pointed into: a move is made by writing the child's state into another GState (copy-make:
 * the parent's copy is the undo).  The rules are the Python game's, state for state
 * (gtsearch/sources/builtin_games.py and gtsearch/sources/library/): the same moves in the same
 * order, the same children, the same utilities and estimates; the Python game stays the
 * readable reference, and tests/test_game_rules.py compares the two over random positions.
 *
 * The rules describe gtsearch's *tree* of the game, as gtsearch.sources.games.GameTree builds
 * it from the Python game: a state's kind (MAX or MIN to move, a chance node, or the end),
 * its moves in order (a player who must pass has the one move GAME_PASS: the tree's forced
 * pass), each move's child, a chance node's outcomes with their integer weights, the value
 * at the end (the utility, in MAX's terms) and elsewhere the estimate (--depth's cut).
 *
 * Parameters (rows, columns, k, target, ...) are checked in Python; a game's `open` sees only
 * values the Python class accepted and refuses (returns -1) what its representation cannot
 * hold (a Connect Four board of more than 64 bits): the Python rules then run.
 */
#ifndef GTSEARCH_GAME_H
#define GTSEARCH_GAME_H

#include <stdint.h>

/* the words of a state: enough for every built-in game (Othello 8x8: two bitboards and the
 * turn; dots and boxes 4x4: 40 lines, MAX's boxes - MIN's, the turn); a state where the tree
 * has a forced pass, or has just had one, says so in its words (docs/core.md, "Games in C") */
#define GSTATE_WORDS 4
typedef struct {
    uint64_t w[GSTATE_WORDS];
} GState;

/* the most moves (or chance outcomes) a state of any built-in game has */
#define GAME_MAX_MOVES 128
/* the move of a forced pass */
#define GAME_PASS (-1)

/* a state's kind: who moves there */
enum { GAME_END = 0, GAME_MAX = 1, GAME_MIN = 2, GAME_CHANCE = 3 };

/* the most parameters of a game (Python passes them in the order of the game's Param list) */
#define GAME_MAX_PARAMS 4

typedef struct Game Game;

typedef struct {
    const char *name; /* the built-in game's name, as `gtsearch games` lists it */
    /* set up g from the parameters: 0, or -1 when the representation cannot hold them (no
     * exception set: the caller says "the Python rules" once) */
    int (*open)(Game *g, const int64_t *params, int n_params);
    void (*initial)(const Game *g, GState *s);
    /* s's kind (GAME_END, GAME_MAX, GAME_MIN, GAME_CHANCE) */
    int (*kind)(const Game *g, const GState *s);
    /* s's moves in the Python game's order (a chance node: its outcomes), written to out
     * (at most GAME_MAX_MOVES); how many (0 at the end) */
    int (*moves)(const Game *g, const GState *s, int *out);
    /* the state after `move` (one of s's moves) */
    void (*play)(const Game *g, const GState *s, int move, GState *out);
    /* a chance node's weights, in the order of its outcomes (all equal: NULL is allowed) */
    void (*weights)(const Game *g, const GState *s, int64_t *out);
    /* the value of a state where the game ends, in MAX's terms */
    double (*utility)(const Game *g, const GState *s);
    /* the estimate of a state that is not an end (NULL: the game has none) */
    double (*estimate)(const Game *g, const GState *s);
} GameRules;

struct Game {
    const GameRules *rules;
    int64_t params[GAME_MAX_PARAMS];
    /* what a game's open() precomputes (masks, lines, scales): its own words */
    uint64_t aux[256];
    int n_aux;
    double scale;
};

/* the table of games (game_rules.c); GAME_RULES_COUNT of them */
extern const GameRules *const GAME_RULES[];
extern const int GAME_RULES_COUNT;
/* each game's rules (game_rules.c, game_<name>.c) */
extern const GameRules GAME_TICTACTOE, GAME_NIM, GAME_CONNECT4, GAME_PIG, GAME_DOTSANDBOXES,
    GAME_OTHELLO, GAME_HEXAPAWN;
/* the rules called `name`, or NULL */
const GameRules *game_rules(const char *name);

/* Two states are the same position when their words are: a game keeps unused words 0. */
static inline int gstate_eq(const GState *a, const GState *b) {
    for (int i = 0; i < GSTATE_WORDS; i++)
        if (a->w[i] != b->w[i])
            return 0;
    return 1;
}

/* a 64-bit hash of a state's words (SplitMix64's finaliser over them) */
static inline uint64_t gstate_hash(const GState *s) {
    uint64_t h = 0x9E3779B97F4A7C15ULL;
    for (int i = 0; i < GSTATE_WORDS; i++) {
        uint64_t z = h ^ s->w[i];
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        h = z ^ (z >> 31);
    }
    return h;
}

#endif
