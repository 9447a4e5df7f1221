/* SSS*, DUAL* and their bounded forms: gtsearch.algorithms.sss, step for step.
 *
 * Stockman (1979); Marsland, Reinefeld & Schaeffer (1987); Sun & Ma (1993).  The states,
 * the shortcuts, the generated-node count and Stockman's OPEN size are those of
 * _sss_core(); the PV is _solution_line()'s.  OPEN hands out its states in the order of the
 * Python heap's tuples, (-h, node, status, is_max, run), from a radix heap (see "the heap"),
 * and the parked states are also a bit set by node, so the purge of case 5 is one interval
 * cut (see "OPEN's parked states" below); parents are kept as a chain of records instead of a
 * dict (see "parents").
 */
#include "core.h"

enum { LIVE = 0, SOLVED = 1 };

/* -- OPEN's parked states ---------------------------------------------------------------------
 * Python keeps a heap of entries (-h, node, status, is_max, run), a dict `parked` of the
 * parked states by node and a sorted list of their nodes; purged or replaced states leave
 * stale entries in the heap, skipped when they reach the top (an entry is current while
 * `parked` holds its node with its h and status).  Here the same, with what SSS* guarantees: a
 * node has one state at the most, and a node that has left OPEN (taken, or purged with its
 * parent's subtree, which is then solved) never enters it again.  So an entry is current
 * while its node is parked, and (-h, node) alone orders the entries as the tuples are
 * ordered.  The heap holds 16-byte entries, -h as an integer of the same order and the node,
 * one 128-bit key (two 64-bit halves where the compiler has no 128-bit integers).  `parked`
 * is a hash map (linear probing, at most 1/8 full) from node to 16 bytes: the record of the
 * node's parent, status, is_max, run, and whether the state stands for several (its weight
 * is then kept in that record, see "parents").  The parked nodes are also a bit set with a
 * summary level per 64 words: an entry is current while its node's bit is set, and a node's
 * subtree is the interval [n, end[n]) of preorder, so the purge of case 5 walks the set bits
 * of one interval. */
#if defined(__SIZEOF_INT128__)
typedef unsigned __int128 Rank;
static inline Rank make_rank(uint64_t hi, uint64_t lo) { return (Rank)hi << 64 | lo; }
static inline int rank_less(Rank a, Rank b) { return a < b; }
#else /* a compiler without 128-bit integers (MSVC): the two halves in turn */
typedef struct {
    uint64_t hi, lo;
} Rank;
static inline Rank make_rank(uint64_t hi, uint64_t lo) {
    Rank r = {hi, lo};
    return r;
}
static inline int rank_less(Rank a, Rank b) { return a.hi < b.hi || (a.hi == b.hi && a.lo < b.lo); }
#endif

typedef struct {
    uint64_t negh; /* -h, as an unsigned integer of the same order */
    uint64_t node;
} HeapItem;

/* x as an unsigned integer of the same order (-0.0 and 0.0 the same, as they compare equal) */
static inline uint64_t ordered(double x) {
    uint64_t b;
    x += 0.0; /* -0.0 becomes 0.0 */
    memcpy(&b, &x, sizeof b);
    return b >> 63 ? ~b : b | (uint64_t)1 << 63;
}

static inline double unordered(uint64_t b) {
    b = b >> 63 ? b & ~((uint64_t)1 << 63) : ~b;
    double x;
    memcpy(&x, &b, sizeof x);
    return x;
}

/* the Python tuples' order, (-h, node, status, is_max, run): (-h, node) decides, as a node has
 * one state at the most and is never parked again once it has left OPEN */
static inline Rank rank(const HeapItem *x) { return make_rank(x->negh, x->node); }

/* (the record of the node's parent + 1) << 4 | heavy << 3 | status << 2 | is_max << 1 | run;
 * heavy: the state stands for several, as many as its parent record's w says */
typedef struct {
    int64_t key; /* node + 1; 0: empty */
    uint64_t pf;
} PEnt;

static inline uint64_t pack(int64_t prec, int heavy, int status, int is_max, int run) {
    return (uint64_t)(prec + 1) << 4 | (uint64_t)heavy << 3 | (uint64_t)status << 2 |
           (uint64_t)is_max << 1 | (uint64_t)run;
}

