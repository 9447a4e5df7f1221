/* The random: sources of gtsearch.sources.randomtree, built whole into the flat arrays.
 *
 * The same numbers as gtsearch/splitmix.py and randomtree.py (docs/sources.md):
 * SplitMix64 over 64-bit keys, key(root) = splitmix64(seed), key(child i) =
 * splitmix64(key + (i + 1) * golden), draw j = splitmix64((key ^ DRAW) + j * golden),
 * an integer in [lo, hi] = lo + ((x * (hi - lo + 1)) >> 64), a real = (x >> 11) * 2**-53.
 * Models iid, binary, incremental, permutation and trap (sources/traps.py) with the order
 * `random` and without chance levels; the ordered and chance sources stay with Python (the
 * caller checks).
 * The tests compare this with the Python cursor node for node. */
#include "core.h"

enum { M_IID = 0, M_BINARY = 1, M_INCREMENTAL = 2, M_PERMUTATION = 3, M_TRAP = 4 };

static inline double unit_of(uint64_t x) { return (double)(x >> 11) * 0x1p-53; }

static inline int64_t integer_in(uint64_t x, int64_t lo, int64_t hi) {
    return lo + (int64_t)mulhi(x, (uint64_t)(hi - lo) + 1);
}

/* -- the trap model (sources/traps.py, docs/sources.md): a node's state handed down */
enum { T_FREE = 0, T_TRAP = 1, T_GOOD = 2 };

typedef struct {
    int kind, player; /* player 0: MAX, who moves at even levels */
    int64_t r;        /* TRAP: plies of the opponent's strategy left (0: lost) */
} TrapState;

typedef struct {
    int64_t b, d, k;
    double p;
} TrapModel;

/* traps.child_state: child i of the node of key `key` at `level` in state s */
static TrapState trap_child(const TrapModel *t, TrapState s, uint64_t key, int64_t level,
                            int64_t i) {
    int mover = (int)(level % 2);
    if (s.kind == T_FREE) {
        TrapState free_ = {T_FREE, 0, 0};
        if (t->d - level < t->k + 1 || i == integer_in(draw_at(key, 1), 0, t->b - 1))
            return free_;
        if (unit_of(draw_at(key, (uint64_t)(2 + i))) < t->p) {
            TrapState trap = {T_TRAP, mover, t->k};
            return trap;
        }
        return free_;
    }
    if (s.kind == T_TRAP && s.r > 0) {
        TrapState next = {T_TRAP, s.player, s.r - 1};
        if (mover == s.player || i == integer_in(draw_at(key, 1), 0, t->b - 1))
            return next;
        next.kind = T_GOOD;
        next.r = 0;
        return next;
    }
    return s;
}

/* traps.leaf_value */
static int64_t trap_leaf(TrapState s, uint64_t key, int64_t lo, int64_t hi) {
    int64_t mid = lo + (hi - lo) / 2;
    if (s.kind == T_TRAP)
        return s.player == 0 ? lo : hi;
    uint64_t x = draw_at(key, 0);
    if (s.kind == T_GOOD)
        return s.player == 0 ? integer_in(x, mid, hi - 1) : integer_in(x, lo + 1, mid);
    return integer_in(x, lo + 1, hi - 1);
}

/* the parameters of any model that random_tree and virt_open check alike */
static int trap_params_bad(int model, long long lo, long long hi, long long k) {
    return model == M_TRAP && (hi - lo < 2 || k < 1 || k > ((long long)1 << 24));
}

typedef struct {
    uint64_t keys[4];
    int half;
    uint64_t mask, n;
} Feistel;

static uint64_t feistel_round(const Feistel *f, uint64_t x) {
    uint64_t left = x >> f->half, right = x & f->mask;
    for (int r = 0; r < 4; r++) {
        uint64_t next = left ^ (sm64(f->keys[r] ^ right) & f->mask);
        left = right;
        right = next;
    }
    return (left << f->half) | right;
}

static uint64_t feistel(const Feistel *f, uint64_t x) {
    uint64_t y = feistel_round(f, x);
    while (y >= f->n)
        y = feistel_round(f, y);
    return y;
}

static void perm_init(Feistel *f, uint64_t root, uint64_t leaves) {
    f->n = leaves;
    f->half = 1;
    while (f->half < 32 && ((uint64_t)1 << (2 * f->half)) < leaves)
        f->half++;
    f->mask = ((uint64_t)1 << f->half) - 1;
    for (int r = 0; r < 4; r++)
        f->keys[r] = draw_at(root, (uint64_t)r);
}

