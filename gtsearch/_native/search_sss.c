/* SSS*, DUAL* and their bounded forms: gtsearch.algorithms.sss, step for step.
 *
 * Stockman (1979); Marsland, Reinefeld & Schaeffer (1987); Sun & Ma (1993).  The states,
 * the shortcuts, the generated-node count and Stockman's OPEN size are those of
 * _sss_core(); the PV is _solution_line()'s.  OPEN is a binary heap ordered by the same
 * tuple as the Python heap, (-h, node, status, is_max, run), and the parked states are
 * also listed by node, so the purge of case 5 is one interval cut (see "OPEN's parked
 * states" below); parents are kept as a chain of records instead of a dict (see "parents").
 */
#include "core.h"

enum { LIVE = 0, SOLVED = 1 };

/* -- OPEN's parked states ---------------------------------------------------------------------
 * Python keeps a heap of entries (-h, node, status, is_max, run), a dict of the parked states
 * by node and a sorted list of their nodes; purged or replaced states leave stale entries in
 * the heap, skipped when they come up.  Here each parked state has a slot; the heap holds the
 * slots of exactly the parked states (every removal takes the entry out at once, so the top is
 * always what Python's heap gives after skipping stale entries), and the slots are also listed
 * by node in blocks of sorted (node, slot) pairs for the interval purge of case 5. */
typedef struct {
    double negh;
    uint64_t key; /* node, status, is_max, run, in that order of significance */
    size_t slot;
} HeapItem;

static inline uint64_t pack(int64_t n, int status, int is_max, int run) {
    return (uint64_t)n << 3 | (uint64_t)status << 2 | (uint64_t)is_max << 1 | (uint64_t)run;
}

/* the Python tuples' order: (-h, node, status, is_max, run) */
static inline int item_less(const HeapItem *x, const HeapItem *y) {
    if (x->negh != y->negh)
        return x->negh < y->negh;
    return x->key < y->key;
}

typedef struct {
    int64_t n, weight, prec; /* prec: the record of the node's parent */
    double h;
    int status;
    size_t hpos; /* where the slot is in the heap */
} Slot;

typedef struct {
    int64_t n;
    size_t slot;
} Ref;

#define PARK_BLOCK 64

typedef struct {
    int len;
    Ref e[PARK_BLOCK];
} Block;

typedef struct {
    HeapItem *heap;
    size_t hlen, hcap;
    Slot *slots;
    size_t nslots, capslots;
    size_t *free;
    size_t nfree, capfree;
    Block **b;
    size_t blen, bcap;
} Open;

/* a parked state taken out of OPEN */
typedef struct {
    int64_t n, weight, prec;
    double h;
    int status, is_max, run;
} Parked;

static void open_free(Open *o) {
    free(o->heap);
    free(o->slots);
    free(o->free);
    for (size_t i = 0; i < o->blen; i++)
        free(o->b[i]);
    free(o->b);
    memset(o, 0, sizeof *o);
}

static int grow_array(void **p, size_t *cap, size_t item) {
    size_t ncap = *cap ? *cap * 2 : 64;
    void *q = realloc(*p, ncap * item);
    if (!q) {
        PyErr_NoMemory();
        return -1;
    }
    *p = q;
    *cap = ncap;
    return 0;
}

static inline void heap_set(Open *o, size_t i, HeapItem it) {
    o->heap[i] = it;
    o->slots[it.slot].hpos = i;
}

static void sift_up(Open *o, size_t i) {
    HeapItem it = o->heap[i];
    while (i > 0) {
        size_t up = (i - 1) / 2;
        if (!item_less(&it, &o->heap[up]))
            break;
        heap_set(o, i, o->heap[up]);
        i = up;
    }
    heap_set(o, i, it);
}

