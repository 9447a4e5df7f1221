/* gtsearch's compiled core: what the C files share.
 *
 * The C core mirrors the pure-Python reference (gtsearch/algorithms, gtsearch/formats,
 * gtsearch/sources) step for step; the Python modules are the specification.
 * Rules every file keeps:
 *   - no recursion: every walk runs on an explicit, growable stack;
 *   - every allocation and every Py* call is checked; a failure sets a Python exception
 *     (MemoryError for memory) and the function returns -1 or NULL, freeing what it holds;
 *   - long loops call tick() every few thousand steps: Ctrl-C raises KeyboardInterrupt there,
 *     and other Python threads (the progress display) get the interpreter for a moment;
 *   - the C side owns no policy and words no error for the user: parameters are checked in
 *     Python, and the tokenizers only ever accept (they return None on anything else).
 */
#ifndef GTSEARCH_CORE_H
#define GTSEARCH_CORE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef int64_t node_t;

/* -- memory -------------------------------------------------------------------------------------
 * Every allocation of the core goes through these four (tests/test_faults.py fails on a bare
 * malloc, calloc, realloc or free anywhere else under gtsearch/_native).  In a normal build
 * they are the C library's own, inline: nothing is paid for them.  Built with -DGTSEARCH_FAULTS
 * (the test build of tests/test_faults.py and CI's step 3), they count the allocations and
 * fail the one a test names, a realloc keeping its old block (faults.c). */
#ifdef GTSEARCH_FAULTS
void *gt_fault_malloc(size_t size, const char *file, int line);
void *gt_fault_calloc(size_t n, size_t size, const char *file, int line);
void *gt_fault_realloc(void *p, size_t size, const char *file, int line);
void gt_fault_free(void *p);
#define gt_malloc(size) gt_fault_malloc((size), __FILE__, __LINE__)
#define gt_calloc(n, size) gt_fault_calloc((n), (size), __FILE__, __LINE__)
#define gt_realloc(p, size) gt_fault_realloc((p), (size), __FILE__, __LINE__)
#define gt_free(p) gt_fault_free(p)
/* 1 when this tick is the one a test interrupts (tick() then raises KeyboardInterrupt) */
int gt_fault_tick(void);
#else
static inline void *gt_malloc(size_t size) { return malloc(size); }
static inline void *gt_calloc(size_t n, size_t size) { return calloc(n, size); }
static inline void *gt_realloc(void *p, size_t size) { return realloc(p, size); }
static inline void gt_free(void *p) { free(p); }
#endif

#define INF HUGE_VAL

/* -- SplitMix64 numbers (gtsearch/splitmix.py): the random: sources and MCTS -------------- */
#define GOLDEN 0x9E3779B97F4A7C15ULL
#define MIX1 0xBF58476D1CE4E5B9ULL
#define MIX2 0x94D049BB133111EBULL
#define DRAWX 0x5851F42D4C957F2DULL

/* splitmix64(x): the first output of SplitMix64 whose state is x */
static inline uint64_t sm64(uint64_t x) {
    uint64_t z = x + GOLDEN;
    z = (z ^ (z >> 30)) * MIX1;
    z = (z ^ (z >> 27)) * MIX2;
    return z ^ (z >> 31);
}

/* draw(key, j) = splitmix64((key ^ DRAW) + j * golden) */
static inline uint64_t draw_at(uint64_t key, uint64_t j) { return sm64((key ^ DRAWX) + j * GOLDEN); }

/* the high 64 bits of a * b, without a 128-bit type */
static inline uint64_t mulhi(uint64_t a, uint64_t b) {
    uint64_t a0 = a & 0xFFFFFFFFu, a1 = a >> 32, b0 = b & 0xFFFFFFFFu, b1 = b >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    uint64_t mid = (p00 >> 32) + (p01 & 0xFFFFFFFFu) + (p10 & 0xFFFFFFFFu);
    return p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}

/* -- a random: source's tree, computed on demand (random_source.c) ----------------------- */
typedef struct Virt Virt;
/* The tree of spec = (b, d, model, seed, lo, hi, p, order, strength, counter), counter an array('q') of two
 * items (the nodes visited so far, the most allowed), which virt_free() updates; NULL with
 * an exception when the spec is not one. */
Virt *virt_open(PyObject *spec, node_t *size);
void virt_free(Virt *v);
/* end[n] and values[n] of the source, its cursor moved to n (O(1) a step of a walk) */
node_t virt_end(Virt *v, node_t n);
double virt_val(Virt *v, node_t n);
/* set when a cursor passes its most allowed visits: the next tick_slow() raises VisitLimit */
extern int virt_over;
extern PyObject *VisitLimit;