/* -- parents ----------------------------------------------------------------------------------
 * Python keeps every generated node's parent in a dict.  Here a state carries the record of its
 * node's parent, and an expanded inner node gets a record (its node, its parent's record): the
 * chain of records is the path to the root, without a map. */
typedef struct {
    int64_t node, parent;
    int64_t w; /* the weight of the parked state with this parent record that stands for
                * several (a run of siblings, or the best of a MAX node's leaves): one at most */
} Rec;

typedef struct {
    Rec *p;
    size_t len, cap;
} Recs;

static inline int new_rec(Recs *r, int64_t node, int64_t parent, int64_t *at) {
    if (ROOM(r->p, r->len, r->cap) < 0)
        return -1;
    r->p[r->len].node = node;
    r->p[r->len].parent = parent;
    r->p[r->len].w = 1;
    *at = (int64_t)r->len++;
    return 0;
}

#define BT_LEVELS 12 /* 64**11 > 2**63 */
#define BUCKETS 129 /* a radix heap's buckets for 128-bit keys: 0, and 1 + the highest bit */

typedef struct {
    HeapItem *p;
    size_t len, cap;
} Bucket;

typedef struct {
    Bucket bk[BUCKETS]; /* the radix heap: an entry goes by the highest bit where it and
                         * `last` differ */
    uint64_t nonempty[3];
    HeapItem last; /* the entry taken last */
    HeapItem best; /* with top_ok: the least current entry, at best_b[best_at] */
    int best_b;
    size_t best_at;
    PEnt *map; /* Python's `parked` */
    size_t mcap, mlen;
    int mbits;
    int top_ok;                /* best is known to be the least current entry */
    const Recs *recs;          /* the search's records, where heavy states keep their weight */
    const TreeView *t;         /* the tree, whose best state's node is asked into the cache */
    uint64_t *bits[BT_LEVELS]; /* level 0: a bit per node; level l+1: a bit per word of l */
    size_t words[BT_LEVELS];
    int levels;
    /* a tree of more than DENSE_NODES nodes (a random: source computed on demand) keeps each
     * level's words in a map from word number to word instead: the words ever touched only */
    int sparse;
    Map words_of[BT_LEVELS];
} Open;

/* up to this many nodes, the bit set is arrays (1 GiB at the most, mostly untouched pages) */
static node_t dense_nodes = (node_t)1 << 33;

/* sss_dense_limit(n) -> the former limit: for the tests of the sparse bit set on small trees */
PyObject *gt_sss_dense_limit(PyObject *self, PyObject *args) {
    (void)self;
    long long n;
    if (!PyArg_ParseTuple(args, "L", &n))
        return NULL;
    node_t was = dense_nodes;
    dense_nodes = n;
    return PyLong_FromLongLong(was);
}

/* a parked state taken out of OPEN */
typedef struct {
    int64_t n, weight, prec;
    double h;
    int status, is_max, run;
} Parked;

static void open_free(Open *o) {
    for (int b = 0; b < BUCKETS; b++)
        gt_free(o->bk[b].p);
    gt_free(o->map);
    for (int l = 0; l < o->levels; l++) {
        gt_free(o->bits[l]);
        map_free(&o->words_of[l]);
    }
    memset(o, 0, sizeof *o);
}

