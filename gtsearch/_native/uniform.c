/* Seeded uniform trees: gtsearch.sources.uniform, bit for bit.
 *
 * The leaf values are those of Python's random.Random(seed).randint: the Mersenne Twister
 * MT19937 seeded by init_by_array() with the 32-bit words of abs(seed) (CPython's
 * Modules/_randommodule.c), and randint(a, b) = a + _randbelow(b - a + 1), where
 * _randbelow(n) draws getrandbits(n.bit_length()) until the draw is below n.  The Python
 * side hands over the seed's words and only values and ranges that fit in 62 bits.
 */
#include "core.h"

#define MT_N 624
#define MT_M 397

typedef struct {
    uint32_t mt[MT_N];
    int index;
} Twister;

static void init_genrand(Twister *r, uint32_t s) {
    r->mt[0] = s;
    for (int i = 1; i < MT_N; i++)
        r->mt[i] = 1812433253U * (r->mt[i - 1] ^ (r->mt[i - 1] >> 30)) + (uint32_t)i;
    r->index = MT_N;
}

static void init_by_array(Twister *r, const uint32_t *key, size_t len) {
    uint32_t *mt = r->mt;
    init_genrand(r, 19650218U);
    size_t i = 1, j = 0, k = MT_N > len ? MT_N : len;
    for (; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525U)) + key[j] + (uint32_t)j;
        i++;
        j++;
        if (i >= MT_N) {
            mt[0] = mt[MT_N - 1];
            i = 1;
        }
        if (j >= len)
            j = 0;
    }
    for (k = MT_N - 1; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941U)) - (uint32_t)i;
        i++;
        if (i >= MT_N) {
            mt[0] = mt[MT_N - 1];
            i = 1;
        }
    }
    mt[0] = 0x80000000U;
}