/* A leaf's value in the model: from its key (iid, binary), the sum of its arcs
 * (incremental) or its rank among the leaves (permutation). */
static inline double leaf_value(int model, uint64_t key, int64_t sum, int64_t rank,
                                const Feistel *perm, long long lo, uint64_t width, double p) {
    switch (model) {
    case M_BINARY:
        return (double)(draw_at(key, 0) >> 11) * 0x1p-53 < p ? 1.0 : 0.0;
    case M_INCREMENTAL:
        return (double)sum;
    case M_PERMUTATION:
        return (double)(1 + feistel(perm, (uint64_t)rank));
    default:
        return (double)(lo + (int64_t)mulhi(draw_at(key, 0), width));
    }
}

/* random_tree(b, d, model, seed, lo, hi, p, wide, k=1) -> (end, values) */
PyObject *gt_random_tree(PyObject *self, PyObject *args) {
    (void)self;
    long long b, d, lo, hi, trap_k = 1;
    int model, wide;
    unsigned long long seed;
    double p;
    if (!PyArg_ParseTuple(args, "LLiKLLdp|L", &b, &d, &model, &seed, &lo, &hi, &p, &wide,
                          &trap_k))
        return NULL;
    const long long limit = (long long)1 << 53;
    if (b < 1 || d < 0 || d > ((long long)1 << 24) || model < M_IID || model > M_TRAP || lo > hi ||
        lo < -limit || hi > limit || trap_params_bad(model, lo, hi, trap_k)) {
        PyErr_SetString(PyExc_ValueError, "random_tree: parameters out of range");
        return NULL;
    }
    if (model == M_INCREMENTAL && (llabs(lo) > limit / (d + 1) || llabs(hi) > limit / (d + 1))) {
        PyErr_SetString(PyExc_ValueError, "random_tree: the sums could leave 2**53");
        return NULL;
    }
    int64_t *sub = gt_malloc((size_t)(d + 1) * sizeof *sub);
    uint64_t *keys = gt_malloc((size_t)(d + 1) * sizeof *keys);
    int64_t *sums = gt_malloc((size_t)(d + 1) * sizeof *sums);
    int64_t *next = gt_malloc((size_t)(d + 1) * sizeof *next);
    TrapState *states = model == M_TRAP ? gt_malloc((size_t)(d + 1) * sizeof *states) : NULL;
    TrapModel trap = {b, d, trap_k, p};
    void *end = NULL;
    double *vals = NULL;
    PyObject *result = NULL;
    Ticker tk;
    memset(&tk, 0, sizeof tk);
    if (!sub || !keys || !sums || !next || (model == M_TRAP && !states)) {
        PyErr_NoMemory();
        goto done;
    }
    sub[d] = 1;
    for (long long k = d - 1; k >= 0; k--) {
        if (sub[k + 1] > (INT64_MAX - 1) / b) {
            PyErr_SetString(PyExc_OverflowError, "the tree is too large");
            goto done;
        }
        sub[k] = 1 + b * sub[k + 1];
    }
    int64_t size = sub[0];
    if ((uint64_t)size > SIZE_MAX / sizeof(double) || (!wide && size > INT32_MAX)) {
        PyErr_NoMemory();
        goto done;
    }
    Feistel perm;
    memset(&perm, 0, sizeof perm);
    uint64_t width = (uint64_t)(hi - lo) + 1;
    uint64_t root = sm64((uint64_t)seed);
    if (model == M_PERMUTATION)
        perm_init(&perm, root, b == 1 ? 1 : (uint64_t)(size - (size - 1) / b)); /* b**d */
    end = gt_malloc((size_t)size * (wide ? sizeof(int64_t) : sizeof(int32_t)));
    vals = gt_malloc((size_t)size * sizeof *vals);
    if (!end || !vals) {
        PyErr_NoMemory();
        goto done;
    }
    /* preorder: the path's keys, sums and next child by level */
    long long k = 0;
    keys[0] = root;
    sums[0] = 0;
    next[0] = 0;
    if (states) {
        TrapState free_ = {T_FREE, 0, 0};
        states[0] = free_;
    }
    int64_t n = 0, rank = 0;
    for (;;) {
        if (tick(&tk, 0) < 0)
            goto done;
        /* emit the node at level k */
        if (wide)
            ((int64_t *)end)[n] = n + sub[k];
        else
            ((int32_t *)end)[n] = (int32_t)(n + sub[k]);
        if (k == d) {
            vals[n++] = states ? (double)trap_leaf(states[k], keys[k], lo, hi)
                               : leaf_value(model, keys[k], sums[k], rank, &perm, lo, width, p);
            rank++;
            /* climb to the lowest level with a child still to come */
            while (k > 0 && next[k - 1] == b)
                k--;
            if (k == 0)
                break;
        } else {
            vals[n++] = NAN;
            next[k] = 0;
            k++;
        }
        /* level k is entered as child next[k - 1] of the node above */
        int64_t i = next[k - 1]++;
        keys[k] = sm64(keys[k - 1] + (uint64_t)(i + 1) * GOLDEN);
        if (states)
            states[k] = trap_child(&trap, states[k - 1], keys[k - 1], k - 1, i);
        sums[k] = model == M_INCREMENTAL
                      ? sums[k - 1] + lo + (int64_t)mulhi(draw_at(keys[k], 0), width)
                      : 0;
    }
    if (n != size) {
        PyErr_SetString(PyExc_AssertionError, "bug: random_tree's walk missed nodes");
        goto done;
    }
    result = flat_arrays(&end, &vals, (size_t)size, wide);
done:
    gt_free(end);
    gt_free(vals);
    gt_free(sub);
    gt_free(keys);
    gt_free(sums);
    gt_free(next);
    gt_free(states);
    return result;
}

