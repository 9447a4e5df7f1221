/* A game's tree on demand over its C rules (game_tree.c): what the searches on it share.
 *
 * game_tree.c defines these (and minimax, F1, alpha-beta, NegaScout, SCOUT and MTD on the
 * tree); the other searches on a game's C rules (search_sss_ondemand.c: SSS*, DUAL*) number
 * and open its nodes through them, so that every C search numbers the nodes as OnDemandTree
 * numbers them.
 */
#ifndef GTSEARCH_GAME_TREE_H
#define GTSEARCH_GAME_TREE_H

#include "core.h"
#include "game.h"

typedef struct {
    Game g;
    int64_t limit;     /* the --depth cut, -1: none */
    int64_t max_nodes; /* --max-nodes: the most nodes numbered */
    int64_t *first;    /* every node numbered: its first child, -1 before they are listed */
    size_t n, cap;
    int64_t *up, *depth; /* the nodes this search numbered, from n0 on */
    size_t n0, capup, capdepth;
} ODTree;

/* List node c's `count` children (c at depth d): their numbers from the next free one, the
 * first time only (OnDemandTree._list); c's first child, or -1 with VisitLimit or MemoryError */
node_t od_list(ODTree *T, node_t c, int64_t d, int count);

/* Open the node of state s at depth d: 1 with its moves (how many in *count) when it is an
 * inner node, else 0 with its value in *v (GameTree._value: the utility where the game ends,
 * the estimate at the cut) */
int od_open(const ODTree *T, const GState *s, int64_t d, int *moves, int *count, double *v);

/* the game's rules called `name`, opened with the parameters in the sequence `params`: 1, 0
 * when there are none such or they do not hold the parameters, -1 with an exception */
int od_game(Game *g, const char *name, PyObject *params);

/* the root's state from the sequence of its words (search_sss_ondemand.c): 0, or -1 with an
 * exception */
int od_root_state(PyObject *words, GState *root);

/* What every search of a game on demand opens (game_tree.c's od_begin): the rules, the root's
 * state, the tree's nodes numbered so far, the ticker and the list of leaves */
typedef struct {
    ODTree T;
    GState root;
    Ticker tk;
    NodeList leaves;
} ODRun;

/* Open R: the rules `name` with `params`, the root's state from `words`, the nodes numbered so
 * far (`first`), the ticker.  1, 0 when the core has no rules `name` that hold `params`
 * (nothing held), -1 with an exception (nothing held). */
int od_begin(ODRun *R, const char *name, PyObject *params, PyObject *words, long long limit,
             long long max_nodes, PyObject *first_obj, PyObject *progress);
void od_end(ODRun *R);

/* A node's key in a transposition table from its state s at depth d (search_tabled_ondemand.c's
 * positions, numbered in the order met): >= 0, or -1 with MemoryError */
typedef int64_t (*ODKey)(void *ctx, const GState *s, int64_t d);

/* mt.mtd from the first guess over R's tree with the transposition table tt, a node's key
 * key(key_ctx, ...) (tabled.py's TableMemory): the value, the positions proved and the passes;
 * the leaves read to R's list.  0, or -1 with an exception. */
int od_mt_tabled(ODRun *R, int root_max, double first, Table *tt, ODKey key, void *key_ctx,
                 double *value, int64_t *proved, int64_t *passes);

/* A search's result: its `n` own items (made here in turn: `make(i, ctx)` makes item i, NULL
 * with an exception), then the tree's arrays first, up and depth (game_tabled: 10 own items) */
#define OD_MOST_ITEMS 13
PyObject *od_result(const ODTree *T, int n, PyObject *(*make)(int, const void *),
                    const void *ctx);

/* -- the positions: an entry's words (and depth below a cut) to its number, in order met ----
 * (docs/algorithms.md, "The key"; gamekeys.CPositions takes them back).  The searches with a
 * table number a node's position the first time OnDemandTree.expand would meet its entry; the
 * depth word is the node's depth below a --depth cut (0 without one), and in its top byte
 * (POS_TAG_SHIFT) a chance node's tag (gtsearch.sources.games.CHANCE_TAGS: 4 where MAX is
 * expected below it, 5 where MIN is), 0 for the others, whose words say DECIDE or FORCED. */
#define POS_TAG_SHIFT 56
typedef struct {
    GState s;
    int64_t depth;
} PosKey;

typedef struct {
    PosKey *keys; /* the positions in the order they were numbered */
    size_t n, cap;
    int64_t *slots; /* open addressing: a position's number + 1, 0 for an empty slot */
    size_t mask;    /* slots - 1 (a power of two), 0 before the first */
} Positions;

/* the number of the entry of state s at depth (the depth word above): the next one the first
 * time it is met; -1 with MemoryError */
int64_t pos_number(Positions *P, const GState *s, int64_t depth);
/* The key of the node of state s at depth d in T (PositionKeys.entry_position): its entry's
 * number (pos_number, the depth word d below a cut, `tag` a chance node's or 0), itself where
 * the tree is `general` (GameTree.general), else twice it plus 1 where MAX moves there (the
 * root's player `root_max` at even depths); -1 with MemoryError */
int64_t pos_key(Positions *P, const ODTree *T, const GState *s, int64_t d, int64_t tag,
                int general, int root_max);
void pos_free(Positions *P);

#endif