static void sift_down(Open *o, size_t i) {
    HeapItem it = o->heap[i];
    size_t n = o->hlen;
    for (;;) {
        size_t l = 2 * i + 1;
        if (l >= n)
            break;
        size_t r = l + 1, kid = (r < n && item_less(&o->heap[r], &o->heap[l])) ? r : l;
        if (!item_less(&o->heap[kid], &it))
            break;
        heap_set(o, i, o->heap[kid]);
        i = kid;
    }
    heap_set(o, i, it);
}

static void heap_remove(Open *o, size_t i) {
    HeapItem last = o->heap[--o->hlen];
    if (i == o->hlen)
        return;
    heap_set(o, i, last);
    if (i > 0 && item_less(&o->heap[i], &o->heap[(i - 1) / 2]))
        sift_up(o, i);
    else
        sift_down(o, i);
}

/* where node n is, or would go, among the refs: block *bi (may be o->blen), position *j */
static void locate(const Open *o, int64_t n, size_t *bi, int *j) {
    size_t lo = 0, hi = o->blen;
    while (lo < hi) { /* the first block whose last node is >= n */
        size_t mid = (lo + hi) / 2;
        const Block *B = o->b[mid];
        if (B->e[B->len - 1].n < n)
            lo = mid + 1;
        else
            hi = mid;
    }
    *bi = lo;
    *j = 0;
    if (lo == o->blen)
        return;
    const Block *B = o->b[lo];
    int a = 0, z = B->len;
    while (a < z) {
        int mid = (a + z) / 2;
        if (B->e[mid].n < n)
            a = mid + 1;
        else
            z = mid;
    }
    *j = a;
}

static int insert_block(Open *o, size_t at) {
    if (o->blen == o->bcap && grow_array((void **)&o->b, &o->bcap, sizeof *o->b) < 0)
        return -1;
    Block *B = malloc(sizeof *B);
    if (!B) {
        PyErr_NoMemory();
        return -1;
    }
    B->len = 0;
    memmove(&o->b[at + 1], &o->b[at], (o->blen - at) * sizeof *o->b);
    o->b[at] = B;
    o->blen++;
    return 0;
}

static void remove_block(Open *o, size_t at) {
    free(o->b[at]);
    memmove(&o->b[at], &o->b[at + 1], (o->blen - at - 1) * sizeof *o->b);
    o->blen--;
}

static void free_slot(Open *o, size_t s) { o->free[o->nfree++] = s; }

/* list slot s under node n, at the place locate() found for n */
static int ref_insert(Open *o, int64_t n, size_t s, size_t bi, int j) {
    if (o->blen == 0) {
        if (insert_block(o, 0) < 0)
            return -1;
        bi = 0;
        j = 0;
    } else if (bi == o->blen) { /* after every node: at the end of the last block */
        bi = o->blen - 1;
        j = o->b[bi]->len;
    }
    Block *B = o->b[bi];
    if (B->len == PARK_BLOCK) { /* split the full block in two */
        if (insert_block(o, bi + 1) < 0)
            return -1;
        Block *C = o->b[bi + 1];
        int half = PARK_BLOCK / 2;
        memcpy(C->e, &B->e[half], (size_t)(PARK_BLOCK - half) * sizeof *B->e);
        C->len = PARK_BLOCK - half;
        B->len = half;
        if (j > half) {
            B = C;
            j -= half;
        }
    }
    memmove(&B->e[j + 1], &B->e[j], (size_t)(B->len - j) * sizeof *B->e);
    B->e[j].n = n;
    B->e[j].slot = s;
    B->len++;
    return 0;
}

/* unlist node n (listed) */
static void ref_remove(Open *o, int64_t n) {
    size_t bi;
    int j;
    locate(o, n, &bi, &j);
    Block *B = o->b[bi];
    memmove(&B->e[j], &B->e[j + 1], (size_t)(B->len - j - 1) * sizeof *B->e);
    if (--B->len == 0)
        remove_block(o, bi);
}