/* -- the same trees computed on demand: the C searches read a random: source as the
 * Python cursor (randomtree._Cursor) does, its last path kept, so that a depth-first walk
 * moves one step at a time; memory O(d), whatever b**d. */
int virt_over = 0;
PyObject *VisitLimit = NULL;

enum { O_RANDOM = 0, O_BEST = 1, O_WORST = 2, O_STRONG = 3 };

struct Virt {
    int64_t b, d, lo, hi;
    int model, order;
    double p, strength;
    uint64_t width;
    int64_t k;                  /* the level of the path's last node */
    int64_t *sub;               /* nodes in a subtree at each level */
    int64_t *unit;              /* leaves below a node at each level (permutation) */
    int64_t *nodes, *sums, *ranks;
    uint64_t *keys;
    /* the orders other than random: every node's value on the path, and the values of the
     * children of the path's node at each level, arranged, with the node they belong to */
    int64_t *vals, *arranged, *arranged_for;
    int64_t visited, most;
    Feistel perm;
    TrapModel trap;
    TrapState *states; /* the trap model: every node's state on the path */
    Py_buffer counter;
};

/* a value of the iid or binary model from a node key (its draw 0): randomtree._Cursor._leaf */
static int64_t ordered_leaf(const Virt *v, uint64_t key) {
    uint64_t x = draw_at(key, 0);
    if (v->model == M_BINARY)
        return unit_of(x) < v->p ? 1 : 0;
    return integer_in(x, v->lo, v->hi);
}

static int desc(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x < y) - (x > y);
}

static int asc(const void *a, const void *b) { return -desc(a, b); }

/* The values of the children of the path's node at level k, in the order's arrangement:
 * randomtree._Cursor._arrange, number for number. */
static void arrange(Virt *v, int64_t k) {
    int64_t b = v->b, val = v->vals[k];
    uint64_t key = v->keys[k];
    int is_max = k % 2 == 0; /* generated with MAX to move at the root */
    int64_t *kids = v->arranged + (size_t)k * (size_t)b;
    int64_t *others = kids + 1; /* b - 1 values, then put in place */
    for (int64_t j = 1; j < b; j++) {
        uint64_t x = draw_at(key, (uint64_t)j);
        int64_t o;
        if (v->model == M_BINARY) {
            o = unit_of(x) < v->p ? 1 : 0;
            o = is_max ? (o < val ? o : val) : (o > val ? o : val);
        } else {
            o = is_max ? integer_in(x, v->lo, val) : integer_in(x, val, v->hi);
        }
        others[j - 1] = o;
    }
    if (v->order != O_STRONG) {
        qsort(others, (size_t)(b - 1), sizeof *others, is_max ? desc : asc);
        kids[0] = val;
        if (v->order == O_WORST) /* the list reversed */
            for (int64_t i = 0, j = b - 1; i < j; i++, j--) {
                int64_t t = kids[i];
                kids[i] = kids[j];
                kids[j] = t;
            }
    } else {
        int64_t pos = unit_of(draw_at(key, (uint64_t)b)) < v->strength
                          ? 0
                          : integer_in(draw_at(key, (uint64_t)b + 1), 0, b - 1);
        int64_t step = 0;
        for (int64_t i = b - 2; i > 0; i--, step++) { /* Fisher-Yates over the b - 1 others */
            int64_t j = integer_in(draw_at(key, (uint64_t)(b + 2 + step)), 0, i);
            int64_t t = others[i];
            others[i] = others[j];
            others[j] = t;
        }
        /* [*others[:pos], val, *others[pos:]] */
        memmove(kids, others, (size_t)pos * sizeof *kids);
        kids[pos] = val;
    }
    v->arranged_for[k] = v->nodes[k];
}