/* -- a game's tree unfolded on demand from the graph of its entries (game_graph.c) -------- */
typedef struct Graph Graph;
/* The graph of a game's entries as gtsearch.sources.games counts them, checked: for entry s
 * (of n_states >= 1, first[] n_states + 1 long), its children's numbers kids[first[s]:first[s+1]]
 * and its subtree's size sizes[s], at most limit.  NULL when a walk of it stays inside the
 * arrays and ends, else the reason.  offs, when not NULL, receives each child slot's offset
 * from its parent's node (1 + the sizes of the children before it). */
const char *graph_check(const int64_t *first, int64_t n_states, const int64_t *kids,
                        int64_t n_kids, const int64_t *sizes, int64_t limit, int64_t *offs);
/* The tree of spec = ("graph", first, kids, sizes, values, positions, root, parity, counter)
 * (GameTree.native_view), counter as virt_open's; NULL with an exception when it is not one. */
Graph *graph_open(PyObject *spec, node_t *size);
void graph_free(Graph *g);
node_t graph_end(Graph *g, node_t n);
double graph_val(Graph *g, node_t n);
/* node n's position, the transposition table's key (GameTree.position) */
int64_t graph_key(Graph *g, node_t n);

/* -- the tree, read from the arrays of a gtsearch.tree.Tree ------------------------------ */
typedef struct {
    const int32_t *e32; /* end[], when the array holds 4-byte ints */
    const int64_t *e64; /* end[], when it holds 8-byte ints */
    const double *val;  /* values[] (NaN: an internal node without a static value) */
    Virt *virt;         /* instead of the three above: a random: source computed on demand */
    Graph *graph;       /* or a game's tree unfolded from its graph on demand */
    node_t size;
    int root_max;
    Py_buffer end_view, val_view;
} TreeView;

static inline node_t END(const TreeView *t, node_t n) {
    return t->e32   ? (node_t)t->e32[n]
           : t->e64 ? t->e64[n]
           : t->virt ? virt_end(t->virt, n)
                     : graph_end(t->graph, n);
}
static inline double VAL(const TreeView *t, node_t n) {
    return t->val ? t->val[n] : t->virt ? virt_val(t->virt, n) : graph_val(t->graph, n);
}
/* node n's key in a transposition table: keys[n] when given, a game graph's position of n,
 * else the node itself */
static inline int64_t TREE_KEY(const TreeView *t, const int64_t *keys, node_t n) {
    return keys ? keys[n] : t->graph ? graph_key(t->graph, n) : n;
}
/* END with t->e32 held in a local, as VALS below */
static inline node_t ENDS(const int32_t *e32, const TreeView *t, node_t n) {
    return e32 ? (node_t)e32[n] : END(t, n);
}
/* VAL with t->val held in a local, for the hottest loops (stores to the search's own lists
 * would otherwise make the compiler load t->val again at every leaf) */
static inline double VALS(const double *vals, const TreeView *t, node_t n) {
    return vals ? vals[n] : VAL(t, n);
}
static inline int IS_LEAF(const TreeView *t, node_t n) { return END(t, n) == n + 1; }

/* Ask for the arrays of a small subtree [n, stop) to be brought into the cache.  The
 * best-first searches (SSS*, DUAL*) jump about arrays far larger than the
 * cache, and each jump waits for memory; a subtree of up to PREFETCH_NODES nodes that a
 * search enters is mostly read soon after, so its lines are asked for at once, in parallel,
 * instead of one after another.  (Arrays of 4-byte ends only: the trees that fit them.) */
#define PREFETCH_NODES 1024
static inline void prefetch_subtree(const TreeView *t, node_t n, node_t stop) {
#if defined(__GNUC__) || defined(__clang__)
    if (t->e32 && stop - n > 16 && stop - n <= PREFETCH_NODES) {
        for (node_t k = n; k < stop; k += 16) /* 64-byte lines: 16 ends, 8 values */
            __builtin_prefetch(t->e32 + k);
        for (node_t k = n; k < stop; k += 8)
            __builtin_prefetch(t->val + k);
    }
#else
    (void)t;
    (void)n;
    (void)stop;
#endif
}

/* Borrow the arrays (end, values); -1 with TypeError/ValueError when they are not flat arrays.
 * With values None, end is the spec of a random: source (virt_open) or of a game's graph
 * (graph_open), computed on demand. */
int tree_open(TreeView *t, PyObject *end, PyObject *values, int root_max);
void tree_close(TreeView *t);

/* The index of the lowest set bit of x, which is not 0. */
static inline int ctz64(uint64_t x) {
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctzll(x);
#else
    int n = 0;
    while (!(x & 1)) {
        x >>= 1;
        n++;
    }
    return n;
#endif
}

