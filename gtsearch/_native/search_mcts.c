/* MCTS (UCT) in C: gtsearch.algorithms.mcts.iterate, choice for choice.
 *
 * The same numbers (draw(splitmix64(seed), j), j = 0, 1, ...), drawn at the same places, and
 * the same double arithmetic in the same order as the Python reference, so that both cores
 * make the same choices and back up the same sums (docs/algorithms.md, "Monte Carlo Tree
 * Search").  The search tree is a list of entries (a node, its visits, reward sum and square
 * sum), each node's children side by side; the result hands it back whole with the PV by
 * visits (visit_line), and Python finds the value from them, as it does for its own search.
 * Floating-point contraction (a * b + c fused into one rounding) would make the sums differ
 * from Python's: it is turned off. */
#if defined(__clang__)
#pragma clang fp contract(off)
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif
#include "core.h"
#include "game.h"

#include <time.h>

/* A node of the game tree that the search reached: its stats, and its children's entries, a
 * block of nk entries from kids (-1 until the node is first selected).  An entry is in the
 * search tree once its node has been expanded (`in`); the others of a block wait, so that
 * selection reads a node's children side by side instead of looking each one up. */
typedef struct {
    node_t node;
    int64_t n;
    double w;
    int32_t kids;     /* the first entry of its children's block, -1 until made */
    uint32_t nk : 29; /* the size of that block */
    uint32_t in : 1;
    uint32_t leaf : 1;   /* the node is a leaf (known from its block, without reading the tree) */
    uint32_t chance : 1; /* a chance node */
} Entry;

typedef struct {
    Entry *e;
    size_t len, cap;
    int64_t in_tree;
    double *sq; /* the sums of squared rewards of the root (sq[0]) and of its children (1 + i) */
} Entries;

/* Ask for the lines that a walk over the children of a node will read, given its first child
 * c, the second's number next and the node's end stop.  The walk follows the siblings one
 * after another (each END gives the next), and on a large tree each step waits for memory;
 * the next siblings are guessed at the first one's spacing (exact on a uniform tree, a wasted
 * request elsewhere: a prefetch changes no result) and asked for at once.  Children that are
 * leaves lie side by side: their values are asked for with them. */
static inline void prefetch_children(const TreeView *t, node_t c, node_t next, node_t stop) {
#if defined(__GNUC__) || defined(__clang__)
    if (!t->e32)
        return;
    if (next == c + 1) { /* leaves: the values the playout will read, and the ends */
        __builtin_prefetch(t->val + c);
        __builtin_prefetch(t->val + stop - 1);
        __builtin_prefetch(t->e32 + stop - 1);
        return;
    }
    node_t step = next - c;
    for (node_t q = next + step, j = 0; q < stop && j < 16; q += step, j++)
        __builtin_prefetch(t->e32 + q);
#else
    (void)t, (void)c, (void)next, (void)stop;
#endif
}

