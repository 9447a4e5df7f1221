/* SSS*, DUAL* and their bounded forms: gtsearch.algorithms.sss, step for step.
 *
 * Stockman (1979); Marsland, Reinefeld & Schaeffer (1987); Sun & Ma (1993).  The states,
 * the shortcuts, the generated-node count and Stockman's OPEN size are those of
 * _sss_core(); the PV is _solution_line()'s.  OPEN is a binary heap ordered by the same
 * tuple as the Python heap, (-h, node, status, is_max, run), and the parked states are
 * one list sorted by node (the Python dict and sorted list in one), so the purge of case 5
 * is one interval cut.  The Python version keeps every generated node's parent in a dict;
 * here a state carries its node's parent, and only inner nodes' parents go to a map (the
 * parents are the tree's, however they are kept).
 */
#include "core.h"

enum { LIVE = 0, SOLVED = 1 };

/* a heap entry: (-h, node, status, is_max, run) with the last four packed in `key` in that
 * order of significance, so comparing (negh, key) compares the Python tuples */
typedef struct {
    double negh;
    uint64_t key;
    int64_t par; /* the node's parent (not compared: it follows from the node) */
} Entry;

static inline uint64_t pack(int64_t n, int status, int is_max, int run) {
    return (uint64_t)n << 3 | (uint64_t)status << 2 | (uint64_t)is_max << 1 | (uint64_t)run;
}
static inline int64_t e_node(const Entry *e) { return (int64_t)(e->key >> 3); }
static inline int e_status(const Entry *e) { return (int)(e->key >> 2 & 1); }
static inline int e_is_max(const Entry *e) { return (int)(e->key >> 1 & 1); }
static inline int e_run(const Entry *e) { return (int)(e->key & 1); }

static inline int entry_less(const Entry *x, const Entry *y) {
    if (x->negh != y->negh)
        return x->negh < y->negh;
    return x->key < y->key;
}

typedef struct {
    Entry *p;
    size_t len, cap;
} Heap;

static int heap_push(Heap *h, Entry e) {
    if (h->len == h->cap) {
        size_t cap = h->cap ? h->cap * 2 : 64;
        Entry *p = realloc(h->p, cap * sizeof *p);
        if (!p) {
            PyErr_NoMemory();
            return -1;
        }
        h->p = p;
        h->cap = cap;
    }
    size_t i = h->len++;
    while (i > 0) {
        size_t up = (i - 1) / 2;
        if (!entry_less(&e, &h->p[up]))
            break;
        h->p[i] = h->p[up];
        i = up;
    }
    h->p[i] = e;
    return 0;
}

static Entry heap_pop(Heap *h) {
    Entry top = h->p[0];
    Entry last = h->p[--h->len];
    size_t n = h->len, i = 0;
    if (n) {
        for (;;) {
            size_t l = 2 * i + 1;
            if (l >= n)
                break;
            size_t r = l + 1, kid = (r < n && entry_less(&h->p[r], &h->p[l])) ? r : l;
            if (!entry_less(&h->p[kid], &last))
                break;
            h->p[i] = h->p[kid];
            i = kid;
        }
        h->p[i] = last;
    }
    return top;
}

/* Parked states, sorted by node: Python's `parked` dict and sorted `in_heap` list together.
 * Kept in blocks of at most PARK_BLOCK entries (a sorted list of sorted blocks), so that an
 * insertion or removal moves a block's entries, not the whole list's. */
typedef struct {
    int64_t n;
    double h;
    int64_t weight;
    int64_t par;
    int status;
} Parked;

#define PARK_BLOCK 64

typedef struct {
    int len;
    Parked e[PARK_BLOCK];
} Block;

typedef struct {
    Block **b;
    size_t len, cap;
} ParkedList;

static void parked_free(ParkedList *l) {
    for (size_t i = 0; i < l->len; i++)
        free(l->b[i]);
    free(l->b);
    memset(l, 0, sizeof *l);
}