static uint32_t genrand(Twister *r) {
    static const uint32_t mag01[2] = {0x0U, 0x9908b0dfU};
    uint32_t *mt = r->mt, y;
    if (r->index >= MT_N) {
        int kk;
        for (kk = 0; kk < MT_N - MT_M; kk++) {
            y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
            mt[kk] = mt[kk + MT_M] ^ (y >> 1) ^ mag01[y & 0x1U];
        }
        for (; kk < MT_N - 1; kk++) {
            y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
            mt[kk] = mt[kk + (MT_M - MT_N)] ^ (y >> 1) ^ mag01[y & 0x1U];
        }
        y = (mt[MT_N - 1] & 0x80000000U) | (mt[0] & 0x7fffffffU);
        mt[MT_N - 1] = mt[MT_M - 1] ^ (y >> 1) ^ mag01[y & 0x1U];
        r->index = 0;
    }
    y = mt[r->index++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= (y >> 18);
    return y;
}

/* getrandbits(k), 1 <= k <= 64: 32-bit words from the least significant up */
static uint64_t getrandbits(Twister *r, int k) {
    if (k <= 32)
        return genrand(r) >> (32 - k);
    uint64_t low = genrand(r);
    uint64_t high = genrand(r) >> (64 - k);
    return low | (high << 32);
}

/* randint(a, b), a <= b, b - a < 2**62 */
static int64_t randint(Twister *r, int64_t a, int64_t b) {
    uint64_t n = (uint64_t)(b - a) + 1;
    int k = 0;
    for (uint64_t x = n; x; x >>= 1)
        k++;
    uint64_t v = getrandbits(r, k);
    while (v >= n)
        v = getrandbits(r, k);
    return a + (int64_t)v;
}

/* -- the leaf values, left to right (leaf_values()) ----------------------------------------- */
enum { ORDER_RANDOM = 0, ORDER_BEST = 1, ORDER_WORST = 2 };

typedef struct {
    Twister rng;
    int64_t b, d, lo, hi;
    int order;
    int64_t left; /* leaves still to give (random order) */
    /* best/worst: pending[k*b .. k*b+count[k]) the values still to hand out at level k
     * (taken from the end), as the Python version's list of lists */
    int64_t *pending, *count, *others;
    unsigned char *is_max;
    int64_t levels;
} Gen;

static void gen_free(Gen *g) {
    free(g->pending);
    free(g->count);
    free(g->others);
    free(g->is_max);
    g->pending = g->count = g->others = NULL;
    g->is_max = NULL;
}

static int gen_init(Gen *g, int64_t b, int64_t d, const uint32_t *key, size_t keylen, int64_t lo,
                    int64_t hi, int order) {
    memset(g, 0, sizeof *g);
    init_by_array(&g->rng, key, keylen);
    g->b = b;
    g->d = d;
    g->lo = lo;
    g->hi = hi;
    g->order = order;
    if (order == ORDER_RANDOM) {
        int64_t leaves = 1;
        for (int64_t k = 0; k < d; k++) {
            if (leaves > INT64_MAX / b) {
                PyErr_SetString(PyExc_OverflowError, "too many leaves");
                return -1;
            }
            leaves *= b;
        }
        g->left = leaves;
        return 0;
    }
    size_t slots = (size_t)(d + 1) * (size_t)b;
    g->pending = malloc(slots * sizeof *g->pending);
    g->count = calloc((size_t)d + 1, sizeof *g->count);
    g->others = malloc((size_t)b * sizeof *g->others);
    g->is_max = calloc((size_t)d + 1, 1);
    if (!g->pending || !g->count || !g->others || !g->is_max) {
        gen_free(g);
        PyErr_NoMemory();
        return -1;
    }
    g->pending[0] = randint(&g->rng, lo, hi);
    g->count[0] = 1;
    g->is_max[0] = 1;
    g->levels = 1;
    return 0;
}

static int cmp_up(const void *x, const void *y) {
    int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
    return (a > b) - (a < b);
}

static int cmp_down(const void *x, const void *y) { return cmp_up(y, x); }

/* The next leaf value: 1 with *out, 0 when there is none left. */
static int gen_next(Gen *g, int64_t *out) {
    if (g->order == ORDER_RANDOM) {
        if (!g->left)
            return 0;
        g->left--;
        *out = randint(&g->rng, g->lo, g->hi);
        return 1;
    }
    int64_t b = g->b;
    while (g->levels) {
        int64_t level = g->levels - 1;
        if (!g->count[level]) {
            g->levels--;
            continue;
        }
        int64_t v = g->pending[level * b + --g->count[level]];
        if (level == g->d) {
            *out = v;
            return 1;
        }
        int mover_max = g->is_max[level];
        int64_t *others = g->others;
        for (int64_t i = 0; i < b - 1; i++)
            others[i] = mover_max ? randint(&g->rng, g->lo, v) : randint(&g->rng, v, g->hi);
        /* no better for the mover than v: sorted best-first for it */
        qsort(others, (size_t)(b - 1), sizeof *others, mover_max ? cmp_down : cmp_up);
        /* kids = [v, *others] (best) or [*reversed(others), v] (worst); kept reversed */
        int64_t *kids = &g->pending[(level + 1) * b];
        if (g->order == ORDER_BEST) {
            for (int64_t i = 0; i < b - 1; i++)
                kids[i] = others[b - 2 - i];
            kids[b - 1] = v;
        } else {
            kids[0] = v;
            for (int64_t i = 0; i < b - 1; i++)
                kids[i + 1] = others[i];
        }
        g->count[level + 1] = b;
        g->is_max[level + 1] = !mover_max;
        g->levels++;
    }
    return 0;
}

/* parse (b, d, key, lo, hi, order) and start a generator */
static int gen_from_args(Gen *g, PyObject *args, int *wide) {
    long long b, d, lo, hi;
    int order;
    Py_buffer key;
    int ok;
    if (wide)
        ok = PyArg_ParseTuple(args, "LLy*LLip", &b, &d, &key, &lo, &hi, &order, wide);
    else
        ok = PyArg_ParseTuple(args, "LLy*LLi", &b, &d, &key, &lo, &hi, &order);
    if (!ok)
        return -1;
    const int64_t limit = (int64_t)1 << 62;
    if (b < 1 || d < 0 || lo > hi || lo < -limit || hi > limit ||
        (uint64_t)hi - (uint64_t)lo >= (uint64_t)limit ||
        key.len < 4 || key.len % 4 ||
        order < ORDER_RANDOM || order > ORDER_WORST) {
        PyBuffer_Release(&key);
        PyErr_SetString(PyExc_ValueError, "bad parameters for a uniform tree");
        return -1;
    }
    size_t keylen = (size_t)key.len / 4;
    uint32_t *words = malloc(keylen * sizeof *words);
    if (!words) {
        PyBuffer_Release(&key);
        PyErr_NoMemory();
        return -1;
    }
    const unsigned char *bytes = key.buf;
    for (size_t i = 0; i < keylen; i++) /* little-endian words, whatever the machine */
        words[i] = (uint32_t)bytes[4 * i] | (uint32_t)bytes[4 * i + 1] << 8 |
                   (uint32_t)bytes[4 * i + 2] << 16 | (uint32_t)bytes[4 * i + 3] << 24;
    PyBuffer_Release(&key);
    int rc = gen_init(g, b, d, words, keylen, lo, hi, order);
    free(words);
    return rc;
}

/* -- UniformLeaves: the leaf values in chunks, for writers that stream ---------------------- */
typedef struct {
    PyObject_HEAD
    Gen g;
    int started;
} Leaves;

static int leaves_init(PyObject *self, PyObject *args, PyObject *kwds) {
    Leaves *L = (Leaves *)self;
    if (kwds && PyDict_GET_SIZE(kwds)) {
        PyErr_SetString(PyExc_TypeError, "UniformLeaves takes no keyword arguments");
        return -1;
    }
    if (L->started) {
        gen_free(&L->g);
        L->started = 0;
    }
    if (gen_from_args(&L->g, args, NULL) < 0)
        return -1;
    L->started = 1;
    return 0;
}

static void leaves_dealloc(PyObject *self) {
    Leaves *L = (Leaves *)self;
    if (L->started)
        gen_free(&L->g);
    Py_TYPE(self)->tp_free(self);
}

static PyObject *leaves_take(PyObject *self, PyObject *arg) {
    Leaves *L = (Leaves *)self;
    Py_ssize_t want = PyLong_AsSsize_t(arg);
    if (want == -1 && PyErr_Occurred())
        return NULL;
    if (!L->started || want <= 0)
        return make_array("q", NULL, 0);
    if ((size_t)want > ((size_t)1 << 24))
        want = (Py_ssize_t)1 << 24;
    int64_t *out = malloc((size_t)want * sizeof *out);
    if (!out)
        return PyErr_NoMemory();
    Py_ssize_t len = 0;
    Ticker tk;
    memset(&tk, 0, sizeof tk);
    int64_t v;
    while (len < want && gen_next(&L->g, &v)) {
        if (tick(&tk, 0) < 0) {
            free(out);
            return NULL;
        }
        out[len++] = v;
    }
    PyObject *result = make_array("q", out, (size_t)len * sizeof *out);
    free(out);
    return result;
}

static PyMethodDef leaves_methods[] = {
    {"take", leaves_take, METH_O, "take(n) -> array('q') of the next n leaf values at most"},
    {NULL, NULL, 0, NULL},
};

PyTypeObject UniformLeavesType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "gtsearch._native._core.UniformLeaves",
    .tp_basicsize = sizeof(Leaves),
    .tp_dealloc = leaves_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "UniformLeaves(b, d, key, lo, hi, order): the leaf values of a uniform tree, "
              "left to right, handed out by take(n)",
    .tp_methods = leaves_methods,
    .tp_init = leaves_init,
    .tp_new = PyType_GenericNew,
};