void virt_free(Virt *v) {
    if (!v)
        return;
    virt_over = 0; /* the next search, of any tree, starts afresh */
    if (v->counter.obj) {
        ((int64_t *)v->counter.buf)[0] = v->visited;
        PyBuffer_Release(&v->counter);
    }
    gt_free(v->sub);
    gt_free(v->unit);
    gt_free(v->nodes);
    gt_free(v->sums);
    gt_free(v->ranks);
    gt_free(v->keys);
    gt_free(v->vals);
    gt_free(v->arranged);
    gt_free(v->arranged_for);
    gt_free(v->states);
    gt_free(v);
}

Virt *virt_open(PyObject *spec, node_t *size) {
    long long b, d, lo, hi, trap_k;
    int model, order;
    unsigned long long seed;
    double p, strength;
    PyObject *counter;
    if (!PyTuple_Check(spec) || !PyArg_ParseTuple(spec, "LLiKLLdidLO", &b, &d, &model, &seed, &lo,
                                                  &hi, &p, &order, &strength, &trap_k, &counter)) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_TypeError, "a random source's spec is a tuple");
        return NULL;
    }
    const long long limit = (long long)1 << 53;
    if (b < 1 || d < 0 || d > ((long long)1 << 24) || model < M_IID || model > M_TRAP || lo > hi ||
        lo < -limit || hi > limit || order < O_RANDOM || order > O_STRONG ||
        trap_params_bad(model, lo, hi, trap_k) ||
        (order != O_RANDOM && model != M_IID && model != M_BINARY) ||
        (order == O_STRONG && !(strength >= 0.0 && strength <= 1.0)) ||
        (model == M_INCREMENTAL && (llabs(lo) > limit / (d + 1) || llabs(hi) > limit / (d + 1)))) {
        PyErr_SetString(PyExc_ValueError, "random source: parameters out of range");
        return NULL;
    }
    Virt *v = gt_calloc(1, sizeof *v);
    if (!v) {
        PyErr_NoMemory();
        return NULL;
    }
    if (PyObject_GetBuffer(counter, &v->counter, PyBUF_FORMAT | PyBUF_WRITABLE | PyBUF_ND) < 0) {
        gt_free(v);
        return NULL;
    }
    if (v->counter.itemsize != 8 || v->counter.len != 16 || !v->counter.format ||
        strcmp(v->counter.format, "q") != 0) {
        PyErr_SetString(PyExc_TypeError, "a random source's counter is an array('q') of two");
        virt_free(v);
        return NULL;
    }
    v->b = b, v->d = d, v->lo = lo, v->hi = hi, v->model = model, v->p = p;
    v->order = order, v->strength = strength;
    v->width = (uint64_t)(hi - lo) + 1;
    v->visited = ((int64_t *)v->counter.buf)[0];
    v->most = ((int64_t *)v->counter.buf)[1];
    size_t levels = (size_t)d + 1;
    v->sub = gt_malloc(levels * sizeof *v->sub);
    v->nodes = gt_malloc(levels * sizeof *v->nodes);
    /* what only some models need is not kept for the others (a chain of 2**24 levels) */
    int incremental = model == M_INCREMENTAL, permutation = model == M_PERMUTATION;
    v->sums = gt_malloc((incremental ? levels : 1) * sizeof *v->sums);
    v->ranks = gt_malloc((permutation ? levels : 1) * sizeof *v->ranks);
    v->keys = gt_malloc(levels * sizeof *v->keys);
    v->unit = gt_malloc((permutation ? levels : 1) * sizeof *v->unit);
    if (model == M_TRAP) {
        v->states = gt_malloc(levels * sizeof *v->states);
        TrapModel trap = {b, d, trap_k, p};
        v->trap = trap;
    }
    if (!v->sub || !v->nodes || !v->sums || !v->ranks || !v->keys || !v->unit ||
        (model == M_TRAP && !v->states)) {
        PyErr_NoMemory();
        virt_free(v);
        return NULL;
    }
    if (order != O_RANDOM) {
        v->vals = gt_malloc(levels * sizeof *v->vals);
        v->arranged_for = gt_malloc(levels * sizeof *v->arranged_for);
        v->arranged = (size_t)b <= SIZE_MAX / sizeof *v->arranged / levels
                          ? gt_malloc(levels * (size_t)b * sizeof *v->arranged)
                          : NULL;
        if (!v->vals || !v->arranged || !v->arranged_for) {
            PyErr_NoMemory();
            virt_free(v);
            return NULL;
        }
        for (size_t k = 0; k < levels; k++)
            v->arranged_for[k] = -1;
    }
    v->sub[d] = 1;
    for (long long k = d - 1; k >= 0; k--) {
        if (v->sub[k + 1] > (INT64_MAX - 1) / b) {
            PyErr_SetString(PyExc_OverflowError, "the tree is too large");
            virt_free(v);
            return NULL;
        }
        v->sub[k] = 1 + b * v->sub[k + 1];
    }
    uint64_t root = sm64((uint64_t)seed);
    v->unit[0] = 1;
    if (permutation) {
        v->unit[d] = 1;
        for (long long k = d - 1; k >= 0; k--)
            v->unit[k] = b * v->unit[k + 1]; /* b**(d-k) <= sub[k] */
        perm_init(&v->perm, root, (uint64_t)v->unit[0]);
    }
    v->k = 0;
    v->nodes[0] = 0;
    v->keys[0] = root;
    v->sums[0] = 0;
    v->ranks[0] = 0;
    if (order != O_RANDOM)
        v->vals[0] = ordered_leaf(v, root);
    if (v->states) {
        TrapState free_ = {T_FREE, 0, 0};
        v->states[0] = free_;
    }
    virt_over = 0;
    *size = v->sub[0];
    return v;
}