/* where node n is, or would go: block *bi (may be l->len) and position *j */
static void parked_locate(const ParkedList *l, int64_t n, size_t *bi, int *j) {
    size_t lo = 0, hi = l->len;
    while (lo < hi) { /* the first block whose last node is >= n */
        size_t mid = (lo + hi) / 2;
        const Block *B = l->b[mid];
        if (B->e[B->len - 1].n < n)
            lo = mid + 1;
        else
            hi = mid;
    }
    *bi = lo;
    if (lo == l->len) {
        *j = 0;
        return;
    }
    const Block *B = l->b[lo];
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

static Parked *parked_find(const ParkedList *l, int64_t n) {
    size_t bi;
    int j;
    parked_locate(l, n, &bi, &j);
    if (bi == l->len || l->b[bi]->e[j].n != n)
        return NULL;
    return &l->b[bi]->e[j];
}

static int insert_block(ParkedList *l, size_t at) {
    if (l->len == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 16;
        Block **p = realloc(l->b, cap * sizeof *p);
        if (!p) {
            PyErr_NoMemory();
            return -1;
        }
        l->b = p;
        l->cap = cap;
    }
    Block *B = malloc(sizeof *B);
    if (!B) {
        PyErr_NoMemory();
        return -1;
    }
    B->len = 0;
    memmove(&l->b[at + 1], &l->b[at], (l->len - at) * sizeof *l->b);
    l->b[at] = B;
    l->len++;
    return 0;
}

static void remove_block(ParkedList *l, size_t at) {
    free(l->b[at]);
    memmove(&l->b[at], &l->b[at + 1], (l->len - at - 1) * sizeof *l->b);
    l->len--;
}

static int parked_set(ParkedList *l, int64_t n, double h, int status, int64_t weight,
                      int64_t par) {
    size_t bi;
    int j;
    parked_locate(l, n, &bi, &j);
    if (bi < l->len && l->b[bi]->e[j].n == n) {
        Parked *e = &l->b[bi]->e[j];
        e->h = h;
        e->status = status;
        e->weight = weight;
        e->par = par;
        return 0;
    }
    if (l->len == 0) {
        if (insert_block(l, 0) < 0)
            return -1;
        bi = 0;
        j = 0;
    } else if (bi == l->len) { /* after every node: at the end of the last block */
        bi = l->len - 1;
        j = l->b[bi]->len;
    }
    Block *B = l->b[bi];
    if (B->len == PARK_BLOCK) { /* split the full block in two */
        if (insert_block(l, bi + 1) < 0)
            return -1;
        Block *C = l->b[bi + 1];
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
    B->e[j].h = h;
    B->e[j].status = status;
    B->e[j].weight = weight;
    B->e[j].par = par;
    B->len++;
    return 0;
}

/* Remove node n (present); its weight. */
static int64_t parked_pop(ParkedList *l, int64_t n) {
    size_t bi;
    int j;
    parked_locate(l, n, &bi, &j);
    Block *B = l->b[bi];
    int64_t w = B->e[j].weight;
    memmove(&B->e[j], &B->e[j + 1], (size_t)(B->len - j - 1) * sizeof *B->e);
    if (--B->len == 0)
        remove_block(l, bi);
    return w;
}

/* Remove every node in [lo, hi) (the descendants of a node); the sum of their weights. */
static int64_t parked_purge(ParkedList *l, int64_t lo, int64_t hi) {
    size_t bi;
    int j;
    int64_t sum = 0;
    parked_locate(l, lo, &bi, &j);
    while (bi < l->len) {
        Block *B = l->b[bi];
        int k = j;
        while (k < B->len && B->e[k].n < hi)
            sum += B->e[k++].weight;
        int reached_end = k == B->len;
        memmove(&B->e[j], &B->e[k], (size_t)(B->len - k) * sizeof *B->e);
        B->len -= k - j;
        if (!reached_end)
            break;
        if (B->len == 0)
            remove_block(l, bi);
        else
            bi++;
        j = 0;
    }
    return sum;
}

static int set_node(Map *m, int64_t key, int64_t value) {
    int64_t *slot = map_put(m, key, NULL);
    if (!slot)
        return -1;
    *slot = value;
    return 0;
}


typedef struct {
    Heap heap;
    ParkedList parked;
    Map parent, solver;
    int top_valid; /* the heap's top is known to be a parked state (nothing changed since) */
} State;

/* the top of the heap that is still a parked state, or NULL (stale entries dropped) */
static const Entry *valid_top(State *S) {
    Heap *heap = &S->heap;
    if (S->top_valid && heap->len)
        return &heap->p[0];
    while (heap->len) {
        const Entry *top = &heap->p[0];
        const Parked *entry = parked_find(&S->parked, e_node(top));
        if (!entry || entry->h != -top->negh || entry->status != e_status(top)) {
            heap_pop(heap);
            continue;
        }
        S->top_valid = 1;
        return top;
    }
    return NULL;
}

static void state_free(State *S) {
    free(S->heap.p);
    parked_free(&S->parked);
    map_free(&S->parent);
    map_free(&S->solver);
}

/* the parent of an inner node, recorded when it was generated */
static inline int64_t parent_of(const Map *parents, int64_t n) { return *(int64_t *)map_get(parents, n); }

/* remember the parent of a generated node, when it is an inner node (leaves' go in states) */
static inline int generated_node(const TreeView *t, Map *parents, node_t c, node_t p) {
    if (IS_LEAF(t, c))
        return 0;
    return set_node(parents, c, p);
}

/* _sss_core(): h of the solved root (mirrored terms); the solver map stays in S. */
static int sss_core(const TreeView *t, NodeList *leaves, Ticker *tk, State *S, double h0,
                    double mirror, double *out_h, int64_t *out_generated, int64_t *out_open_max) {
    const double *vals = t->val;
    int64_t size = 1, open_max = 1, generated = 1;
    node_t n = 0, par = -1, weight = 1;
    if (generated_node(t, &S->parent, 0, -1) < 0)
        return -1;
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
                    if (generated_node(t, &S->parent, first, n) < 0)
                        return -1;
                    if (count > 1) {
                        node_t second = END(t, first);
                        S->top_valid = 0;
                        if (generated_node(t, &S->parent, second, n) < 0 ||
                            parked_set(&S->parked, second, h, LIVE, count - 1, n) < 0)
                            return -1;
                        Entry e = {-h, pack(second, LIVE, 0, 1), n};
                        if (heap_push(&S->heap, e) < 0)
                            return -1;
                    }
                    par = n;
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
                    if (set_node(&S->solver, n, c) < 0)
                        return -1;
                    size -= count - 1;
                    status = SOLVED;
                    continue;
                }
                /* every child solved below h: the best one stands for them all */
                par = n;
                n = best_c;
                status = SOLVED;
                h = best_v;
                is_max = 0;
                weight = count;
            } else { /* case 4: the first child; leaves are taken here, case 6 after each */
                node_t c = n + 1;
                if (END(t, c) != c + 1) {
                    if (generated_node(t, &S->parent, c, n) < 0)
                        return -1;
                    generated++;
                    par = n;
                    n = c;
                    is_max = 1;
                    continue;
                }
                double top_h = -INF;
                node_t top_n = -1;
                const Entry *top = valid_top(S);
                if (top) {
                    top_h = -top->negh;
                    top_n = e_node(top);
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
                if (END(t, c) != c + 1) { /* case 6: the next child is no leaf */
                    if (generated_node(t, &S->parent, c, n) < 0)
                        return -1;
                    generated++;
                    par = n;
                    n = c;
                    is_max = 1;
                    continue;
                }
                par = n;
                n = c;
                status = SOLVED;
                is_max = 1;
            }
            /* h went down (case 2, or case 3 over leaves): is a parked state now ahead? */
            const Entry *top = valid_top(S);
            if (top && (top->negh < -h || (top->negh == -h && e_node(top) < n))) {
                S->top_valid = 0;
                if (parked_set(&S->parked, n, h, status, weight, par) < 0)
                    return -1;
                Entry mine = {-h, pack(n, status, is_max, 0), par};
                if (heap_push(&S->heap, mine) < 0)
                    return -1;
                Entry got = heap_pop(&S->heap);
                h = -got.negh;
                n = e_node(&got);
                par = got.par;
                status = e_status(&got);
                is_max = e_is_max(&got);
                weight = parked_pop(&S->parked, n);
                if (e_run(&got)) {
                    if (weight > 1) { /* the rest of the run of siblings stays parked */
                        node_t nxt = END(t, n);
                        if (generated_node(t, &S->parent, nxt, par) < 0 ||
                            parked_set(&S->parked, nxt, h, LIVE, weight - 1, par) < 0)
                            return -1;
                        Entry rest = {-h, pack(nxt, LIVE, is_max, 1), par};
                        if (heap_push(&S->heap, rest) < 0)
                            return -1;
                    }
                    weight = 1;
                }
            }
        } else {
            node_t p = par;
            if (p < 0) { /* case 1: the root is solved */
                *out_h = h;
                *out_generated = generated;
                *out_open_max = open_max;
                return 0;
            }
            if (!is_max) { /* case 5: the parent is a MAX node: solved; purge below it */
                size -= weight - 1;
                S->top_valid = 0;
                size -= parked_purge(&S->parked, p + 1, END(t, p));
                if (set_node(&S->solver, p, n) < 0)
                    return -1;
                n = p;
                par = parent_of(&S->parent, p);
                is_max = 1;
                weight = 1;
            } else { /* case 6: the parent is a MIN node: the next sibling, or it is solved */
                node_t c = END(t, n);
                if (c < END(t, p)) {
                    if (generated_node(t, &S->parent, c, p) < 0)
                        return -1;
                    generated++;
                    n = c;
                    status = LIVE;
                } else {
                    n = p;
                    par = parent_of(&S->parent, p);
                    is_max = 0;
                }
            }
        }
    }
}

/* _solution_line(): the PV from the solved solution tree (mirrored terms). */
static int solution_line(const TreeView *t, const NodeList *leaves, const Map *solver, double h,
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
    while (!IS_LEAF(t, n)) {
        node_t c;
        if (is_max) {
            int64_t *sp = map_get(solver, n);
            if (!sp) {
                free(out);
                prover_free(prover);
                PyErr_SetString(PyExc_AssertionError, "bug: a MAX node of the line is unsolved");
                return -1;
            }
            c = *sp;
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
    if (map_init(&S.parent, sizeof(int64_t)) == 0 && map_init(&S.solver, sizeof(int64_t)) == 0 &&
        sss_core(&t, &leaves, &tk, &S, h0, mirror, &h, &generated, &open_max) == 0) {
        /* the search is done: its maps go before the PV is worked out */
        free(S.heap.p);
        S.heap.p = NULL;
        parked_free(&S.parked);
        map_free(&S.parent);
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