/* the squares of the root and its children, once the root's block is made: 0, or -1 */
static int root_squares(Entries *es) {
    if (!(es->sq = gt_calloc(1 + es->e[0].nk, sizeof *es->sq))) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

/* the block of n's children, made on first use: -1 with MemoryError */
static int64_t kids_of(const TreeView *t, const unsigned char *chance, Entries *es, int64_t i) {
    if (es->e[i].kids >= 0)
        return es->e[i].kids;
    node_t n = es->e[i].node, stop = END(t, n);
    int64_t first = (int64_t)es->len;
    for (node_t c = n + 1, next; c < stop; c = next) {
        if (ROOM(es->e, es->len, es->cap) < 0)
            return -1;
        next = END(t, c);
        if (c == n + 1)
            prefetch_children(t, c, next, stop);
        Entry fresh = {c, 0, 0.0, -1, 0, 0, next == c + 1, chance && chance[c]};
        es->e[es->len++] = fresh;
    }
    if (es->len > INT32_MAX || es->len - (size_t)first >= (1u << 29)) {
        PyErr_NoMemory(); /* 2**31 entries: 64 GB */
        return -1;
    }
    es->e[i].kids = (int32_t)first;
    es->e[i].nk = (uint32_t)((int64_t)es->len - first);
    if (i == 0 && root_squares(es) < 0)
        return -1;
    return first;
}

/* -- a game searched on demand over its rules in C (game.h) ---------------------------------
 * The tree of OnDemandTree (gtsearch/sources/ondemand.py), numbered as it numbers it: the
 * root is node 0, and a node's children take the next free numbers, left to right, the
 * first time the search lists them (selection through the node).  The search's entries are
 * those nodes: entry i is node i, its children's block its listed children.  Each node keeps
 * its state, parent, depth and the hash of its path from the root; a playout plays only the
 * moves it draws, and the leaf it reaches is a *loose* leaf, numbered ~0, ~1, ... as first
 * reached and known by its path (OnDemandTree.loose_leaf), found again by its path's hash. */
typedef struct {
    GState st;
    uint64_t hash; /* of its path from the root */
    int64_t parent;
    int64_t depth;
} GNode;

typedef struct {
    Game g;
    GNode *nodes; /* node i's (the entries' order) */
    size_t cap;
    int64_t cut;       /* --depth: nodes this deep are leaves valued by the estimate; -1 */
    int64_t max_nodes; /* --max-nodes: the nodes numbered, the loose leaves, a playout's moves */
    unsigned char *paths; /* the loose leaves' paths (child indices), end to end */
    size_t plen, pcap;
    int64_t *starts; /* where loose leaf i's path starts in paths (nloose + 1 of them) */
    size_t nloose, scap;
    Map loose;              /* a path's hash (and a probe count) -> its loose leaf */
    unsigned char *suffix;  /* a playout's moves (child indices) below its node */
    size_t slen, sufcap;
    int64_t deepest;
    int chance; /* the game has chance nodes: a playout asks each state's kind */
} GameSrc;

/* the hash of a path one step longer (the child of index i) */
static inline uint64_t path_step(uint64_t h, int i) { return sm64(h + (uint64_t)(i + 1) * MIX1); }

/* a chance node (a state at the --depth cut is a leaf first: asked only of the others) */
static int game_chance(const GameSrc *gs, const GState *s) {
    return gs->chance && gs->g.rules->kind(&gs->g, s) == GAME_CHANCE;
}

static int game_leaf(const GameSrc *gs, const GState *s, int64_t depth) {
    return gs->g.rules->kind(&gs->g, s) == GAME_END || (gs->cut >= 0 && depth >= gs->cut);
}

/* The value of a leaf: the utility where the game ends, at the --depth cut the estimate. */
static double game_value(const GameSrc *gs, const GState *s) {
    const Game *g = &gs->g;
    return g->rules->kind(g, s) == GAME_END ? g->rules->utility(g, s) : g->rules->estimate(g, s);
}

static PyObject *visit_limit(void) {
    PyErr_SetString(VisitLimit, "the search numbered more nodes than allowed");
    return NULL;
}

/* Node i's children numbered, once (OnDemandTree._list): their first number, or -1 with an
 * exception (VisitLimit past --max-nodes, MemoryError). */
static int64_t game_kids(GameSrc *gs, Entries *es, int64_t i) {
    if (es->e[i].kids >= 0)
        return es->e[i].kids;
    const Game *g = &gs->g;
    int moves[GAME_MAX_MOVES];
    const GNode parent = gs->nodes[i];
    const int k = g->rules->moves(g, &parent.st, moves);
    const int64_t first = (int64_t)es->len;
    if (first + k > gs->max_nodes) {
        visit_limit();
        return -1;
    }
    if (first + k > INT32_MAX) { /* the entries' 4-byte numbers: 2**31 nodes, 200 GB */
        PyErr_NoMemory();
        return -1;
    }
    while (es->cap < es->len + (size_t)k)
        if (grow_array(&es->e, &es->cap, sizeof *es->e) < 0)
            return -1;
    while (gs->cap < es->len + (size_t)k)
        if (grow_array(&gs->nodes, &gs->cap, sizeof *gs->nodes) < 0)
            return -1;
    for (int j = 0; j < k; j++) {
        GNode *c = gs->nodes + first + j;
        g->rules->play(g, &parent.st, moves[j], &c->st);
        c->parent = i;
        c->depth = parent.depth + 1;
        c->hash = path_step(parent.hash, j);
        const int leaf = game_leaf(gs, &c->st, c->depth);
        Entry fresh = {first + j, 0, 0.0, -1, 0, 0, leaf, !leaf && game_chance(gs, &c->st)};
        es->e[es->len++] = fresh;
    }
    if (parent.depth + 1 > gs->deepest)
        gs->deepest = parent.depth + 1;
    es->e[i].kids = (int32_t)first;
    es->e[i].nk = (uint32_t)k;
    if (i == 0 && root_squares(es) < 0)
        return -1;
    return first;
}

/* Node n's path from the root, then the playout's moves below it (gs->suffix), written past
 * the loose leaves' paths (at gs->paths + gs->plen, kept only when a new loose leaf takes
 * it); its length, or -1 with MemoryError. */
static int64_t whole_path(GameSrc *gs, const Entries *es, int64_t n) {
    const size_t depth = (size_t)gs->nodes[n].depth, len = depth + gs->slen;
    while (gs->pcap < gs->plen + len)
        if (grow_array(&gs->paths, &gs->pcap, 1) < 0)
            return -1;
    unsigned char *path = gs->paths + gs->plen;
    memcpy(path + depth, gs->suffix, gs->slen);
    for (size_t at = depth; n > 0; n = gs->nodes[n].parent)
        path[--at] = (unsigned char)(n - es->e[gs->nodes[n].parent].kids);
    return (int64_t)len;
}

/* The loose leaf at the path of hash h that is node n's path and the playout's moves
 * (OnDemandTree.loose_leaf, or known_leaf without moves): its number ~i, made when `make`;
 * n itself when there is none and not `make`; or INT64_MIN with MemoryError. */
static int64_t loose_leaf(GameSrc *gs, const Entries *es, int64_t n, uint64_t h, int make) {
    int64_t len = -1;
    for (uint64_t probe = 0;; probe++) { /* another path of the same hash: the next key */
        int64_t key = (int64_t)((h + probe) >> 1), *found = map_get(&gs->loose, key);
        if (!found && !make)
            return n;
        if (len < 0 && (len = whole_path(gs, es, n)) < 0)
            return INT64_MIN;
        if (found) {
            const int64_t at = gs->starts[*found], size = gs->starts[*found + 1] - at;
            if (size == len && !memcmp(gs->paths + at, gs->paths + gs->plen, (size_t)len))
                return ~*found;
            continue;
        }
        int64_t *slot = map_put(&gs->loose, key, NULL);
        if (!slot || ROOM(gs->starts, gs->nloose + 1, gs->scap) < 0)
            return INT64_MIN;
        gs->plen += (size_t)len;
        gs->starts[++gs->nloose] = (int64_t)gs->plen;
        *slot = (int64_t)gs->nloose - 1;
        return ~*slot;
    }
}

typedef struct {
    int64_t node, moves;
    double value;
    int leaf;
} Reached;

typedef struct {
    const unsigned char *chance; /* 1 at a chance node, or NULL */
    const int64_t *wnodes, *woff; /* the chance nodes with weights (sorted) and their ranges */
    const double *wval;
    Py_ssize_t nw;
    uint64_t key, j; /* the generator: draw(key, j) */
} Draws;

static uint64_t next_draw(Draws *d) { return draw_at(d->key, d->j++); }

/* the weights of chance node n (*k of them), or NULL: its outcomes are equally likely */
static const double *weights_of(const Draws *d, node_t n, Py_ssize_t *k) {
    Py_ssize_t lo = 0, hi = d->nw;
    while (lo < hi) {
        Py_ssize_t mid = lo + (hi - lo) / 2;
        if (d->wnodes[mid] < n)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == d->nw || d->wnodes[lo] != n)
        return NULL;
    *k = (Py_ssize_t)(d->woff[lo + 1] - d->woff[lo]);
    return d->wval + d->woff[lo];
}

/* Numbers.weighted: the first outcome of positive weight whose partial sum of the nw weights
 * w exceeds u * their total (the last of positive weight if rounding leaves none) */
static int64_t weighted_index(Draws *d, const double *w, Py_ssize_t nw) {
    double u = (double)(next_draw(d) >> 11) * 0x1p-53;
    double total = 0.0;
    for (Py_ssize_t i = 0; i < nw; i++)
        total += w[i];
    double tt = u * total, acc = 0.0;
    Py_ssize_t last = -1;
    for (Py_ssize_t i = 0; i < nw; i++) {
        acc += w[i];
        if (w[i] > 0) {
            if (tt < acc)
                return i;
            last = i;
        }
    }
    return last;
}

/* The index of a uniform move among the k children of n, or at a chance node of an outcome
 * by its weights (Numbers.uniform and Numbers.weighted of the reference). */
static int64_t draw_index(Draws *d, node_t n, int64_t k) {
    Py_ssize_t nw = 0;
    const double *w = d->chance && d->chance[n] ? weights_of(d, n, &nw) : NULL;
    if (!w)
        return (int64_t)mulhi(next_draw(d), (uint64_t)k);
    return weighted_index(d, w, nw);
}

/* A chance state's outcome among its k, drawn as Numbers.weighted draws it over the Python
 * game's weights as doubles (as_floats of each outcome's Fraction of the whole: w_i / their
 * sum; equal outcomes when the rules give no weights, as Pig's faces, 1/die each) */
static int64_t game_outcome(const GameSrc *gs, Draws *d, const GState *st, int k) {
    int64_t iw[GAME_MAX_MOVES], total = 0;
    double w[GAME_MAX_MOVES];
    for (int i = 0; i < k; i++)
        iw[i] = 1;
    if (gs->g.rules->weights)
        gs->g.rules->weights(&gs->g, st, iw);
    for (int i = 0; i < k; i++)
        total += iw[i];
    for (int i = 0; i < k; i++)
        w[i] = (double)iw[i] / (double)total;
    return weighted_index(d, w, k);
}

/* Ask for the lines of the whole playout from m (first child m + 1 ending at first_end, m
 * ending at stop) at once, before it is walked level by level (each level waits for memory
 * on a large tree).  Its moves are drawn ahead from the generator (not consumed: the walk
 * draws them again) and the tree is guessed uniform below m, every level's subtrees the size
 * that m's first child's spacing gives: exact on a uniform tree, elsewhere wasted requests
 * that change no result.  Trees without chance nodes (one uniform draw per move). */
static void prefetch_playout(const TreeView *t, const Draws *d, node_t m, node_t stop,
                             node_t first_end) {
#if defined(__GNUC__) || defined(__clang__)
    node_t size = first_end - (m + 1);
    uint64_t j = d->j;
    for (int level = 0; level < 64 && size >= 1; level++) {
        node_t width = stop - m - 1;
        if (width <= 0 || width % size || stop > t->size)
            return;
        node_t k = width / size;
        for (node_t q = 0; q < k && q < 16; q++) /* the siblings the walk will read */
            __builtin_prefetch(t->e32 + m + 1 + q * size);
        node_t c = m + 1 + (node_t)mulhi(draw_at(d->key, j++), (uint64_t)k) * size;
        if (size == 1) { /* the leaf: its value */
            __builtin_prefetch(t->val + c);
            return;
        }
        m = c;
        stop = c + size;
        size = (size - 1) / k;
    }
#else
    (void)t, (void)d, (void)m, (void)stop, (void)first_end;
#endif
}

/* mcts's playout from node n on a game (gtsearch.sources.playouts.playout): a move drawn
 * at each node passed, uniform among its moves, to the end, the --depth cut or, with `most`
 * >= 0, that many moves (then the estimate, no leaf); nothing numbered.  The nodes numbered,
 * the loose leaves and the moves played stay within --max-nodes.  0, or -1 with an exception. */
static int game_playout(GameSrc *gs, const Entries *es, Draws *d, int64_t n, int64_t most,
                        Reached *out) {
    const Game *g = &gs->g;
    const GameRules *r = g->rules;
    GState st = gs->nodes[n].st;
    int64_t depth = gs->nodes[n].depth, moves = 0;
    const int64_t budget = gs->max_nodes - (int64_t)es->len - (int64_t)gs->nloose;
    uint64_t h = gs->nodes[n].hash;
    int options[GAME_MAX_MOVES];
    gs->slen = 0;
    for (;;) {
        const int k = r->moves(g, &st, options); /* none: the end */
        if (!k || (gs->cut >= 0 && depth >= gs->cut))
            break;
        if (moves == most) {
            *out = (Reached){-1, moves, r->estimate(g, &st), 0};
            return 0;
        }
        if (++moves > budget) {
            visit_limit();
            return -1;
        }
        const int i = game_chance(gs, &st) ? (int)game_outcome(gs, d, &st, k)
                                           : (int)mulhi(next_draw(d), (uint64_t)k);
        if (ROOM(gs->suffix, gs->slen, gs->sufcap) < 0)
            return -1;
        gs->suffix[gs->slen++] = (unsigned char)i;
        h = path_step(h, i);
        GState child;
        r->play(g, &st, options[i], &child);
        st = child;
        depth++;
    }
    int64_t leaf = n;
    if (gs->slen || gs->nloose) /* a loose leaf (known_leaf: n's own loose number, if any) */
        if ((leaf = loose_leaf(gs, es, n, h, gs->slen > 0)) == INT64_MIN)
            return -1;
    *out = (Reached){leaf, moves, game_value(gs, &st), 1};
    return 0;
}

typedef struct {
    int64_t iterations, seconds_given, playout_depth;
    double seconds, lo, span, c;
} Limits;

typedef struct {
    int64_t done, playouts, visits;
    node_t cut; /* a node where a playout stopped without a static value, or -1 */
} Counts;

/* One iteration after another, as mcts.iterate runs them; 0, or -1 with an exception set. */
static int run(Search *s, Draws *d, const Limits *lim, Entries *es, Counts *out, GameSrc *gs) {
    const TreeView *t = &s->t;
    int64_t *path = NULL; /* entries from the root */
    node_t *kids = NULL;  /* a playout's node's children */
    double *logs = NULL;  /* logs[n] = log(n) */
    size_t cap = 0, kcap = 0, nlogs = 0, lcap = 0;
    double t0 = monotonic_seconds();
    int root_leaf = gs ? game_leaf(gs, &gs->nodes[0].st, 0) : IS_LEAF(t, 0);
    const int root_chance = gs ? !root_leaf && game_chance(gs, &gs->nodes[0].st)
                               : d->chance && d->chance[0];
    Entry root = {0, 0, 0.0, -1, 0, 1, root_leaf, root_chance};
    if (ROOM(es->e, es->len, es->cap) < 0)
        return -1;
    es->e[es->len++] = root;
    es->in_tree = 1;
    if (root_leaf && root_squares(es) < 0) /* the root's squares: its value's standard error */
        return -1;
    out->cut = -1;
    while (out->done != lim->iterations) {
        if (out->done && lim->seconds_given && monotonic_seconds() - t0 >= lim->seconds)
            break;
        if (search_tick(s) < 0)
            goto fail;
        size_t len = 0;
        if (ROOM(path, len, cap) < 0)
            goto fail;
        path[len++] = 0;
        int64_t p = 0;
        int is_max = t->root_max;
        /* 1. selection, ended by 2. the expansion of one node (or at a leaf in the tree) */
        while (!es->e[p].leaf) {
            int64_t first = gs ? game_kids(gs, es, p) : kids_of(t, d->chance, es, p);
            if (first < 0 || ROOM(path, len, cap) < 0)
                goto fail;
            Entry *e = es->e, *pe = e + p;
            if (pe->chance) {
                int64_t c = first + (gs ? game_outcome(gs, d, &gs->nodes[p].st, (int)pe->nk)
                                        : draw_index(d, pe->node, pe->nk));
                path[len++] = c;
                if (!e[c].in) {
                    e[c].in = 1;
                    es->in_tree++;
                    break;
                }
                p = c;
                continue;
            }
            int64_t best = -1, expand = -1;
            double best_u = -INF, log_n = 0.0;
            for (int64_t c = first; c < first + pe->nk; c++) {
                if (!e[c].in) {
                    expand = c;
                    break;
                }
                if (c == first) { /* log(n) from a table: the same doubles, computed once */
                    while ((int64_t)nlogs <= pe->n) {
                        if (ROOM(logs, nlogs, lcap) < 0)
                            goto fail;
                        logs[nlogs] = log((double)nlogs);
                        nlogs++;
                    }
                    log_n = logs[pe->n];
                }
#if defined(__GNUC__) || defined(__clang__)
                if (e[c].kids >= 0) /* the next level's block, asked for while UCB1 is computed */
                    __builtin_prefetch(e + e[c].kids);
#endif
                double q = e[c].w / (double)e[c].n;
                if (!is_max)
                    q = 1.0 - q;
                double u = q + lim->c * sqrt(log_n / (double)e[c].n);
                if (u > best_u) {
                    best = c;
                    best_u = u;
                }
            }
            if (expand >= 0) {
                e[expand].in = 1;
                es->in_tree++;
                path[len++] = expand;
                break;
            }
            p = best;
            path[len++] = p;
            is_max = !is_max;
        }
        /* 3. the playout */
        node_t m = es->e[path[len - 1]].node;
        int64_t moves = 0;
        if (!es->e[path[len - 1]].leaf)
            out->playouts++;
        double v;
        int leaf;
        if (gs) {
            Reached at;
            if (game_playout(gs, es, d, m, lim->playout_depth, &at) < 0)
                goto fail;
            m = at.node, moves = at.moves, v = at.value, leaf = at.leaf;
        } else {
            if (!es->e[path[len - 1]].leaf) {
                if (t->e32 && t->val && !d->chance && !IS_LEAF(t, m))
                    prefetch_playout(t, d, m, END(t, m), END(t, m + 1));
                while (!IS_LEAF(t, m) && moves != lim->playout_depth) {
                    size_t k = 0;
                    node_t stop = END(t, m);
                    for (node_t c = m + 1, next; c < stop; c = next) {
                        if (ROOM(kids, k, kcap) < 0)
                            goto fail;
                        kids[k++] = c;
                        next = END(t, c);
                        if (k == 1)
                            prefetch_children(t, c, next, stop);
                    }
                    m = kids[draw_index(d, m, (int64_t)k)];
                    moves++;
                }
            }
            v = VAL(t, m);
            leaf = IS_LEAF(t, m);
        }
        if (leaf) {
            if (nl_push(&s->leaves, m) < 0)
                goto fail;
        } else if (v != v) { /* no static value: Python words the error */
            out->cut = m;
            break;
        }
        double r = 0.5;
        if (lim->span != 0.0) {
            r = (v - lim->lo) / lim->span;
            r = r < 0.0 ? 0.0 : r > 1.0 ? 1.0 : r;
        }
        /* 4. the backup */
        for (size_t i = 0; i < len; i++) {
            Entry *e = es->e + path[i];
            e->n += 1;
            e->w += r;
        }
        if (es->sq) { /* the squares, where the value's standard error may need them */
            es->sq[0] += r * r;
            if (len > 1)
                es->sq[1 + path[1] - es->e[0].kids] += r * r;
        }
        out->visits += (int64_t)len + moves;
        out->done++;
    }
    gt_free(path);
    gt_free(kids);
    gt_free(logs);
    return 0;
fail:
    gt_free(path);
    gt_free(kids);
    gt_free(logs);
    return -1;
}

/* mcts.principal_line(): from the root through decision nodes the most visited child (ties:
 * the leftmost), as entries of es, in *line (malloc'd); 0 or -1 (Python would otherwise look
 * each child up in the search tree it is handed: a sixth of the time of 20,000 iterations).
 * On a game (gs), the children of the line's last node are numbered if they were not, as
 * principal_line's listing of them numbers them on an OnDemandTree. */
static int visit_line(Entries *es, GameSrc *gs, int64_t **line, size_t *len) {
    size_t cap = 0;
    int64_t i = 0;
    *len = 0;
    for (;;) {
        if (ROOM(*line, *len, cap) < 0)
            return -1;
        (*line)[(*len)++] = i;
        if (es->e[i].leaf || es->e[i].chance)
            return 0;
        if (es->e[i].kids < 0)
            return gs && game_kids(gs, es, i) < 0 ? -1 : 0;
        const Entry *e = es->e + i;
        int64_t best = -1, most = 0;
        for (int64_t c = e->kids; c < e->kids + e->nk; c++)
            if (es->e[c].in && es->e[c].n > most) {
                best = c;
                most = es->e[c].n;
            }
        if (best < 0)
            return 0;
        i = best;
    }
}

/* (nodes, visits, sums, squares) of the search tree, in the order the nodes were reached (a
 * node's children side by side); the squares of the root and its children only, NaN below.
 * The line's entries (line, len) become their rows in those arrays. */
static PyObject *tree_arrays(const Entries *es, int64_t *line, size_t len) {
    size_t k = es->in_tree ? (size_t)es->in_tree : 1;
    /* one block for the four columns: nodes, visits (int64), sums, squares (double) */
    int64_t *nodes = gt_malloc(k * (2 * sizeof(int64_t) + 2 * sizeof(double)));
    if (!nodes)
        return PyErr_NoMemory();
    int64_t *visits = nodes + k;
    double *sums = (double *)(visits + k), *squares = sums + k;
    int64_t kids = es->e[0].kids, nk = es->e[0].nk;
    k = 0;
    size_t j = 0; /* the line's entries come in increasing order: a block after its parent */
    for (size_t i = 0; i < es->len; i++) {
        const Entry *e = es->e + i;
        if (!e->in)
            continue;
        if (j < len && line[j] == (int64_t)i)
            line[j++] = -1 - (int64_t)k; /* marked: a row, not an entry any more */
        nodes[k] = e->node;
        visits[k] = e->n;
        sums[k] = e->w;
        squares[k] = NAN;
        if (es->sq && i == 0)
            squares[k] = es->sq[0];
        else if (es->sq && (int64_t)i >= kids && (int64_t)i < kids + nk)
            squares[k] = es->sq[1 + (int64_t)i - kids];
        k++;
    }
    /* one array at a time: a failed one stops the rest (no call with an exception set) */
    PyObject *result = PyTuple_New(4);
    const char *codes[4] = {"q", "q", "d", "d"};
    const void *columns[4] = {nodes, visits, sums, squares};
    const size_t items[4] = {sizeof *nodes, sizeof *visits, sizeof *sums, sizeof *squares};
    for (Py_ssize_t i = 0; result && i < 4; i++) {
        PyObject *column = make_array(codes[i], columns[i], k * items[i]);
        if (!column)
            Py_CLEAR(result);
        else
            PyTuple_SET_ITEM(result, i, column);
    }
    gt_free(nodes);
    return result;
}

/* What a search whose iterations ran leaves: (nodes, visits, sums, squares, leaves,
 * iterations, playouts, visits, cut, distinct leaves, the PV's nodes, their rows in the
 * arrays); NULL with an exception.  `distinct` is counted after the line (which may number
 * nodes on a game): it gives the different leaves of s's list, or -1 on error. */
static PyObject *mcts_result(Search *s, Entries *es, GameSrc *gs, const Counts *counts,
                             int (*distinct)(const Search *, const Entries *, const GameSrc *,
                                             size_t *)) {
    PyObject *result = NULL, *arrays = NULL;
    int64_t *line = NULL;
    size_t len = 0, different = 0;
    if (visit_line(es, gs, &line, &len) < 0 || distinct(s, es, gs, &different) < 0) {
        gt_free(line);
        return NULL;
    }
    /* the line's nodes, and their rows in the arrays (tree_arrays marks them -1 - row) */
    int64_t *rows = gt_malloc(2 * len * sizeof *rows);
    if (!rows) {
        PyErr_NoMemory();
    } else {
        for (size_t j = 0; j < len; j++)
            rows[len + j] = es->e[line[j]].node;
        if ((arrays = tree_arrays(es, line, len)) != NULL) {
            for (size_t j = 0; j < len; j++)
                rows[j] = -1 - line[j];
            PyObject *leaves = nl_to_array(&s->leaves), *nodes = NULL, *at = NULL;
            if (leaves)
                nodes = line_to_list(rows + len, len);
            if (nodes)
                at = line_to_list(rows, len);
            if (at)
                result = Py_BuildValue(
                    "(OOOONLLLLLNN)", PyTuple_GET_ITEM(arrays, 0), PyTuple_GET_ITEM(arrays, 1),
                    PyTuple_GET_ITEM(arrays, 2), PyTuple_GET_ITEM(arrays, 3), leaves,
                    (long long)counts->done, (long long)counts->playouts,
                    (long long)counts->visits, (long long)counts->cut, (long long)different,
                    nodes, at);
            else {
                Py_XDECREF(leaves);
                Py_XDECREF(nodes);
            }
            Py_DECREF(arrays);
        }
        gt_free(rows);
    }
    gt_free(line);
    return result;
}

/* the different leaves of a tree's search: nl_distinct's */
static int tree_distinct(const Search *s, const Entries *es, const GameSrc *gs, size_t *count) {
    (void)es, (void)gs;
    return nl_distinct(&s->leaves, count);
}

PyObject *gt_mcts(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *end, *values, *chance, *wnodes, *woff, *wval, *progress;
    int root_max;
    Limits lim;
    unsigned long long seed;
    long long iterations, playout_depth;
    if (!PyArg_ParseTuple(args, "OOpOOOOddLdKdLO", &end, &values, &root_max, &chance, &wnodes,
                          &woff, &wval, &lim.lo, &lim.span, &iterations, &lim.seconds, &seed,
                          &lim.c, &playout_depth, &progress))
        return NULL;
    lim.iterations = iterations;
    lim.seconds_given = lim.seconds >= 0.0;
    lim.playout_depth = playout_depth;
    Py_buffer cv = {0}, nv = {0}, ov = {0}, vv = {0};
    Search s;
    memset(&s, 0, sizeof s);
    Entries es = {NULL, 0, 0, 0, NULL};
    PyObject *result = NULL;
    if (PyObject_GetBuffer(wnodes, &nv, PyBUF_SIMPLE) < 0 ||
        PyObject_GetBuffer(woff, &ov, PyBUF_SIMPLE) < 0 ||
        PyObject_GetBuffer(wval, &vv, PyBUF_SIMPLE) < 0 ||
        (chance != Py_None && PyObject_GetBuffer(chance, &cv, PyBUF_SIMPLE) < 0))
        goto release;
    if (tree_open(&s.t, end, values, root_max) < 0)
        goto release;
    if (cv.obj && cv.len != (Py_ssize_t)s.t.size) {
        PyErr_SetString(PyExc_ValueError, "chance must have a byte per node");
        goto close;
    }
    if (tick_open(&s.tk, progress) < 0)
        goto close;
    nl_init(&s.leaves, s.t.size > INT32_MAX);
    Draws d = {cv.obj ? (const unsigned char *)cv.buf : NULL,
               (const int64_t *)nv.buf,
               (const int64_t *)ov.buf,
               (const double *)vv.buf,
               nv.len / (Py_ssize_t)sizeof(int64_t),
               sm64(seed),
               0};
    Counts counts = {0, 0, 0, -1};
    if (run(&s, &d, &lim, &es, &counts, NULL) == 0)
        result = mcts_result(&s, &es, NULL, &counts, tree_distinct);
    gt_free(es.e);
    gt_free(es.sq);
    nl_free(&s.leaves);
    tick_close(&s.tk);
close:
    tree_close(&s.t);
release:
    if (nv.obj)
        PyBuffer_Release(&nv);
    if (ov.obj)
        PyBuffer_Release(&ov);
    if (vv.obj)
        PyBuffer_Release(&vv);
    if (cv.obj)
        PyBuffer_Release(&cv);
    return result;
}

/* the different leaves of a game's search: its numbered leaves (numbers >= 0) by a bit set of
 * the nodes, and every loose leaf (each is in the list: it was made as a playout reached it) */
static int game_distinct(const Search *s, const Entries *es, const GameSrc *gs, size_t *count) {
    uint64_t *seen = gt_calloc(es->len / 64 + 1, sizeof *seen);
    if (!seen) {
        PyErr_NoMemory();
        return -1;
    }
    size_t k = gs->nloose;
    for (size_t i = 0; i < s->leaves.len; i++) {
        node_t n = nl_get(&s->leaves, i);
        if (n >= 0 && !(seen[n >> 6] >> (n & 63) & 1)) {
            seen[n >> 6] |= (uint64_t)1 << (n & 63);
            k++;
        }
    }
    gt_free(seen);
    *count = k;
    return 0;
}

/* (parent, first, depth) of the numbered nodes (OnDemandTree's arrays: the first child -1
 * until listed), the loose leaves' paths (tuples of child indices), the deepest node's depth,
 * and on a game with chance nodes the decision nodes above each node (OnDemandTree's
 * turn_counts: a node's parent's, one more below a decision node), else None; NULL with an
 * exception */
static PyObject *game_arena(const Entries *es, const GameSrc *gs) {
    const size_t n = es->len;
    const int ncols = gs->chance ? 4 : 3;
    int64_t *cols = gt_malloc((size_t)ncols * n * sizeof *cols); /* n >= 1: the root */
    if (!cols)
        return PyErr_NoMemory();
    for (size_t i = 0; i < n; i++) {
        const int64_t up = gs->nodes[i].parent;
        cols[i] = up;
        cols[n + i] = es->e[i].kids;
        cols[2 * n + i] = gs->nodes[i].depth;
        if (gs->chance) /* numbered after its parent: the parent's count is made */
            cols[3 * n + i] = up < 0 ? 0 : cols[3 * n + (size_t)up] + !es->e[up].chance;
    }
    PyObject *arrays[4] = {NULL, NULL, NULL, NULL}, *paths = PyList_New((Py_ssize_t)gs->nloose);
    for (int j = 0; paths && j < ncols; j++)
        if (!(arrays[j] = make_array("q", cols + (size_t)j * n, n * sizeof *cols)))
            Py_CLEAR(paths);
    gt_free(cols);
    for (size_t i = 0; paths && i < gs->nloose; i++) {
        const int64_t at = gs->starts[i];
        PyObject *bytes = PyBytes_FromStringAndSize((const char *)gs->paths + at,
                                                    (Py_ssize_t)(gs->starts[i + 1] - at));
        PyObject *path = bytes ? PySequence_Tuple(bytes) : NULL; /* its bytes as ints */
        Py_XDECREF(bytes);
        if (!path)
            Py_CLEAR(paths);
        else
            PyList_SET_ITEM(paths, (Py_ssize_t)i, path);
    }
    PyObject *result = NULL;
    if (paths)
        result = Py_BuildValue("(OOONLO)", arrays[0], arrays[1], arrays[2], paths,
                               (long long)gs->deepest, arrays[3] ? arrays[3] : Py_None);
    for (int j = 0; j < 4; j++)
        Py_XDECREF(arrays[j]);
    return result;
}

/* mcts_game(name, params, words, root_max, cut, max_nodes, lo, span, iterations, seconds,
 * seed, c, playout_depth, progress[, chance]): mcts on the game of the C rules `name` with
 * those parameters, from the state of those words, searched on demand as on an OnDemandTree
 * (cut: --depth, -1 none; chance: the game has chance nodes, each outcome drawn by its
 * weight); (mcts's result as gt_mcts gives it, game_arena's (parent, first, depth, loose
 * leaves' paths, deepest, turns or None)), or None when the rules cannot hold the parameters
 * (or the game has no estimate for a cut).  VisitLimit past max_nodes. */
PyObject *gt_mcts_game(PyObject *self, PyObject *args) {
    (void)self;
    const char *name;
    PyObject *params, *progress;
    unsigned long long words[GSTATE_WORDS], seed;
    int root_max;
    long long cut, max_nodes, iterations, playout_depth;
    Limits lim;
    int chance = 0;
    if (!PyArg_ParseTuple(args, "sO(KKKK)pLLddLdKdLO|p", &name, &params, &words[0], &words[1],
                          &words[2], &words[3], &root_max, &cut, &max_nodes, &lim.lo, &lim.span,
                          &iterations, &lim.seconds, &seed, &lim.c, &playout_depth, &progress,
                          &chance))
        return NULL;
    GameSrc gs;
    memset(&gs, 0, sizeof gs);
    gs.chance = chance;
    if (!(gs.g.rules = game_rules(name))) {
        PyErr_Format(PyExc_ValueError, "no rules of a game %s in C", name);
        return NULL;
    }
    int64_t ps[GAME_MAX_PARAMS];
    PyObject *seq = PySequence_Fast(params, "params must be a sequence");
    if (!seq)
        return NULL;
    Py_ssize_t np = PySequence_Fast_GET_SIZE(seq);
    for (Py_ssize_t i = 0; i < np && i < GAME_MAX_PARAMS; i++)
        ps[i] = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(seq, i));
    Py_DECREF(seq);
    if (PyErr_Occurred())
        return NULL;
    /* parameters the rules cannot hold, or a cut where the game has no estimate: Python's */
    if (np > GAME_MAX_PARAMS || gs.g.rules->open(&gs.g, ps, (int)np) < 0 ||
        ((cut >= 0 || playout_depth >= 0) && !gs.g.rules->estimate))
        Py_RETURN_NONE;
    gs.cut = cut;
    gs.max_nodes = max_nodes;
    lim.iterations = iterations;
    lim.seconds_given = lim.seconds >= 0.0;
    lim.playout_depth = playout_depth;
    Search s;
    memset(&s, 0, sizeof s);
    s.t.root_max = root_max;
    Entries es = {NULL, 0, 0, 0, NULL};
    PyObject *result = NULL;
    if (map_init(&gs.loose, sizeof(int64_t)) < 0)
        return NULL;
    if (grow_array(&gs.nodes, &gs.cap, sizeof *gs.nodes) < 0 ||
        grow_array(&gs.starts, &gs.scap, sizeof *gs.starts) < 0 || tick_open(&s.tk, progress) < 0)
        goto free;
    gs.starts[0] = 0;
    for (int i = 0; i < GSTATE_WORDS; i++)
        gs.nodes[0].st.w[i] = words[i];
    gs.nodes[0].hash = GOLDEN;
    gs.nodes[0].parent = -1;
    gs.nodes[0].depth = 0;
    nl_init(&s.leaves, max_nodes > INT32_MAX);
    Draws d = {NULL, NULL, NULL, NULL, 0, sm64(seed), 0};
    Counts counts = {0, 0, 0, -1};
    if (run(&s, &d, &lim, &es, &counts, &gs) == 0) {
        PyObject *found = mcts_result(&s, &es, &gs, &counts, game_distinct), *arena = NULL;
        if (found && (arena = game_arena(&es, &gs)) != NULL)
            result = PyTuple_Pack(2, found, arena);
        Py_XDECREF(found);
        Py_XDECREF(arena);
    }
    nl_free(&s.leaves);
    tick_close(&s.tk);
free:
    gt_free(es.e);
    gt_free(es.sq);
    gt_free(gs.nodes);
    gt_free(gs.paths);
    gt_free(gs.starts);
    gt_free(gs.suffix);
    map_free(&gs.loose);
    return result;
}
