/* The random: sources of gtsearch.sources.randomtree, built whole into the flat arrays.
 *
 * The same numbers as gtsearch/sources/splitmix.py and randomtree.py (docs/sources.md):
 * SplitMix64 over 64-bit keys, key(root) = splitmix64(seed), key(child i) =
 * splitmix64(key + (i + 1) * golden), draw j = splitmix64((key ^ DRAW) + j * golden),
 * an integer in [lo, hi] = lo + ((x * (hi - lo + 1)) >> 64), a real = (x >> 11) * 2**-53.
 * Models iid, binary, incremental and permutation with the order `random` and without
 * chance levels; the ordered and chance sources stay with Python (the caller checks).
 * The tests compare this with the Python cursor node for node. */
#include "core.h"

#define GOLDEN 0x9E3779B97F4A7C15ULL
#define MIX1 0xBF58476D1CE4E5B9ULL
#define MIX2 0x94D049BB133111EBULL
#define DRAWX 0x5851F42D4C957F2DULL

enum { M_IID = 0, M_BINARY = 1, M_INCREMENTAL = 2, M_PERMUTATION = 3 };

static inline uint64_t sm64(uint64_t x) {
    uint64_t z = x + GOLDEN;
    z = (z ^ (z >> 30)) * MIX1;
    z = (z ^ (z >> 27)) * MIX2;
    return z ^ (z >> 31);
}

static inline uint64_t draw_at(uint64_t key, uint64_t j) { return sm64((key ^ DRAWX) + j * GOLDEN); }

/* the high 64 bits of a * b, without a 128-bit type */
static inline uint64_t mulhi(uint64_t a, uint64_t b) {
    uint64_t a0 = a & 0xFFFFFFFFu, a1 = a >> 32, b0 = b & 0xFFFFFFFFu, b1 = b >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    uint64_t mid = (p00 >> 32) + (p01 & 0xFFFFFFFFu) + (p10 & 0xFFFFFFFFu);
    return p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
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

/* random_tree(b, d, model, seed, lo, hi, p, wide) -> (end, values) */
PyObject *gt_random_tree(PyObject *self, PyObject *args) {
    (void)self;
    long long b, d, lo, hi;
    int model, wide;
    unsigned long long seed;
    double p;
    if (!PyArg_ParseTuple(args, "LLiKLLdp", &b, &d, &model, &seed, &lo, &hi, &p, &wide))
        return NULL;
    const long long limit = (long long)1 << 53;
    if (b < 1 || d < 0 || d > ((long long)1 << 24) || model < M_IID || model > M_PERMUTATION || lo > hi ||
        lo < -limit || hi > limit) {
        PyErr_SetString(PyExc_ValueError, "random_tree: parameters out of range");
        return NULL;
    }
    if (model == M_INCREMENTAL && (llabs(lo) > limit / (d + 1) || llabs(hi) > limit / (d + 1))) {
        PyErr_SetString(PyExc_ValueError, "random_tree: the sums could leave 2**53");
        return NULL;
    }
    int64_t *sub = malloc((size_t)(d + 1) * sizeof *sub);
    uint64_t *keys = malloc((size_t)(d + 1) * sizeof *keys);
    int64_t *sums = malloc((size_t)(d + 1) * sizeof *sums);
    int64_t *next = malloc((size_t)(d + 1) * sizeof *next);
    void *end = NULL;
    double *vals = NULL;
    PyObject *result = NULL;
    Ticker tk;
    memset(&tk, 0, sizeof tk);
    if (!sub || !keys || !sums || !next) {
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
    if (model == M_PERMUTATION) {
        uint64_t leaves = (uint64_t)(size - (size - 1) / b); /* b**d */
        if (b == 1)
            leaves = 1;
        perm.n = leaves;
        perm.half = 1;
        while (perm.half < 32 && ((uint64_t)1 << (2 * perm.half)) < leaves)
            perm.half++;
        perm.mask = ((uint64_t)1 << perm.half) - 1;
        for (int r = 0; r < 4; r++)
            perm.keys[r] = draw_at(root, (uint64_t)r);
    }
    end = malloc((size_t)size * (wide ? sizeof(int64_t) : sizeof(int32_t)));
    vals = malloc((size_t)size * sizeof *vals);
    if (!end || !vals) {
        PyErr_NoMemory();
        goto done;
    }
    /* preorder: the path's keys, sums and next child by level */
    long long k = 0;
    keys[0] = root;
    sums[0] = 0;
    next[0] = 0;
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
            double v;
            uint64_t x = draw_at(keys[k], 0);
            switch (model) {
            case M_BINARY:
                v = (double)(x >> 11) * 0x1p-53 < p ? 1.0 : 0.0;
                break;
            case M_INCREMENTAL:
                v = (double)sums[k];
                break;
            case M_PERMUTATION:
                v = (double)(1 + feistel(&perm, (uint64_t)rank));
                break;
            default:
                v = (double)(lo + (int64_t)mulhi(x, width));
            }
            vals[n++] = v;
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
    free(end);
    free(vals);
    free(sub);
    free(keys);
    free(sums);
    free(next);
    return result;
}