/* Python's `parked[n] = (h, status, weight)` with its heappush: park a state */
static int park(Open *o, int64_t n, double h, int status, int64_t weight, int64_t prec, int is_max,
                int run) {
    size_t bi;
    int j;
    locate(o, n, &bi, &j);
    HeapItem it = {-h, pack(n, status, is_max, run), 0};
    if (bi < o->blen && o->b[bi]->e[j].n == n) { /* n is parked already: its state changes */
        size_t s = o->b[bi]->e[j].slot;
        Slot *sl = &o->slots[s];
        sl->h = h;
        sl->status = status;
        sl->weight = weight;
        sl->prec = prec;
        it.slot = s;
        heap_set(o, sl->hpos, it);
        sift_up(o, sl->hpos);
        sift_down(o, o->slots[s].hpos);
        return 0;
    }
    size_t s;
    if (o->nfree) {
        s = o->free[--o->nfree];
    } else {
        if (o->nslots == o->capslots &&
            grow_array((void **)&o->slots, &o->capslots, sizeof *o->slots) < 0)
            return -1;
        s = o->nslots++;
        /* room to give the slot back later */
        if (o->capfree < o->capslots) {
            size_t *f = realloc(o->free, o->capslots * sizeof *f);
            if (!f) {
                PyErr_NoMemory();
                return -1;
            }
            o->free = f;
            o->capfree = o->capslots;
        }
    }
    Slot *sl = &o->slots[s];
    sl->n = n;
    sl->h = h;
    sl->status = status;
    sl->weight = weight;
    sl->prec = prec;
    if (ref_insert(o, n, s, bi, j) < 0)
        return -1;
    /* the heap entry */
    if (o->hlen == o->hcap && grow_array((void **)&o->heap, &o->hcap, sizeof *o->heap) < 0)
        return -1;
    it.slot = s;
    o->heap[o->hlen] = it;
    o->slots[s].hpos = o->hlen++;
    sift_up(o, o->hlen - 1);
    return 0;
}

/* the best parked state (Python's valid heap top), or NULL */
static inline const HeapItem *top(const Open *o) { return o->hlen ? &o->heap[0] : NULL; }

/* Take the best parked state out of OPEN (heappop and parked.pop). */
static Parked pop_top(Open *o) {
    HeapItem it = o->heap[0];
    Slot sl = o->slots[it.slot];
    heap_remove(o, 0);
    ref_remove(o, sl.n);
    free_slot(o, it.slot);
    Parked p = {sl.n, sl.weight, sl.prec, sl.h, sl.status, (int)(it.key >> 1 & 1),
                (int)(it.key & 1)};
    return p;
}

/* Park (n, ...) and take the best parked state, which is better than it (Python's heappush
 * then heappop): the best state's slot and heap entry are reused for the new one. */
static int park_and_pop(Open *o, int64_t n, double h, int status, int64_t weight, int64_t prec,
                        int is_max, Parked *got) {
    size_t bi;
    int j;
    locate(o, n, &bi, &j);
    if (bi < o->blen && o->b[bi]->e[j].n == n) { /* n is parked already: the general way */
        if (park(o, n, h, status, weight, prec, is_max, 0) < 0)
            return -1;
        *got = pop_top(o);
        return 0;
    }
    HeapItem it = o->heap[0];
    size_t s = it.slot;
    Slot *sl = &o->slots[s];
    Parked p = {sl->n, sl->weight, sl->prec, sl->h, sl->status, (int)(it.key >> 1 & 1),
                (int)(it.key & 1)};
    *got = p;
    ref_remove(o, p.n);
    sl->n = n;
    sl->h = h;
    sl->status = status;
    sl->weight = weight;
    sl->prec = prec;
    locate(o, n, &bi, &j);
    if (ref_insert(o, n, s, bi, j) < 0)
        return -1;
    it.negh = -h;
    it.key = pack(n, status, is_max, 0);
    heap_set(o, 0, it);
    sift_down(o, 0);
    return 0;
}