/* -- bit sets with summary levels -------------------------------------------------------------
 * Level 0 has a bit per item, level l+1 a bit per word of level l (set while that word is not
 * zero), up to a level of one word: SSS*'s parked nodes and the Prover's evaluated leaves.
 * levels_sizes() gives each level's number of words and the number of levels; levels_next()
 * the least set item >= x, or -1, reading word w of level l through word(ctx, l, w) (arrays,
 * or maps of the words touched), in as many steps as there are levels. */
static inline int levels_sizes(size_t items, size_t *words) {
    int levels = 0;
    do {
        items = (items + 63) / 64;
        words[levels++] = items;
    } while (items > 1);
    return levels;
}

static inline int64_t levels_next(const void *ctx, uint64_t (*word)(const void *, int, size_t),
                                  const size_t *words, int levels, uint64_t x) {
    size_t i = (size_t)x;
    int l = 0;
    for (;;) {
        size_t w = i >> 6;
        if (w >= words[l])
            return -1;
        uint64_t m = word(ctx, l, w) & (~(uint64_t)0 << (i & 63));
        if (m) {
            i = (w << 6) + (size_t)ctz64(m);
            break;
        }
        if (++l == levels)
            return -1;
        i = w + 1;
    }
    while (l > 0) {
        l--;
        i = (i << 6) + (size_t)ctz64(word(ctx, l, i));
    }
    return (int64_t)i;
}

/* -- growable arrays -------------------------------------------------------------------------
 * Every stack, log and list of the core grows the same way: doubled when full, from 64 items.
 * grow_array() takes the address of the array's pointer (any type), its capacity and the size
 * of an item; ROOM(p, len, cap) makes room for one more item before p[len] is written.
 * grow_array() is out of line on purpose: inlined, the depth-first searches' loops took 2 to
 * 3 % more instructions (their stack then held in registers the loop needs for itself). */
/* 0, or -1 with MemoryError, the array kept as it was */
int grow_array(void *arr, size_t *cap, size_t item);
#define ROOM(p, len, cap) ((len) < (cap) ? 0 : grow_array(&(p), &(cap), sizeof *(p)))

/* -- growable lists of node numbers (4-byte while they fit, like gtsearch.tree.index_array) -- */
typedef struct {
    int32_t *p32;
    int64_t *p64;
    size_t len, cap;
    int wide;
} NodeList;

void nl_init(NodeList *l, int wide);
int nl_grow(NodeList *l);
void nl_free(NodeList *l);
static inline int nl_push(NodeList *l, node_t n) {
    if (l->len == l->cap && nl_grow(l) < 0)
        return -1;
    if (l->wide)
        l->p64[l->len++] = n;
    else
        l->p32[l->len++] = (int32_t)n;
    return 0;
}
static inline node_t nl_get(const NodeList *l, size_t i) {
    return l->wide ? l->p64[i] : (node_t)l->p32[i];
}
/* The list as an array.array ('i' or 'q'), or NULL. */
PyObject *nl_to_array(const NodeList *l);
/* A sorted copy without repeats, or -1 (MemoryError). */
int nl_sorted_unique(const NodeList *l, int64_t **out, size_t *count);
/* How many different nodes the list holds, in *count: its length when they come in increasing
 * order (no repeats then; no copy made), else by nl_sorted_unique.  0, or -1 (MemoryError). */
int nl_distinct(const NodeList *l, size_t *count);

/* -- a hash map from node numbers to fixed-size values (open addressing, no deletion) -------
 * Each slot holds the key + 1 (0: empty, so that calloc'd memory is an empty map) and then
 * the value, so a lookup touches one place. */
typedef struct {
    unsigned char *slots;
    size_t vsize, ssize, cap, len;
    int bits;
} Map;

int map_init(Map *m, size_t vsize);
void map_free(Map *m);
int map_grow(Map *m);
static inline size_t map_slot(const Map *m, int64_t key) {
    return (size_t)(((uint64_t)key * 0x9E3779B97F4A7C15ull) >> (64 - m->bits));
}
/* the key in slot i, or -1 when the slot is empty */
static inline int64_t map_key(const Map *m, size_t i) {
    int64_t k;
    memcpy(&k, m->slots + i * m->ssize, sizeof k);
    return k - 1;
}
/* The value stored for key, or NULL. */
static inline void *map_get(const Map *m, int64_t key) {
    size_t mask = m->cap - 1, i = map_slot(m, key);
    for (;;) {
        int64_t k = map_key(m, i);
        if (k == key)
            return m->slots + i * m->ssize + sizeof(int64_t);
        if (k < 0)
            return NULL;
        i = (i + 1) & mask;
    }
}
/* The value slot for key, created zeroed when new (*fresh = 1); NULL on MemoryError. */
void *map_put(Map *m, int64_t key, int *fresh);