PyObject *gt_uniform_tree(PyObject *self, PyObject *args) {
    (void)self;
    Gen g;
    int wide = 0;
    if (gen_from_args(&g, args, &wide) < 0)
        return NULL;
    int64_t b = g.b, d = g.d;
    /* subtree size by level, and the tree's size */
    int64_t *sub = malloc((size_t)(d + 1) * sizeof *sub);
    int64_t *levels = malloc((size_t)(d * (b - 1) + 2) * sizeof *levels);
    void *end = NULL;
    double *vals = NULL;
    PyObject *result = NULL;
    Ticker tk;
    memset(&tk, 0, sizeof tk);
    if (!sub || !levels) {
        PyErr_NoMemory();
        goto done;
    }
    sub[d] = 1;
    for (int64_t k = d - 1; k >= 0; k--) {
        if (sub[k + 1] > (INT64_MAX - 1) / b) {
            PyErr_SetString(PyExc_OverflowError, "the tree is too large");
            goto done;
        }
        sub[k] = 1 + b * sub[k + 1];
    }
    int64_t size = sub[0];
    if ((uint64_t)size > SIZE_MAX / sizeof(double)) {
        PyErr_NoMemory();
        goto done;
    }
    end = malloc((size_t)size * (wide ? sizeof(int64_t) : sizeof(int32_t)));
    vals = malloc((size_t)size * sizeof *vals);
    if (!end || !vals) {
        PyErr_NoMemory();
        goto done;
    }
    /* preorder with a stack of the levels of the nodes still to come, as uniform_tree() */
    size_t top = 0;
    levels[top++] = 0;
    int64_t n = 0;
    while (top) {
        if (tick(&tk, 0) < 0)
            goto done;
        int64_t k = levels[--top];
        if (wide)
            ((int64_t *)end)[n] = n + sub[k];
        else
            ((int32_t *)end)[n] = (int32_t)(n + sub[k]);
        if (k == d) {
            int64_t v;
            if (!gen_next(&g, &v)) {
                PyErr_SetString(PyExc_AssertionError, "bug: the leaf values ran out");
                goto done;
            }
            vals[n] = (double)v;
        } else {
            vals[n] = NAN;
            for (int64_t i = 0; i < b; i++)
                levels[top++] = k + 1;
        }
        n++;
    }
    result = flat_arrays(&end, &vals, (size_t)size, wide);
done:
    free(end);
    free(vals);
    free(sub);
    free(levels);
    gen_free(&g);
    return result;
}