/* Remove every parked state of a node in [lo, hi) (below a node); the sum of their weights. */
static int64_t purge(Open *o, int64_t lo, int64_t hi) {
    size_t bi;
    int j;
    int64_t sum = 0;
    locate(o, lo, &bi, &j);
    while (bi < o->blen) {
        Block *B = o->b[bi];
        int k = j;
        while (k < B->len && B->e[k].n < hi) {
            size_t s = B->e[k].slot;
            sum += o->slots[s].weight;
            heap_remove(o, o->slots[s].hpos);
            free_slot(o, s);
            k++;
        }
        int reached_end = k == B->len;
        memmove(&B->e[j], &B->e[k], (size_t)(B->len - k) * sizeof *B->e);
        B->len -= k - j;
        if (!reached_end)
            break;
        if (B->len == 0)
            remove_block(o, bi);
        else
            bi++;
        j = 0;
    }
    return sum;
}

/* -- parents ----------------------------------------------------------------------------------
 * Python keeps every generated node's parent in a dict.  Here a state carries the record of its
 * node's parent, and an expanded inner node gets a record (its node, its parent's record): the
 * chain of records is the path to the root, without a map. */
typedef struct {
    int64_t node, parent;
} Rec;

typedef struct {
    Rec *p;
    size_t len, cap;
} Recs;

static inline int new_rec(Recs *r, int64_t node, int64_t parent, int64_t *at) {
    if (r->len == r->cap && grow_array((void **)&r->p, &r->cap, sizeof *r->p) < 0)
        return -1;
    r->p[r->len].node = node;
    r->p[r->len].parent = parent;
    *at = (int64_t)r->len++;
    return 0;
}

/* -- the solver map ------------------------------------------------------------------------
 * Python's `solver` dict (a MAX node -> the child that solved it) is written as a log of pairs
 * in the order the nodes are solved: a node's solution tree is solved before the node, so the
 * PV's walk from the root finds each node's last pair by one backward scan of the log. */
typedef struct {
    int64_t *p; /* node, child, node, child, ... */
    size_t len, cap;
} Log;

static inline int solved(Log *log, int64_t n, int64_t child) {
    if (log->len + 2 > log->cap && grow_array((void **)&log->p, &log->cap, sizeof *log->p) < 0)
        return -1;
    log->p[log->len++] = n;
    log->p[log->len++] = child;
    return 0;
}

typedef struct {
    Open open;
    Recs recs;
    Log solver;
} State;

static void state_free(State *S) {
    open_free(&S->open);
    free(S->recs.p);
    free(S->solver.p);
}