/* -- the transposition table (table.c): gtsearch.algorithms.table -------------------------------
 * An entry is the key + 1 (0: empty, so that zeroed memory is an empty table), the bounds in
 * MAX's terms, the draft (TT_FULL: searched to the leaves) and the best move (a child's index,
 * -1: none): 32 bytes, as the Python table counts them.  The table is an array of buckets
 * (two entries each), its memory kept from one table to the next (table.c). */
#define TT_FULL 65535
typedef struct {
    uint64_t key1;
    double lo, hi;
    uint16_t draft; /* TT_FULL, or less: the drafts of iterative deepening stay below it */
    uint16_t gen;   /* the table's generation that wrote it (table.c): others' are empty */
    int32_t move;
} TTEntry;

typedef struct {
    TTEntry *slots; /* bucket b's entries: slots[2b], slots[2b + 1] */
    uint64_t buckets;
    uint64_t mask;  /* buckets - 1 when they are a power of two (a mask for the mod), else 0 */
    int own;        /* the kept block it uses (table.c), -1: a block of its own */
    uint16_t gen;   /* its generation: the entries it wrote */
    int64_t probes, hits, cuts, orders, stores, overwrites, used;
} Table;

/* 0, or -1 with MemoryError */
int tt_init(Table *t, uint64_t buckets);
/* t's size and counters, no slots (tt_init's first step; the exact table of
 * search_chance_ondemand.c keeps its own entries, by the buckets it meets) */
void tt_size(Table *t, uint64_t buckets);
void tt_free(Table *t);
/* the kept blocks not in use given back (release_tables) */
void tt_forget(void);
/* key's bucket: key mod buckets (Table.slot's half), by a mask when they are a power of two,
 * as they are for a power of two of MiB */
static inline uint64_t tt_bucket(const Table *t, int64_t key) {
    return t->mask ? (uint64_t)key & t->mask : (uint64_t)key % t->buckets;
}
/* key's entry, or NULL; not counted (Table.peek) */
static inline TTEntry *tt_peek(const Table *t, int64_t key) {
    TTEntry *e = t->slots + 2 * tt_bucket(t, key);
    const uint64_t k1 = (uint64_t)key + 1;
    return e->key1 == k1 && e->gen == t->gen           ? e
           : e[1].key1 == k1 && e[1].gen == t->gen ? e + 1
                                                     : NULL;
}
/* key's entry, or NULL: one probe, and a hit when found (Table.probe) */
static inline TTEntry *tt_probe(Table *t, int64_t key) {
    t->probes++;
    TTEntry *e = tt_peek(t, key);
    t->hits += e != NULL;
    return e;
}
/* Where a new entry goes in its bucket (Table.store's two-tier rule), given whether the
 * bucket's first and second entries are in use and whether the first's draft is at most the
 * new one's: the first place (the bucket is empty), the first place with the first entry moved
 * to the second, or the second place; `used` and `overwrites` counted.  Every table with
 * Table's buckets places its entries by it (tt_store, and search_chance_ondemand.c's exact one) */
enum { TT_FIRST, TT_SHIFT, TT_SECOND };
static inline int tt_place(Table *t, int first_used, int second_used, int deeper) {
    if (!first_used) {
        t->used++;
        return TT_FIRST;
    }
    t->used += !second_used;
    t->overwrites += second_used;
    return deeper ? TT_SHIFT : TT_SECOND; /* depth-preferred: the first moves to the second */
}
/* Table.store (merging): bounds in MAX's terms, draft, move (an entry found before a store may
 * move: read it first) */
static inline void tt_store(Table *t, int64_t key, double lo, double hi, int32_t draft,
                            int32_t move) {
    t->stores++;
    TTEntry *first = t->slots + 2 * tt_bucket(t, key);
    TTEntry *second = first + 1;
    const uint64_t k1 = (uint64_t)key + 1;
    const uint16_t gen = t->gen;
    for (TTEntry *e = first; e <= second; e++)
        if (e->key1 == k1 && e->gen == gen) {
            if (e->draft == draft) { /* merged: both bounds hold (Python's max() and min()) */
                if (e->lo > lo)
                    lo = e->lo;
                if (e->hi < hi)
                    hi = e->hi;
                if (move < 0)
                    move = e->move;
            }
            *e = (TTEntry){k1, lo, hi, (uint16_t)draft, gen, move};
            return;
        }
    const TTEntry fresh = {k1, lo, hi, (uint16_t)draft, gen, move};
    switch (tt_place(t, first->gen == gen, second->gen == gen, first->draft <= draft)) {
    case TT_FIRST:
        *first = fresh;
        break;
    case TT_SHIFT:
        *second = *first;
        *first = fresh;
        break;
    default:
        *second = fresh;
    }
}