static int open_init(Open *o, const TreeView *t, const Recs *recs) {
    node_t size = t->size;
    o->recs = recs;
    o->t = t;
    o->sparse = size > dense_nodes;
    int levels = levels_sizes((size_t)size, o->words);
    for (; o->levels < levels; o->levels++) {
        if (o->sparse) {
            if (map_init(&o->words_of[o->levels], sizeof(uint64_t)) < 0)
                return -1;
        } else {
            o->bits[o->levels] = gt_calloc(o->words[o->levels], sizeof(uint64_t));
            if (!o->bits[o->levels]) {
                PyErr_NoMemory();
                return -1;
            }
        }
    }
    o->mbits = 6;
    o->mcap = (size_t)1 << o->mbits;
    o->map = gt_calloc(o->mcap, sizeof *o->map);
    if (!o->map) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

/* -- the bit set of parked nodes */
/* word w of level l (0 where the sparse set never touched it) */
static inline uint64_t bt_word(const Open *o, int l, size_t w) {
    if (!o->sparse)
        return o->bits[l][w];
    const uint64_t *p = map_get(&o->words_of[l], (int64_t)w);
    return p ? *p : 0;
}

/* the place of word w of level l, made (zero) in a sparse set; NULL on MemoryError */
static inline uint64_t *bt_place(Open *o, int l, size_t w) {
    return o->sparse ? map_put(&o->words_of[l], (int64_t)w, NULL) : &o->bits[l][w];
}

static inline int bt_set(Open *o, int64_t n) {
    size_t i = (size_t)n;
    for (int l = 0; l < o->levels; l++) {
        uint64_t *w = bt_place(o, l, i >> 6);
        if (!w)
            return -1;
        uint64_t was = *w;
        *w = was | (uint64_t)1 << (i & 63);
        if (was)
            return 0;
        i >>= 6;
    }
    return 0;
}

/* n is set: every word on its way up exists, so this allocates nothing */
static inline void bt_clear(Open *o, int64_t n) {
    size_t i = (size_t)n;
    for (int l = 0; l < o->levels; l++) {
        uint64_t *w = o->sparse ? (uint64_t *)map_get(&o->words_of[l], (int64_t)(i >> 6))
                                : &o->bits[l][i >> 6];
        *w &= ~((uint64_t)1 << (i & 63));
        if (*w)
            return;
        i >>= 6;
    }
}

static uint64_t bt_word_of(const void *o, int l, size_t w) { return bt_word(o, l, w); }

/* the least parked node >= x, or -1 */
static inline int64_t bt_next(const Open *o, int64_t x) {
    return levels_next(o, bt_word_of, o->words, o->levels, (uint64_t)x);
}

/* -- `parked` */
static inline size_t m_home(const Open *o, int64_t n) {
    return (size_t)(((uint64_t)n * 0x9E3779B97F4A7C15ull) >> (64 - o->mbits));
}

/* where n is, or the empty place where it would go */
static inline size_t m_find(const Open *o, int64_t n) {
    size_t mask = o->mcap - 1, i = m_home(o, n);
    while (o->map[i].key && o->map[i].key != n + 1)
        i = (i + 1) & mask;
    return i;
}

/* n's new entry (and n put in the bit set); NULL on MemoryError, or AssertionError when n is
 * parked already, which SSS* never does (see above) */
static PEnt *m_put(Open *o, int64_t n) {
    size_t i = m_find(o, n);
    if (o->map[i].key) {
        PyErr_SetString(PyExc_AssertionError, "bug: a node parked twice");
        return NULL;
    }
    if (8 * (o->mlen + 1) > o->mcap) {
        size_t oldcap = o->mcap;
        PEnt *old = o->map, *map = gt_calloc(2 * oldcap, sizeof *map);
        if (!map) {
            PyErr_NoMemory();
            return NULL;
        }
        o->map = map;
        o->mcap = 2 * oldcap;
        o->mbits++;
        for (size_t k = 0; k < oldcap; k++)
            if (old[k].key)
                o->map[m_find(o, old[k].key - 1)] = old[k];
        gt_free(old);
        i = m_find(o, n);
    }
    if (bt_set(o, n) < 0)
        return NULL; /* MemoryError set by map_put */
    o->mlen++;
    o->map[i].key = n + 1;
    return &o->map[i];
}

/* unpark the node at map place i: backward-shift deletion keeps every probe run unbroken */
static void m_del(Open *o, size_t i) {
    size_t mask = o->mcap - 1, j = i;
    if (o->top_ok && o->best.node == (uint64_t)(o->map[i].key - 1))
        o->top_ok = 0;
    bt_clear(o, o->map[i].key - 1);
    for (;;) {
        j = (j + 1) & mask;
        if (!o->map[j].key)
            break;
        size_t home = m_home(o, o->map[j].key - 1);
        /* the entry at j may move to i when its home is not within (i, j] */
        if (((j - home) & mask) >= ((j - i) & mask)) {
            o->map[i] = o->map[j];
            i = j;
        }
    }
    o->map[i].key = 0;
    o->mlen--;
}

/* -- the heap ---------------------------------------------------------------------------------
 * OPEN hands its states out in increasing order of (-h, node): every state parked is worse than
 * the one taken last (a state parked by a falling h has a lower h than the state it came from;
 * a run of siblings, or the rest of one, lies right of it with the same h).  So OPEN is a
 * monotone priority queue, and a radix heap (Ahuja, Mehlhorn, Orlin & Tarjan 1990) serves it:
 * an entry is put in the bucket of the highest bit in which its 128-bit key differs from the
 * key taken last (O(1)); the least entry is found in the lowest non-empty bucket, and when it
 * is taken the rest of that bucket moves to lower buckets, by bits below the one they shared.
 * An entry moves at most 128 times, and in practice a few; stale entries (purged states) are
 * dropped whenever their bucket is scanned. */
static inline int msb64(uint64_t x) {
#if defined(__GNUC__) || defined(__clang__)
    return 63 - __builtin_clzll(x);
#else
    int n = 0;
    while (x >>= 1)
        n++;
    return n;
#endif
}

static inline int bucket_of(const Open *o, const HeapItem *it) {
    uint64_t x = it->negh ^ o->last.negh;
    if (x)
        return 65 + msb64(x);
    x = it->node ^ o->last.node;
    return x ? 1 + msb64(x) : 0;
}

static inline int bk_push(Open *o, int b, HeapItem it) {
    Bucket *B = &o->bk[b];
    if (ROOM(B->p, B->len, B->cap) < 0)
        return -1;
    B->p[B->len++] = it;
    o->nonempty[b >> 6] |= (uint64_t)1 << (b & 63);
    return 0;
}

static inline int lowest_bucket(const Open *o) {
    for (int w = 0; w < 3; w++)
        if (o->nonempty[w])
            return w * 64 + ctz64(o->nonempty[w]);
    return -1;
}

static inline void bk_emptied(Open *o, int b) { o->nonempty[b >> 6] &= ~((uint64_t)1 << (b & 63)); }

/* is n parked? (its bit in the set) */
static inline int bt_has(const Open *o, uint64_t n) {
    return (int)(bt_word(o, 0, (size_t)(n >> 6)) >> (n & 63) & 1);
}

/* an entry for a state just parked, which SSS* makes worse than the one taken last */
static int push_entry(Open *o, double h, int64_t n) {
    HeapItem it = {ordered(-h), (uint64_t)n};
    if (!rank_less(rank(&o->last), rank(&it))) {
        PyErr_SetString(PyExc_AssertionError, "bug: a state parked ahead of the one taken last");
        return -1;
    }
    int b = bucket_of(o, &it);
    if (bk_push(o, b, it) < 0)
        return -1;
    if (o->top_ok && rank_less(rank(&it), rank(&o->best))) {
        o->best = it;
        o->best_b = b;
        o->best_at = o->bk[b].len - 1;
    }
    return 0;
}

/* Python's `parked[n] = (h, status, weight)` with its heappush: park a state */
static int park(Open *o, int64_t n, double h, int status, int64_t weight, int64_t prec, int is_max,
                int run) {
    PEnt *e = m_put(o, n);
    if (!e)
        return -1;
    if (weight > 1)
        o->recs->p[prec].w = weight;
    e->pf = pack(prec, weight > 1, status, is_max, run);
    return push_entry(o, h, n);
}

/* The best parked state (Python's heap top after skipping stale entries), or NULL. */
static inline const HeapItem *top(Open *o) {
    if (o->top_ok)
        return &o->best;
    for (;;) {
        int b = lowest_bucket(o);
        if (b < 0)
            return NULL;
        Bucket *B = &o->bk[b];
        size_t k = 0;
        for (size_t i = 0; i < B->len; i++) {
            HeapItem it = B->p[i];
            if (!bt_has(o, it.node))
                continue; /* purged */
            B->p[k] = it;
            if (!o->top_ok || rank_less(rank(&it), rank(&o->best))) {
                o->best = it;
                o->best_at = k;
                o->top_ok = 1;
            }
            k++;
        }
        B->len = k;
        if (!k) {
            bk_emptied(o, b);
            continue;
        }
        o->best_b = b;
#if defined(__GNUC__) || defined(__clang__)
        /* The best state is often taken a few leaves later, and SSS* jumps about arrays far
         * larger than the cache: its node's end and value are asked for now. */
        if (o->t->e32) { /* arrays of 4-byte ends, as for prefetch_subtree() */
            __builtin_prefetch(o->t->e32 + o->best.node);
            __builtin_prefetch(o->t->val + o->best.node);
        }
#endif
        return &o->best;
    }
}

/* Take the entry top() found out of the heap: the rest of its bucket moves down. */
static int take_top(Open *o) {
    int b = o->best_b;
    Bucket *B = &o->bk[b];
    B->p[o->best_at] = B->p[--B->len];
    o->last = o->best;
    o->top_ok = 0;
    if (b == 0)
        return 0; /* entries equal to the last: none but it, as nodes are unique */
    size_t n = B->len;
    B->len = 0;
    bk_emptied(o, b);
    for (size_t i = 0; i < n; i++) {
        HeapItem it = B->p[i];
        if (bt_has(o, it.node) && bk_push(o, bucket_of(o, &it), it) < 0)
            return -1; /* a lower bucket: B itself is not written */
    }
    return 0;
}

/* the state of the top entry, which top() found current; *at: its place in the map */
static inline Parked parked_of(const Open *o, size_t *at) {
    const HeapItem *it = &o->best;
    *at = m_find(o, (int64_t)it->node);
    const PEnt *e = &o->map[*at];
    int64_t prec = (int64_t)(e->pf >> 4) - 1;
    Parked p = {(int64_t)it->node,
                e->pf >> 3 & 1 ? o->recs->p[prec].w : 1,
                prec,
                -unordered(it->negh),
                (int)(e->pf >> 2 & 1),
                (int)(e->pf >> 1 & 1),
                (int)(e->pf & 1)};
    return p;
}

/* Park (n, ...) and take the best parked state, which top() just found better than it
 * (Python's heappush then heappop). */
static int park_and_pop(Open *o, int64_t n, double h, int status, int64_t weight, int64_t prec,
                        int is_max, Parked *got) {
    size_t at;
    *got = parked_of(o, &at);
    if (take_top(o) < 0)
        return -1;
    m_del(o, at);
    return park(o, n, h, status, weight, prec, is_max, 0);
}

/* Remove every parked state of a node in [lo, hi) (below a node); the sum of their weights. */
static int64_t purge(Open *o, int64_t lo, int64_t hi) {
    int64_t sum = 0;
    for (int64_t x = bt_next(o, lo); x >= 0 && x < hi; x = bt_next(o, x + 1)) {
        size_t i = m_find(o, x);
        uint64_t pf = o->map[i].pf;
        sum += pf >> 3 & 1 ? o->recs->p[(pf >> 4) - 1].w : 1;
        m_del(o, i);
    }
    return sum;
}

/* -- the solver map ------------------------------------------------------------------------
 * Python's `solver` dict (a MAX node -> the child that solved it) is a log of pairs in the
 * order the nodes are solved (core.h): a node's solution tree is solved before the node, so
 * the PV's walk from the root finds each node's last pair by one backward scan of the log. */
typedef struct {
    Open open;
    Recs recs;
    PairLog solver;
} State;

/* Room for the records and the solver's pairs up front, as many as half the tree's nodes up to
 * RESERVED_RECS: a large search would otherwise copy them at every doubling (3 to 5 % of its
 * time); pages it never touches cost address space only.  Without the room, they grow. */
#define RESERVED_RECS ((size_t)1 << 16)
static void state_reserve(State *S, node_t size) {
    size_t want = (size_t)size / 2 < RESERVED_RECS ? (size_t)size / 2 + 64 : RESERVED_RECS;
    S->recs.p = gt_malloc(want * sizeof *S->recs.p);
    S->recs.cap = S->recs.p ? want : 0;
    S->solver.p = gt_malloc(2 * want * sizeof *S->solver.p);
    S->solver.cap = S->solver.p ? 2 * want : 0;
}

static void state_free(State *S) {
    open_free(&S->open);
    gt_free(S->recs.p);
    gt_free(S->solver.p);
}

/* _sss_core(): h of the solved root (mirrored terms); the solver map stays in S. */
static int sss_core(Search *X, State *S, double h0, double mirror, double *out_h,
                    int64_t *out_generated, int64_t *out_open_max) {
    const TreeView *t = &X->t;
    NodeList *leaves = &X->leaves;
    Open *open = &S->open;
    int64_t size = 1, open_max = 1, generated = 1;
    node_t n = 0, weight = 1;
    int64_t prec = -1; /* the record of n's parent: none above the root */
    int status = LIVE;
    double h = h0;
    int is_max = mirror > 0 ? t->root_max : !t->root_max;
    for (;;) {
        if (search_tick(X) < 0)
            return -1;
        if (status == LIVE) {
            node_t stop = END(t, n);
            prefetch_subtree(t, n, stop);
            if (stop == n + 1) { /* case 2: the only leaf evaluation */
                if (nl_push(leaves, n) < 0)
                    return -1;
                status = SOLVED;
                double v = mirror * VAL(t, n);
                if (v >= h)
                    continue;
                h = v;
            } else if (is_max) { /* case 3: every child, with h */
                node_t first = n + 1, count = 0, c = first;
                int leaves_only = 1;
                while (c < stop) {
                    count++;
                    node_t e = END(t, c);
                    if (e != c + 1)
                        leaves_only = 0;
                    c = e;
                }
                generated += count;
                size += count - 1;
                if (size > open_max)
                    open_max = size;
                if (!leaves_only) {
                    int64_t me;
                    if (new_rec(&S->recs, n, prec, &me) < 0)
                        return -1;
                    if (count > 1 && park(open, END(t, first), h, LIVE, count - 1, me, 0, 1) < 0)
                        return -1;
                    prec = me;
                    n = first;
                    is_max = 0;
                    continue;
                }
                node_t best_c = -1;
                double best_v = h;
                for (c = first; c < stop; c++) {
                    if (nl_push(leaves, c) < 0)
                        return -1;
                    double v = mirror * VAL(t, c);
                    if (v >= h)
                        break;
                    if (best_c < 0 || v > best_v) {
                        best_c = c;
                        best_v = v;
                    }
                }
                if (c < stop) { /* (c, SOLVED, h) is next, and case 5 solves n */
                    if (log_pair(&S->solver, n, c) < 0)
                        return -1;
                    size -= count - 1;
                    status = SOLVED;
                    continue;
                }
                /* every child solved below h: the best one stands for them all */
                if (new_rec(&S->recs, n, prec, &prec) < 0)
                    return -1;
                n = best_c;
                status = SOLVED;
                h = best_v;
                is_max = 0;
                weight = count;
            } else { /* case 4: the first child; leaves are taken here, case 6 after each */
                node_t c = n + 1;
                int64_t me;
                if (new_rec(&S->recs, n, prec, &me) < 0)
                    return -1;
                if (END(t, c) != c + 1) {
                    generated++;
                    prec = me;
                    n = c;
                    is_max = 1;
                    continue;
                }
                double top_h = -INF;
                node_t top_n = -1;
                const HeapItem *best = top(open);
                if (best) {
                    top_h = -unordered(best->negh);
                    top_n = (node_t)best->node;
                }
                for (;;) {
                    if (nl_push(leaves, c) < 0)
                        return -1;
                    generated++;
                    double v = mirror * VAL(t, c);
                    if (v < h) {
                        h = v;
                        if (top_h > h || (top_h == h && top_n < c))
                            break; /* a parked state is ahead of (c, SOLVED, h) now */
                    }
                    c = END(t, c);
                    if (c >= stop || END(t, c) != c + 1)
                        break;
                }
                if (c >= stop) { /* case 6 after the last child: the MIN node is solved */
                    status = SOLVED;
                    continue;
                }
                prec = me;
                n = c;
                is_max = 1;
                if (END(t, c) != c + 1) { /* case 6: the next child is no leaf */
                    generated++;
                    continue;
                }
                status = SOLVED;
            }
            /* h went down (case 2, or case 3 over leaves): is a parked state now ahead? */
            const HeapItem *best = top(open);
            if (best && rank_less(rank(best), make_rank(ordered(-h), (uint64_t)n))) {
                Parked got;
                if (park_and_pop(open, n, h, status, weight, prec, is_max, &got) < 0)
                    return -1;
                h = got.h;
                n = got.n;
                prec = got.prec;
                status = got.status;
                is_max = got.is_max;
                weight = got.weight;
                if (got.run) {
                    if (weight > 1 && /* the rest of the run of siblings stays parked */
                        park(open, END(t, n), h, LIVE, weight - 1, prec, is_max, 1) < 0)
                        return -1;
                    weight = 1;
                }
            }
        } else {
            if (prec < 0) { /* case 1: the root is solved */
                *out_h = h;
                *out_generated = generated;
                *out_open_max = open_max;
                return 0;
            }
            node_t p = S->recs.p[prec].node;
            if (!is_max) { /* case 5: the parent is a MAX node: solved; purge below it */
                size -= weight - 1;
                size -= purge(open, p + 1, END(t, p));
                if (log_pair(&S->solver, p, n) < 0)
                    return -1;
                n = p;
                prec = S->recs.p[prec].parent;
                is_max = 1;
                weight = 1;
            } else { /* case 6: the parent is a MIN node: the next sibling, or it is solved */
                node_t c = END(t, n);
                if (c < END(t, p)) {
                    generated++;
                    n = c;
                    status = LIVE;
                } else {
                    n = p;
                    prec = S->recs.p[prec].parent;
                    is_max = 0;
                }
            }
        }
    }
}

/* the line's rule (_solution_line()): at a MAX node the child that solved it, the last in
 * the solver log; at a MIN node the first child, or with `prover` the first child proved to
 * keep the value (mirrored terms) */
typedef struct {
    const TreeView *t;
    const PairLog *solver;
    size_t at; /* the backward scan of the solver log */
    Prover *prover;
    double mirror;
} SolutionWalk;

static node_t solution_child(void *ctx, node_t n, int is_max) {
    SolutionWalk *w = ctx;
    if (IS_LEAF(w->t, n))
        return PV_END;
    if (is_max) {
        node_t c = log_last(w->solver, &w->at, n);
        if (c < 0)
            PyErr_SetString(PyExc_AssertionError, "bug: a MAX node of the line is unsolved");
        return c;
    }
    node_t c = n + 1;
    if (w->prover) {
        for (;;) {
            int ok = prover_proves(w->prover, c, w->mirror < 0 ? is_max : !is_max);
            if (ok < 0)
                return -1;
            if (ok)
                break;
            c = END(w->t, c);
        }
    }
    return c;
}

/* _solution_line(): the PV from the solved solution tree (mirrored terms), in X. */
static int solution_line(Search *X, const PairLog *solver, double h, int exact, double mirror) {
    const TreeView *t = &X->t;
    SolutionWalk walk = {t, solver, solver->len, NULL, mirror};
    if (exact) {
        walk.prover = prover_new(t, &X->leaves, mirror * h, mirror < 0);
        if (!walk.prover)
            return -1;
    }
    int root_max = mirror > 0 ? t->root_max : !t->root_max;
    int rc = pv_walk(solution_child, &walk, root_max, &X->line, &X->line_len);
    prover_free(walk.prover);
    return rc;
}

/* the arguments (h0, mirror) */
static int sss_search(Search *X, const SearchParams *P) {
    const double h0 = P->x[0], mirror = P->x[1];
    State S;
    memset(&S, 0, sizeof S);
    int rc = -1;
    double h;
    state_reserve(&S, X->t.size);
    if (open_init(&S.open, &X->t, &S.recs) == 0 &&
        sss_core(X, &S, h0, mirror, &h, &X->counts[0], &X->counts[1]) == 0) {
        /* the search is done: OPEN goes before the PV is worked out */
        open_free(&S.open);
        gt_free(S.recs.p);
        S.recs.p = NULL;
        X->value = h;
        rc = solution_line(X, &S.solver, h, h < h0, mirror);
    }
    state_free(&S);
    return rc;
}

PyObject *gt_sss(PyObject *self, PyObject *args) {
    (void)self;
    return search_entry(args, "dd", sss_search, WITH_LINE, 2);
}