/* _sss_core(): h of the solved root (mirrored terms); the solver map stays in S. */
static int sss_core(const TreeView *t, NodeList *leaves, Ticker *tk, State *S, double h0,
                    double mirror, double *out_h, int64_t *out_generated, int64_t *out_open_max) {
    const double *vals = t->val;
    Open *open = &S->open;
    int64_t size = 1, open_max = 1, generated = 1;
    node_t n = 0, weight = 1;
    int64_t prec = -1; /* the record of n's parent: none above the root */
    int status = LIVE;
    double h = h0;
    int is_max = mirror > 0 ? t->root_max : !t->root_max;
    for (;;) {
        if (tick(tk, (int64_t)leaves->len) < 0)
            return -1;
        if (status == LIVE) {
            node_t stop = END(t, n);
            if (stop == n + 1) { /* case 2: the only leaf evaluation */
                if (nl_push(leaves, n) < 0)
                    return -1;
                status = SOLVED;
                double v = mirror * vals[n];
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
                    double v = mirror * vals[c];
                    if (v >= h)
                        break;
                    if (best_c < 0 || v > best_v) {
                        best_c = c;
                        best_v = v;
                    }
                }
                if (c < stop) { /* (c, SOLVED, h) is next, and case 5 solves n */
                    if (solved(&S->solver, n, c) < 0)
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
                    top_h = -best->negh;
                    top_n = (node_t)(best->key >> 3);
                }
                for (;;) {
                    if (nl_push(leaves, c) < 0)
                        return -1;
                    generated++;
                    double v = mirror * vals[c];
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
            if (best && (best->negh < -h || (best->negh == -h && (node_t)(best->key >> 3) < n))) {
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
                if (solved(&S->solver, p, n) < 0)
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

/* _solution_line(): the PV from the solved solution tree (mirrored terms). */
static int solution_line(const TreeView *t, const NodeList *leaves, const Log *solver, double h,
                         int exact, double mirror, int64_t **line, size_t *len) {
    int root_max = mirror > 0 ? t->root_max : !t->root_max;
    Prover *prover = NULL;
    if (exact) {
        prover = prover_new(t, leaves, mirror * h, mirror < 0);
        if (!prover)
            return -1;
    }
    size_t cap = 16, k = 1;
    int64_t *out = malloc(cap * sizeof *out);
    if (!out) {
        prover_free(prover);
        PyErr_NoMemory();
        return -1;
    }
    out[0] = 0;
    node_t n = 0;
    int is_max = root_max;
    size_t at = solver->len; /* the backward scan of the solver log */
    while (!IS_LEAF(t, n)) {
        node_t c;
        if (is_max) {
            while (at >= 2 && solver->p[at - 2] != n) /* n's last pair, before the last found */
                at -= 2;
            if (at < 2) {
                free(out);
                prover_free(prover);
                PyErr_SetString(PyExc_AssertionError, "bug: a MAX node of the line is unsolved");
                return -1;
            }
            at -= 2;
            c = solver->p[at + 1];
        } else {
            c = n + 1;
            if (prover) {
                for (;;) {
                    int ok = prover_proves(prover, c, mirror < 0 ? is_max : !is_max);
                    if (ok < 0) {
                        free(out);
                        prover_free(prover);
                        return -1;
                    }
                    if (ok)
                        break;
                    c = END(t, c);
                }
            }
        }
        if (k == cap) {
            int64_t *more = realloc(out, 2 * cap * sizeof *out);
            if (!more) {
                free(out);
                prover_free(prover);
                PyErr_NoMemory();
                return -1;
            }
            out = more;
            cap *= 2;
        }
        out[k++] = c;
        n = c;
        is_max = !is_max;
    }
    prover_free(prover);
    *line = out;
    *len = k;
    return 0;
}

PyObject *gt_sss(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *end, *values, *progress;
    int root_max;
    double h0, mirror;
    if (!PyArg_ParseTuple(args, "OOpddO", &end, &values, &root_max, &h0, &mirror, &progress))
        return NULL;
    TreeView t;
    if (tree_open(&t, end, values, root_max) < 0)
        return NULL;
    Ticker tk;
    if (tick_open(&tk, progress) < 0) {
        tree_close(&t);
        return NULL;
    }
    NodeList leaves;
    nl_init(&leaves, t.size > INT32_MAX);
    State S;
    memset(&S, 0, sizeof S);
    PyObject *result = NULL;
    double h;
    int64_t generated, open_max;
    int64_t *line = NULL;
    size_t line_len = 0;
    if (sss_core(&t, &leaves, &tk, &S, h0, mirror, &h, &generated, &open_max) == 0) {
        /* the search is done: OPEN goes before the PV is worked out */
        open_free(&S.open);
        free(S.recs.p);
        S.recs.p = NULL;
        if (solution_line(&t, &leaves, &S.solver, h, h < h0, mirror, &line, &line_len) == 0) {
            PyObject *pv = line_to_list(line, line_len);
            PyObject *arr = pv ? nl_to_array(&leaves) : NULL;
            if (arr)
                result = Py_BuildValue("dNNLL", h, pv, arr, (long long)generated,
                                       (long long)open_max);
            else
                Py_XDECREF(pv);
        }
    }
    free(line);
    state_free(&S);
    nl_free(&leaves);
    tick_close(&tk);
    tree_close(&t);
    return result;
}