/* (probes, hits, cuts, orders, stores, overwrites, used), or NULL */
PyObject *tt_counts(const Table *t);

/* -- MT's memory (search_mt.c, game_tree.c) -----------------------------------------------------
 * What MT's passes remember of the nodes, in MAX's terms: gtsearch.algorithms.mt's NodeMemory
 * (a Map of [lo, hi] by node, never forgotten), or with a transposition table tabled.py's
 * TableMemory (keyed by position: each recall a probe, each bound proved a store of draft
 * TT_FULL without a move, each answer a cut; the Map then holds the positions proved, without
 * values).  Either way the Map's size is MT's `nodes`. */
typedef struct {
    Map map;
    Table *tt; /* NULL: MT's own */
} MTMemory;

/* 0, or -1 with MemoryError */
static inline int mtm_init(MTMemory *m, Table *tt) {
    m->tt = tt;
    return map_init(&m->map, tt ? 0 : 2 * sizeof(double));
}

/* prove(): key's value lies in [lo, hi], kept with what was known; 0, or -1 with MemoryError */
static inline int mtm_prove(MTMemory *m, int64_t key, double lo, double hi) {
    int fresh;
    double *e = map_put(&m->map, key, &fresh);
    if (!e)
        return -1;
    if (m->tt) {
        tt_store(m->tt, key, lo, hi, TT_FULL, -1);
        return 0;
    }
    if (fresh) {
        e[0] = -INF;
        e[1] = INF;
    }
    if (lo > e[0])
        e[0] = lo;
    if (hi < e[1])
        e[1] = hi;
    return 0;
}

/* recall(): 1 with the bounds [b[0], b[1]] known of key, or 0 */
static inline int mtm_recall(MTMemory *m, int64_t key, double *b) {
    if (m->tt) {
        const TTEntry *t = tt_probe(m->tt, key);
        if (t) {
            b[0] = t->lo;
            b[1] = t->hi;
        }
        return t != NULL;
    }
    const double *e = map_get(&m->map, key);
    if (e) {
        b[0] = e[0];
        b[1] = e[1];
    }
    return e != NULL;
}

/* MT's probe answered from the bounds b recalled, for the question "value >= gamma" ("> gamma"
 * when strict): 1 with the answer in *out (a cut the table counts), 0 when they do not decide */
static inline int mtm_answer(MTMemory *m, const double *b, double gamma, int strict, double *out) {
    if (strict ? b[0] > gamma : b[0] >= gamma)
        *out = b[0];
    else if (!(strict ? b[1] > gamma : b[1] >= gamma))
        *out = b[1];
    else
        return 0;
    if (m->tt)
        m->tt->cuts++;
    return 1;
}

/* -- ticks: Ctrl-C, other threads, progress ------------------------------------------------ */
typedef struct {
    unsigned long steps;
    int64_t *progress; /* where the leaves evaluated so far are published, or NULL */
    Py_buffer view;
    double deadline; /* CLOCK_MONOTONIC seconds past which tick_slow() fails (0: none) */
    int late;        /* set when it did: the search's own time ran out (--time) */
} Ticker;

#define TICK_MASK 0x1FFFu
/* progress: None, an array('q') of one item where the leaves so far are published, or a
 * tuple (progress, seconds): then the ticker's deadline is that many seconds from now (none
 * left: -1 with TimeoutError, before anything is done); 0, or -1 with an exception */
int tick_open(Ticker *tk, PyObject *progress);
void tick_close(Ticker *tk);
int tick_slow(Ticker *tk, int64_t count);
/* CLOCK_MONOTONIC in seconds (the processor's clock() where the system has none) */
double monotonic_seconds(void);
/* 0, or -1 with KeyboardInterrupt (or another signal handler's exception) set; with a
 * deadline past, -1 with TimeoutError set and tk->late (the caller drops what it was doing). */
static inline int tick(Ticker *tk, int64_t count) {
#ifdef GTSEARCH_FAULTS
    if (gt_fault_tick()) { /* the test build: every tick is one a Ctrl-C can come at */
        PyErr_SetNone(PyExc_KeyboardInterrupt);
        return -1;
    }
#endif
    return (++tk->steps & TICK_MASK) ? 0 : tick_slow(tk, count);
}

/* -- arrays handed in ------------------------------------------------------------------------------ */
/* obj's buffer in *view: C-contiguous 8-byte items of typecode fmt ("q" or "d"), writable
 * when asked; 0, or -1 with the buffer released and an exception set (TypeError: `message`,
 * formatted with fmt, when it is some other array) */
int borrow_array(PyObject *obj, Py_buffer *view, const char *fmt, int writable,
                 const char *message);