/* the path moved to node n (a node of the tree); n's level */
static inline int64_t locate(Virt *v, node_t n) {
    int64_t k = v->k;
    if (v->nodes[k] == n)
        return k;
    while (k && !(v->nodes[k] <= n && n < v->nodes[k] + v->sub[k]))
        k--;
    while (v->nodes[k] != n) {
        int64_t m = v->nodes[k], s = v->sub[k + 1];
        int64_t i = (n - m - 1) / s;
        if (++v->visited > v->most)
            virt_over = 1;
        uint64_t key = sm64(v->keys[k] + (uint64_t)(i + 1) * GOLDEN);
        v->keys[k + 1] = key;
        v->nodes[k + 1] = m + 1 + i * s;
        if (v->model == M_INCREMENTAL)
            v->sums[k + 1] = v->sums[k] + v->lo + (int64_t)mulhi(draw_at(key, 0), v->width);
        else if (v->model == M_PERMUTATION)
            v->ranks[k + 1] = v->ranks[k] + i * v->unit[k + 1];
        else if (v->model == M_TRAP)
            v->states[k + 1] = trap_child(&v->trap, v->states[k], v->keys[k], k, i);
        if (v->order != O_RANDOM) {
            if (v->arranged_for[k] != m)
                arrange(v, k);
            v->vals[k + 1] = v->arranged[(size_t)k * (size_t)v->b + (size_t)i];
        }
        k++;
    }
    v->k = k;
    return k;
}

node_t virt_end(Virt *v, node_t n) { return n + v->sub[locate(v, n)]; }

double virt_val(Virt *v, node_t n) {
    int64_t k = locate(v, n);
    if (k != v->d)
        return NAN;
    if (v->order != O_RANDOM)
        return (double)v->vals[k];
    if (v->model == M_TRAP)
        return (double)trap_leaf(v->states[k], v->keys[k], v->lo, v->hi);
    int64_t sum = v->model == M_INCREMENTAL ? v->sums[k] : 0;
    int64_t rank = v->model == M_PERMUTATION ? v->ranks[k] : 0;
    return leaf_value(v->model, v->keys[k], sum, rank, &v->perm, v->lo, v->width, v->p);
}