/* -- helpers for building results -------------------------------------------------------------- */
/* An array.array of the given typecode holding a copy of nbytes at data, or NULL. */
PyObject *make_array(const char *typecode, const void *data, size_t nbytes);
/* make_array() of the nbytes at *buf (buf: the address of a pointer of any type), which is then
 * freed and set to NULL: a result built of several buffers peaks at one buffer more; NULL on
 * error, *buf kept */
PyObject *take_array(const char *typecode, void *buf, size_t nbytes);
/* (end, values) of a flat tree of `size` nodes as arrays ("i" or "q" by `wide`, and "d"), each
 * buffer taken by take_array() */
PyObject *flat_arrays(void **end, double **vals, size_t size, int wide);
/* A list of node numbers as a Python list. */
PyObject *line_to_list(const int64_t *line, size_t len);

/* -- the skeleton every search runs in (search.c) -----------------------------------------------
 * Every search function of the module takes (end, values, root_max, <its own>, progress) and
 * returns (value[, line], leaves, counts...).  search_entry() reads the arguments, opens the
 * tree, the ticker and the list of evaluated leaves, runs the search's own function, builds
 * the result from what that function left in the Search, and closes what it opened: a
 * search's function does its own steps only. */
typedef struct {
    TreeView t;
    Ticker tk;
    NodeList leaves;   /* the leaves evaluated, in order; their number is the progress shown */
    double value;      /* the search's value */
    int64_t *line;     /* the PV (malloc'd), for the searches that return one */
    size_t line_len;
    int64_t counts[2]; /* the figures after the leaves in the result: nodes, open_max, ... */
} Search;

/* A search's own parameters: its floats in x[] and its flags in flag[], each in the order of
 * its arguments. */
#define OWN_FLOATS 2
#define OWN_FLAGS 2
typedef struct {
    double x[OWN_FLOATS];
    int flag[OWN_FLAGS];
} SearchParams;

/* 0, or -1 with an exception set */
typedef int (*SearchFn)(Search *s, const SearchParams *p);
enum { NO_LINE = 0, WITH_LINE = 1 };
/* The module function of a search: `own` says its own arguments, 'd' a float and 'p' a flag
 * (PyArg_ParseTuple's units), at most OWN_FLOATS and OWN_FLAGS; the result has the line when with_line,
 * and ncounts of the counts.  NULL with an exception set on error. */
PyObject *search_entry(PyObject *args, const char *own, SearchFn fn, int with_line, int ncounts);

/* The tick of a search's loops (see tick()): the progress shown is the leaves evaluated. */
static inline int search_tick(Search *s) { return tick(&s->tk, (int64_t)s->leaves.len); }

/* search_mt.c: MTD(first) over S's tree with MT's own table (tt NULL), or with the
 * transposition table tt keyed by keys (NULL: the node itself); S->value, and counts[0] the
 * nodes (positions) proved, counts[1] the passes.  0, or -1 with an exception set. */
int mt_tabled(Search *S, Table *tt, const int64_t *keys, double first);

/* -- logs of (node, child) pairs, in the order the nodes finish --------------------------------
 * depth-first's best child of each finished node, SSS*'s solver of each solved MAX node.  A
 * node finishes after its descendants, so its pair comes after theirs, and the line is read
 * from the root by one backward scan: log_last() from the end for the root, then from the
 * root's pair for its child, and so on. */
typedef struct {
    int64_t *p; /* node, child, node, child, ... */
    size_t len, cap;
} PairLog;

static inline int log_pair(PairLog *log, node_t n, node_t child) {
    if (log->len + 2 > log->cap && grow_array(&log->p, &log->cap, sizeof *log->p) < 0)
        return -1;
    log->p[log->len++] = n;
    log->p[log->len++] = child;
    return 0;
}

/* n's last pair before position *at, which moves to it: its child; -1 when there is none */
static inline node_t log_last(const PairLog *log, size_t *at, node_t n) {
    size_t i = *at;
    while (i >= 2 && log->p[i - 2] != n)
        i -= 2;
    if (i < 2)
        return -1;
    *at = i - 2;
    return log->p[i - 1];
}

/* -- the PV walk (pv.c) --------------------------------------------------------------------------
 * Every PV is a walk from the root down: at each node a rule of the search's own (its log, a
 * Prover, the bounds of the explored tree) names the child the line goes on with.  step()
 * returns that child, PV_END when the line ends at n, PV_NONE when no child keeps the value
 * (the leaves do not prove it), or -1 with an exception set. */
enum { PV_END = -2, PV_NONE = -3 };
typedef node_t (*PVStep)(void *ctx, node_t n, int is_max);
/* 0 with the line (malloc'd) in *line and *len, 1 on PV_NONE, -1 on error */
int pv_walk(PVStep step, void *ctx, int root_max, int64_t **line, size_t *len);

/* -- the functions of the module, one file per family ------------------------------------------ */
#define GT_FUNCTIONS(X)                                                                            \
    X(gt_negamax)                                                                                  \
    X(gt_game_negamax)                                                                             \
    X(gt_game_negascout)                                                                           \
    X(gt_game_scout)                                                                               \
    X(gt_game_sss)                                                                                 \
    X(gt_game_chance)                                                                              \
    X(gt_game_mtd)                                                                                 \
    X(gt_objects_negamax)                                                                          \
    X(gt_objects_expectiminimax)                                                                   \
    X(gt_sss)                                                                                      \
    X(gt_sss_dense_limit)                                                                          \
    X(gt_negascout)                                                                                \
    X(gt_scout)                                                                                    \
    X(gt_mtd)                                                                                      \
    X(gt_tabled)                                                                                   \
    X(gt_tabled_iterate)                                                                           \
    X(gt_game_tabled)                                                                              \
    X(gt_game_tabled_iterate)                                                                      \
    X(gt_release_tables)                                                                           \
    X(gt_keep_tables)                                                                              \
    X(gt_mcts)                                                                                     \
    X(gt_mcts_game)                                                                                \
    X(gt_principal_variation)                                                                      \
    X(gt_random_tree)                                                                              \
    X(gt_expand_states)                                                                            \
    X(gt_count_game)                                                                               \
    X(gt_game_initial)                                                                             \
    X(gt_game_step)                                                                                \
    X(gt_game_perft)                                                                               \
    X(gt_solve_c4)                                                                                 \
    X(gt_load_mapping)                                                                             \
    X(gt_load_sexp)                                                                                \
    X(gt_load_efg)
#define GT_DECLARE(f) PyObject *f(PyObject *self, PyObject *args);
GT_FUNCTIONS(GT_DECLARE)

/* faults.c, in the test build only: each function above as faults_<name>, which counts the
 * allocations of CPython too while it runs, and the module's private functions _faults,
 * _counts and _sites.  GT_ENTRY(f) is the function the module's table names. */
#ifdef GTSEARCH_FAULTS
#define GT_ENTRY(f) faults_##f
#define GT_DECLARE_FAULTS(f) PyObject *faults_##f(PyObject *self, PyObject *args);
GT_FUNCTIONS(GT_DECLARE_FAULTS)
PyObject *faults_set(PyObject *self, PyObject *args, PyObject *kwargs);
PyObject *faults_counts(PyObject *self, PyObject *args);
PyObject *faults_sites(PyObject *self, PyObject *args);
#else
#define GT_ENTRY(f) f
#endif

/* pv.c: the PV rule of gtsearch/algorithms/pv.py, for the searches that do not know a line */
/* The line (nodes from the root) that principal_variation() finds from the evaluated leaves,
 * in *line and *len; 1 when the leaves do not prove the value (the Python version then raises),
 * 0 on success, -1 on error. */
int pv_from_leaves(const TreeView *t, const NodeList *leaves, double value, int bound,
                   int64_t **line, size_t *len);

/* The Prover of gtsearch/algorithms/pv.py: "value(n) >= v" (lower) or "<= v" from the leaves. */
typedef struct Prover Prover;
Prover *prover_new(const TreeView *t, const NodeList *leaves, double v, int lower);
/* 1 proved, 0 not, -1 error. */
int prover_proves(Prover *p, node_t n, int is_max);
void prover_free(Prover *p);

/* -- the tree builder the tokenizers feed (load_common.c): gtsearch.builder.TreeBuilder ----- */
/* A tokenizer function returns 0 (go on), DECLINE (not for the C reader: the Python reader
 * will run and word any error) or -1 (a Python exception is set). */
#define DECLINE 1
#define TRY(x)                                                                                     \
    do {                                                                                           \
        int rc_ = (x);                                                                             \
        if (rc_)                                                                                   \
            return rc_;                                                                            \
    } while (0)

typedef struct {
    node_t node, parent; /* parent -1: the root */
    const char *s;       /* in the text, or a constant string */
    Py_ssize_t len;
} NameRef;

typedef struct {
    const char *text; /* ASCII; accepted only if every byte is a tab, LF, CR or printable */
    Py_ssize_t len;
    node_t max_nodes;
    int wide;
    size_t size, cap;
    void *end;
    double *val;
    unsigned char *fl; /* allocated at the first float */
    int32_t *depth;
    node_t *open;
    size_t nopen, capopen;
    int64_t n_leaves;
    NameRef *names;
    size_t nnames, capnames;
    int64_t *set; /* indices into names, -1 empty: (parent, name) seen, for siblings' names */
    size_t setcap;
    Ticker tk;
    /* the document's metadata: root -1 (not said), 0 min, 1 max */
    int root;
    int root_max;
    Py_ssize_t title_off, title_len, desc_off, desc_len; /* len -1: absent */
    PyObject *title_obj, *desc_obj; /* not NULL: the text (a YAML block scalar's, folded) */
    int has_expect, expect_float;
    double expect;
    Py_ssize_t expect_off; /* where the key `expect` (or `:expect`) starts; -1: absent */
} Builder;

/* 0, or DECLINE when the text is not ASCII (the tokenizers read it as bytes) */
int b_init(Builder *B, PyObject *text, node_t max_nodes, int wide);
/* b_init() from the arguments (text, max_nodes, wide) of a reader's Python function; -1 with
 * an exception set when they are not those (B is then empty: b_free() may still be called) */
int b_init_args(Builder *B, PyObject *args);
/* 0 when every character is a tab, LF, CR or printable, else DECLINE: checked once a
 * document has been read (a document given up early is not scanned to its end) */
int b_check_text(const Builder *B);
void b_free(Builder *B);
/* name_len < 0: no name */
int b_open(Builder *B, Py_ssize_t name_off, Py_ssize_t name_len, int has_static, double v,
           int is_float);
int b_leaf(Builder *B, double v, int is_float, Py_ssize_t name_off, Py_ssize_t name_len);
int b_close(Builder *B);
int b_label(Builder *B, node_t n, Py_ssize_t name_off, Py_ssize_t name_len, int has_static,
            double v, int is_float);
/* name node n (open, or a child of the innermost open node) with s[0..len), which may lie
 * outside the text (a constant): 0, or DECLINE when it is not a name or a sibling has it */
int b_name(Builder *B, node_t n, const char *s, Py_ssize_t len);
/* (end, values, floats, depth, names, n_leaves, root_max, title, description, expect, root,
 * expect_off) */
PyObject *b_result(Builder *B);
/* what a tokenizer's Python function returns once its run returned rc: the tree of a whole
 * document in printable text, None (declined), or NULL (an exception is set) */
PyObject *b_finish(Builder *B, int rc);

static inline int is_digit(char ch) { return ch >= '0' && ch <= '9'; }

/* The closing quote of the string whose opening quote is t[i] (t[0..n) the text), or -1 when
 * it has a backslash (the Python readers unescape it) or does not end: the strings of the
 * s-expressions and of Gambit's .efg, read only when they need no unescaping. */
static inline Py_ssize_t plain_string_end(const char *t, Py_ssize_t n, Py_ssize_t i) {
    for (Py_ssize_t j = i + 1; j < n; j++) {
        if (t[j] == '"')
            return j;
        if (t[j] == '\\')
            return -1;
    }
    return -1;
}

/* The number syntax of the formats, from t[i] (t[0..n) the text): an optional sign ('-', or
 * with `plus` also '+'), 0|[1-9][0-9]*, an optional \.[0-9]+ and, with `exponent`, an
 * optional [eE][+-]?[0-9]+.  The index after it, and *is_int when it has neither fraction
 * nor exponent; -1 when t[i] starts no number.  (Inline: each tokenizer's copy is compiled
 * for its own `plus` and `exponent`, which the loading of a file with millions of numbers
 * feels.) */
static inline Py_ssize_t scan_number(const char *t, Py_ssize_t i, Py_ssize_t n, int plus,
                                     int exponent, int *is_int) {
    *is_int = 1;
    if (i < n && (t[i] == '-' || (plus && t[i] == '+')))
        i++;
    if (i >= n || !is_digit(t[i]))
        return -1;
    if (t[i] == '0')
        i++;
    else
        while (i < n && is_digit(t[i]))
            i++;
    if (i < n && t[i] == '.') {
        *is_int = 0;
        i++;
        if (i >= n || !is_digit(t[i]))
            return -1;
        while (i < n && is_digit(t[i]))
            i++;
    }
    if (exponent && i < n && (t[i] == 'e' || t[i] == 'E')) {
        *is_int = 0;
        i++;
        if (i < n && (t[i] == '+' || t[i] == '-'))
            i++;
        if (i >= n || !is_digit(t[i]))
            return -1;
        while (i < n && is_digit(t[i]))
            i++;
    }
    return i;
}

/* A number token at text[0..len): 0 with *v and *is_float, DECLINE when it is not a finite
 * number within the rules of gtsearch.numbers (integers within +-2**53). `is_int_syntax`:
 * the token has integer syntax (digits, an optional sign), else float syntax. */
int number_value(const char *tok, Py_ssize_t len, int is_int_syntax, double *v, int *is_float);

/* bound kinds, as gtsearch.algorithms.base.Outcome says them */
enum { BOUND_EXACT = 0, BOUND_LOWER = 1, BOUND_UPPER = 2 };

#endif
