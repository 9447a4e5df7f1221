/* SSS*, DUAL* and their bounded forms on a game's tree on demand over its C rules (game.h):
 * gtsearch.algorithms.sss._met_sss_core and _met_solution_line, step for step.
 *
 * The nodes are numbered as OnDemandTree numbers them (game_tree.h's ODTree: a node's children
 * take the next free numbers the first time they are listed, by case 3 or 4).  The states,
 * the shortcuts, the generated-node count and Stockman's OPEN size are _met_sss_core()'s.
 *
 * Where Python keys a parked node by its path from the root, this file keys it by its number
 * and compares two numbers as their paths compare (each parked node's path packed into 128
 * bits when it is at most 16 levels deep, else pre_cmp: both walked up to where their lines
 * part, by the parents and depths of the nodes numbered), so that OPEN hands out its states in
 * the order of the Python heap's tuples and the purge of case 5 cuts the same interval of the
 * sorted parked nodes.  A state is kept only on the path the search stands on
 * (one frame a level: the node, its state and moves); when OPEN hands out a node elsewhere, the
 * path is rebuilt from where the two lines part, the rules playing the moves down to it.
 *
 * The PV is _met_solution_line()'s: the solver of each MAX node, and at MIN nodes, for an
 * exact value, the first child whose evaluated leaves prove the value (the Prover of
 * gtsearch/algorithms/pv.py, each node's answer found once over the listed tree).
 */
#include "game_tree.h"

enum { LIVE = 0, SOLVED = 1 };

/* a frame of the path: node n (at the frame's depth), its index among its siblings, its
 * state, and what od_open found: a leaf and its value, or its moves */
typedef struct {
    GState st;
    node_t n;
    int idx, leaf, count;
    double v;
    int moves[GAME_MAX_MOVES];
} SFrame;

/* a node's path packed in 128 bits, a byte a level from the top (its index + 1, so that a
 * path comes before its extensions), when it is at most PK_LEVELS deep: two such keys compare
 * as the paths do, at once, where walking up to where the lines part takes the depth */
#define PK_LEVELS 16
typedef struct {
    uint64_t hi, lo;
    int64_t depth;
} PKey;

/* an entry of OPEN's heap: Python's tuple (-h, path, node, status, is_max, run), and the
 * weight Python's parked[path] keeps (how many states the entry stands for) */
typedef struct {
    double negh;
    node_t n;
    int64_t weight;
    PKey key;
    int status, is_max, run;
} HItem;

/* an item of in_heap: a parked node, its weight and path */
typedef struct {
    node_t n;
    int64_t weight;
    PKey key;
} SItem;

typedef struct {
    ODTree T;
    const int64_t *up0, *depth0; /* Python's parents and depths of the nodes numbered before */
    Ticker tk;
    NodeList leaves;
    SFrame *P; /* the path: P[d] the node at depth d on it, P[len - 1] the current node */
    size_t len, cap;
    HItem *heap; /* OPEN's heap */
    size_t hlen, hcap;
    SItem *in_heap; /* the parked nodes, in the order of their paths: a gap buffer (below) */
    size_t slen, scap, gs, ge;
    uint64_t *parked; /* a bit per node numbered: parked (Python's `key in parked`) */
    size_t pwords;
    node_t *chain; /* go_to()'s nodes to play down to */
    size_t clen, ccap;
    Map solver; /* a MAX node solved by case 5 (or 3) -> the child that solved it */
    int root_max;
} SSearch;

static inline node_t up_of(const SSearch *S, node_t n) {
    return (size_t)n < S->T.n0 ? S->up0[n] : S->T.up[(size_t)n - S->T.n0];
}

static inline int64_t depth_of(const SSearch *S, node_t n) {
    return (size_t)n < S->T.n0 ? S->depth0[n] : S->T.depth[(size_t)n - S->T.n0];
}

/* a and b as their paths compare: <0, 0, >0 (a node before its descendants, and they before
 * its next sibling; siblings by number, as they were numbered left to right) */
static int pre_cmp(const SSearch *S, node_t a, node_t b) {
    if (a == b)
        return 0;
    const int64_t a0 = depth_of(S, a), b0 = depth_of(S, b);
    int64_t da = a0, db = b0;
    node_t x = a, y = b;
    for (; da > db; da--)
        x = up_of(S, x);
    for (; db > da; db--)
        y = up_of(S, y);
    if (x == y) /* one is the other's ancestor: the shallower first */
        return (a0 > b0) - (a0 < b0);
    for (;;) {
        node_t px = up_of(S, x), py = up_of(S, y);
        if (px == py)
            return x < y ? -1 : 1;
        x = px;
        y = py;
    }
}

static PKey path_key(const SSearch *S, node_t n) {
    PKey k = {0, 0, depth_of(S, n)};
    if (k.depth > PK_LEVELS)
        return k;
    for (int64_t d = k.depth - 1; d >= 0; d--) { /* the byte of level d + 1 */
        const node_t p = up_of(S, n);
        const uint64_t digit = (uint64_t)(n - S->T.first[p] + 1);
        if (d < 8)
            k.hi |= digit << (56 - 8 * d);
        else
            k.lo |= digit << (56 - 8 * (d - 8));
        n = p;
    }
    return k;
}

/* nodes a and b (their keys ka, kb) as their paths compare */
static inline int key_cmp(const SSearch *S, node_t a, const PKey *ka, node_t b, const PKey *kb) {
    if (ka->depth > PK_LEVELS || kb->depth > PK_LEVELS)
        return pre_cmp(S, a, b);
    if (ka->hi != kb->hi)
        return ka->hi < kb->hi ? -1 : 1;
    return (ka->lo > kb->lo) - (ka->lo < kb->lo);
}

/* whether k is a descendant of p (p itself not) */
static int below(const SSearch *S, node_t k, node_t p) {
    int64_t dk = depth_of(S, k);
    const int64_t dp = depth_of(S, p);
    if (dk <= dp)
        return 0;
    for (; dk > dp; dk--)
        k = up_of(S, k);
    return k == p;
}

/* -- OPEN ----------------------------------------------------------------------------------- */
/* the Python tuples' order: (-h, path) decides, as a node has one state at the most and is
 * never parked again once it has left OPEN (search_sss.c's "OPEN's parked states") */
static int item_less(const SSearch *S, const HItem *a, const HItem *b) {
    if (a->negh != b->negh)
        return a->negh < b->negh;
    return key_cmp(S, a->n, &a->key, b->n, &b->key) < 0;
}

/* (room made by step_room()) */
static void heap_push(SSearch *S, HItem x) {
    size_t i = S->hlen++;
    while (i > 0) {
        const size_t up = (i - 1) / 2;
        if (!item_less(S, &x, &S->heap[up]))
            break;
        S->heap[i] = S->heap[up];
        i = up;
    }
    S->heap[i] = x;
}

static HItem heap_pop(SSearch *S) {
    const HItem top = S->heap[0];
    const HItem x = S->heap[--S->hlen];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= S->hlen)
            break;
        if (c + 1 < S->hlen && item_less(S, &S->heap[c + 1], &S->heap[c]))
            c++;
        if (!item_less(S, &S->heap[c], &x))
            break;
        S->heap[i] = S->heap[c];
        i = c;
    }
    S->heap[i] = x; /* (the popped slot itself when the heap is now empty: harmless) */
    return top;
}

/* -- in_heap, Python's sorted list of the parked paths, as a gap buffer: its items are
 * in_heap[0:gs] and in_heap[ge:scap], and the gap between them moves to where the next item
 * goes in or out.  SSS* parks and takes its states near where it did last, so the gap moves
 * little, where a list's insert moves the whole tail after the place (a quarter of the time
 * at connect4 --depth 10, 16,000 states in OPEN). */
static inline const SItem *sorted_at(const SSearch *S, size_t i) {
    return &S->in_heap[i < S->gs ? i : i + (S->ge - S->gs)];
}

/* the gap moved to before item i */
static void gap_to(SSearch *S, size_t i) {
    SItem *a = S->in_heap;
    if (i < S->gs) {
        const size_t k = S->gs - i;
        memmove(a + S->ge - k, a + i, k * sizeof *a);
        S->gs = i;
        S->ge -= k;
    } else if (i > S->gs) {
        const size_t k = i - S->gs;
        memmove(a + S->gs, a + S->ge, k * sizeof *a);
        S->gs = i;
        S->ge += k;
    }
}

/* items [i, j) taken out */
static void sorted_cut(SSearch *S, size_t i, size_t j) {
    gap_to(S, i);
    S->ge += j - i;
    S->slen -= j - i;
}

/* room for one item more: the array doubled (from 64 items) when the gap is closed, the items
 * after it moved to the new end */
static int sorted_room(SSearch *S) {
    if (S->gs < S->ge)
        return 0;
    const size_t cap = S->scap ? 2 * S->scap : 64, tail = S->scap - S->ge;
    SItem *a = gt_realloc(S->in_heap, cap * sizeof *a);
    if (!a) {
        PyErr_NoMemory();
        return -1;
    }
    memmove(a + cap - tail, a + S->ge, tail * sizeof *a);
    S->in_heap = a;
    S->ge = cap - tail;
    S->scap = cap;
    return 0;
}

/* the first index of in_heap[lo:] whose node is after k (its key kk; strict) or not before it */
static size_t bisect(const SSearch *S, node_t k, const PKey *kk, size_t lo, int strict) {
    size_t hi = S->slen;
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        const SItem *x = sorted_at(S, mid);
        const int c = key_cmp(S, x->n, &x->key, k, kk);
        if (strict ? c <= 0 : c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static inline int is_parked(const SSearch *S, node_t n) { return S->parked[n >> 6] >> (n & 63) & 1; }

static inline void set_parked(SSearch *S, node_t n, int on) {
    const uint64_t bit = (uint64_t)1 << (n & 63);
    S->parked[n >> 6] = on ? S->parked[n >> 6] | bit : S->parked[n >> 6] & ~bit;
}

/* Python's park(): parked[node] = (h, status, weight), its path into in_heap, its entry pushed
 * (room made by step_room()) */
static void park(SSearch *S, node_t n, double h, int status, int64_t weight, int is_max, int run) {
    set_parked(S, n, 1);
    const PKey key = path_key(S, n);
    const size_t at = bisect(S, n, &key, 0, 1);
    gap_to(S, at);
    S->in_heap[S->gs++] = (SItem){n, weight, key};
    S->slen++;
    heap_push(S, (HItem){-h, n, weight, key, status, is_max, run});
}

/* the top of the heap once the stale entries are dropped, or NULL when OPEN is empty.  Python
 * drops an entry whose node is no longer parked with its h and status; as a node is parked once
 * at a time (taken out before it is parked again) and a purged node is never parked again, the
 * stale entries are those of the purged nodes: those no longer parked */
static const HItem *heap_top(SSearch *S) {
    while (S->hlen) {
        const HItem *top = &S->heap[0];
        if (is_parked(S, top->n))
            return top;
        heap_pop(S);
    }
    return NULL;
}

/* -- the path ------------------------------------------------------------------------------- */
/* a frame for child i of the current node (listed), which becomes the current node: the room
 * is there (step_room() made room for one frame more than the deepest path yet, and every
 * node the search or its line goes to is at most one level below a path it stood on) */
static void push_child(SSearch *S, int i) {
    const SFrame *f = &S->P[S->len - 1];
    SFrame *g = &S->P[S->len];
    S->T.g.rules->play(&S->T.g, &f->st, f->moves[i], &g->st);
    g->n = S->T.first[f->n] + i;
    g->idx = i;
    g->leaf = !od_open(&S->T, &g->st, (int64_t)S->len, g->moves, &g->count, &g->v);
    S->len++;
}

/* whether child i of the current node is a leaf, and its value in *v when it is */
static int child_leaf(const SSearch *S, int i, double *v) {
    int scratch[GAME_MAX_MOVES];
    const SFrame *f = &S->P[S->len - 1];
    GState s;
    int count;
    S->T.g.rules->play(&S->T.g, &f->st, f->moves[i], &s);
    return !od_open(&S->T, &s, (int64_t)S->len, scratch, &count, v);
}

/* make node k the current node: the path cut where k's line leaves it, then played down */
static int go_to(SSearch *S, node_t k) {
    S->clen = 0;
    for (;;) {
        const int64_t d = depth_of(S, k);
        if ((size_t)d < S->len && S->P[d].n == k) {
            S->len = (size_t)d + 1;
            break;
        }
        if (ROOM(S->chain, S->clen, S->ccap) < 0)
            return -1;
        S->chain[S->clen++] = k;
        k = up_of(S, k);
    }
    while (S->clen) {
        const node_t c = S->chain[--S->clen];
        push_child(S, (int)(c - S->T.first[S->P[S->len - 1].n]));
    }
    return 0;
}

/* a bit for each node numbered and for the children a step may list (the new words 0) */
static int parked_room(SSearch *S) {
    const size_t need = (S->T.n + GAME_MAX_MOVES) / 64 + 1;
    if (need <= S->pwords)
        return 0;
    const size_t words = 2 * need;
    uint64_t *p = gt_realloc(S->parked, words * sizeof *p);
    if (!p) {
        PyErr_NoMemory();
        return -1;
    }
    memset(p + S->pwords, 0, (words - S->pwords) * sizeof *p);
    S->parked = p;
    S->pwords = words;
    return 0;
}

/* room for a map's `k` more keys without growing on map_put() */
static int map_room(Map *m, size_t k) {
    while (2 * (m->len + k) > m->cap)
        if (map_grow(m) < 0)
            return -1;
    return 0;
}

/* room for what one step of the search adds, made before it, so that the step itself cannot
 * fail: a frame, a leaf a child, a parked state in the heap and in_heap (a step parks two at
 * the most, taking one between them), the bits of the nodes it may list, and a solver */
static int step_room(SSearch *S) {
    while (S->leaves.cap < S->leaves.len + GAME_MAX_MOVES)
        if (nl_grow(&S->leaves) < 0)
            return -1;
    if (ROOM(S->P, S->len, S->cap) < 0 || ROOM(S->heap, S->hlen, S->hcap) < 0 ||
        sorted_room(S) < 0 || parked_room(S) < 0 ||
        map_room(&S->solver, 1) < 0)
        return -1;
    return 0;
}

/* -- the search ------------------------------------------------------------------------------ */
/* _met_sss_core from (root, LIVE, h0) on the tree mirrored by `mirror`: the solved root's h in
 * *out, the generated nodes and OPEN's peak */
static int sss_core(SSearch *S, double h0, double mirror, double *out, int64_t *generated_out,
                    int64_t *open_max_out) {
    ODTree *T = &S->T;
    int64_t size = 1, open_max = 1, generated = 1, weight = 1;
    int status = LIVE, is_max = mirror > 0 ? S->root_max : !S->root_max;
    double h = h0, v;
    for (;;) {
        if (tick(&S->tk, (int64_t)S->leaves.len) < 0 || step_room(S) < 0)
            return -1;
        const SFrame *f = &S->P[S->len - 1];
        node_t n = f->n;
        if (status == LIVE) {
            if (f->leaf) { /* case 2: the only leaf evaluation */
                nl_push(&S->leaves, n);
                status = SOLVED;
                v = mirror * f->v;
                if (v >= h)
                    continue;
                h = v;
            } else if (is_max) { /* case 3: every child, with h */
                const int count = f->count;
                const node_t first = od_list(T, n, (int64_t)S->len - 1, count);
                if (first < 0)
                    return -1;
                double vals[GAME_MAX_MOVES];
                int leaves_only = 1;
                for (int i = 0; i < count && leaves_only; i++)
                    leaves_only = child_leaf(S, i, &vals[i]);
                generated += count;
                size += count - 1;
                if (size > open_max)
                    open_max = size;
                if (!leaves_only) {
                    if (count > 1)
                        park(S, first + 1, h, LIVE, count - 1, 0, 1);
                    push_child(S, 0);
                    is_max = 0;
                    continue;
                }
                int best_c = -1, c = 0;
                double best_v = h;
                for (; c < count; c++) {
                    nl_push(&S->leaves, first + c);
                    v = mirror * vals[c];
                    if (v >= h)
                        break;
                    if (best_c < 0 || v > best_v) {
                        best_c = c;
                        best_v = v;
                    }
                }
                if (c < count) { /* (c, SOLVED, h) is next, and case 5 solves n */
                    int fresh;
                    *(int64_t *)map_put(&S->solver, n, &fresh) = first + c;
                    size -= count - 1;
                    status = SOLVED;
                    continue;
                }
                /* every child solved below h: the best one stands for them all */
                push_child(S, best_c);
                status = SOLVED;
                h = best_v;
                is_max = 0;
                weight = count;
            } else { /* case 4: the first child; leaves are taken here, case 6 after each */
                const int count = f->count;
                const node_t first = od_list(T, n, (int64_t)S->len - 1, count);
                if (first < 0)
                    return -1;
                int c = 0;
                if (!child_leaf(S, 0, &v)) {
                    generated++;
                    push_child(S, 0);
                    is_max = 1;
                    continue;
                }
                /* the best parked state, which a falling h may let ahead of us */
                double top_h = -INF;
                node_t top_n = -1;
                const HItem *top = heap_top(S);
                if (top) {
                    top_h = -top->negh;
                    top_n = top->n;
                }
                int leaf = 1;
                for (;;) {
                    generated++;
                    nl_push(&S->leaves, first + c);
                    v *= mirror;
                    if (v < h) {
                        h = v;
                        /* (Python's `top_key is None` needs h = -inf: no value is) */
                        if (top_h > h || (top_h == h && pre_cmp(S, top_n, first + c) < 0))
                            break; /* a parked state is ahead of (c, SOLVED, h) now */
                    }
                    c++;
                    if (c >= count)
                        break;
                    leaf = child_leaf(S, c, &v);
                    if (!leaf)
                        break;
                }
                if (c >= count) { /* case 6 after the last child: the MIN node is solved */
                    status = SOLVED;
                    continue;
                }
                push_child(S, c);
                is_max = 1;
                if (!leaf) { /* case 6: the next child is no leaf */
                    generated++;
                    continue;
                }
                status = SOLVED;
            }
            /* h went down (case 2, or case 3 over leaves): is a parked state now ahead? */
            const HItem *top = heap_top(S);
            n = S->P[S->len - 1].n;
            if (top && (top->negh < -h || (top->negh == -h && pre_cmp(S, top->n, n) < 0))) {
                park(S, n, h, status, weight, is_max, 0);
                const HItem got = heap_pop(S);
                h = -got.negh;
                status = got.status;
                is_max = got.is_max;
                weight = got.weight;
                set_parked(S, got.n, 0);
                const size_t at = bisect(S, got.n, &got.key, 0, 0);
                sorted_cut(S, at, at + 1);
                if (got.run) {
                    if (weight > 1)
                        park(S, got.n + 1, h, LIVE, weight - 1, is_max, 1);
                    weight = 1;
                }
                if (go_to(S, got.n) < 0)
                    return -1;
            }
        } else {
            if (S->len == 1) { /* case 1: the root is solved */
                *out = h;
                *generated_out = generated;
                *open_max_out = open_max;
                return 0;
            }
            const SFrame *pf = &S->P[S->len - 2];
            const node_t p = pf->n;
            if (!is_max) { /* case 5: the parent is a MAX node: solved; purge below it */
                size -= weight - 1;
                const PKey pk = path_key(S, p);
                const size_t i = bisect(S, p, &pk, 0, 1);
                size_t j = i;
                if (S->len == 2) { /* the root's: every parked node */
                    j = S->slen;
                } else { /* p's descendants come first after it */
                    size_t hi = S->slen;
                    while (j < hi) {
                        const size_t mid = j + (hi - j) / 2;
                        if (below(S, sorted_at(S, mid)->n, p))
                            j = mid + 1;
                        else
                            hi = mid;
                    }
                }
                for (size_t k = i; k < j; k++) {
                    const SItem *e = sorted_at(S, k);
                    size -= e->weight;
                    set_parked(S, e->n, 0);
                }
                sorted_cut(S, i, j);
                int fresh;
                *(int64_t *)map_put(&S->solver, p, &fresh) = n;
                S->len--;
                is_max = 1;
                weight = 1;
            } else if (f->idx + 1 < pf->count) { /* case 6: the next sibling */
                generated++;
                const int next = f->idx + 1;
                S->len--;
                push_child(S, next);
                status = LIVE;
            } else { /* case 6: the parent is solved */
                S->len--;
                is_max = 0;
            }
        }
    }
}

/* -- the PV ---------------------------------------------------------------------------------- */
/* Whether the evaluated leaves prove "value >= v" (lower) or "<= v" at child i of the current
 * node (the Prover's answer, pv.py's _met_proofs): found once a node, in known[] (0 not yet,
 * 1 no, 2 yes), over the listed tree below it, the rules playing its states down */
typedef struct {
    const unsigned char *evaluated; /* a bit per node: an evaluated leaf */
    unsigned char *known;
    double v;
    int lower;
} Proofs;

typedef struct {
    GState st;
    node_t n;
    int count, i, anyone;
    int moves[GAME_MAX_MOVES];
} PFrame;

static int proves(SSearch *S, Proofs *pr, int child, int *ok_out) {
    struct {
        PFrame *p;
        size_t len, cap;
    } F = {NULL, 0, 0};
    const SFrame *top = &S->P[S->len - 1];
    const int64_t d0 = (int64_t)S->len; /* the child's depth */
    GState s;
    S->T.g.rules->play(&S->T.g, &top->st, top->moves[child], &s);
    node_t n = S->T.first[top->n] + child;
    int ok = 0;
    for (;;) {
        if (tick(&S->tk, (int64_t)S->leaves.len) < 0) {
            gt_free(F.p);
            return -1;
        }
        /* enter node n (state s): its answer, or a frame to find it from its children */
        int count;
        double x;
        int moves[GAME_MAX_MOVES];
        const int64_t d = d0 + (int64_t)F.len;
        if (pr->known[n]) {
            ok = pr->known[n] - 1;
        } else if (!od_open(&S->T, &s, d, moves, &count, &x)) {
            ok = (pr->evaluated[n >> 3] >> (n & 7) & 1) && (pr->lower ? x >= pr->v : x <= pr->v);
            pr->known[n] = (unsigned char)(ok + 1);
        } else if (S->T.first[n] < 0) { /* never listed: no evaluated leaf below */
            ok = 0;
            pr->known[n] = 1;
        } else {
            if (ROOM(F.p, F.len, F.cap) < 0) {
                gt_free(F.p);
                return -1;
            }
            PFrame *g = &F.p[F.len++];
            g->st = s;
            g->n = n;
            g->count = count;
            g->i = 0;
            memcpy(g->moves, moves, (size_t)count * sizeof *moves);
            g->anyone = (S->root_max == (d % 2 == 0)) == pr->lower;
            S->T.g.rules->play(&S->T.g, &g->st, g->moves[0], &s);
            n = S->T.first[g->n];
            continue;
        }
        /* hand the answer up: the parent is decided, or goes on with its next child */
        for (;;) {
            if (!F.len) {
                gt_free(F.p);
                *ok_out = ok;
                return 0;
            }
            PFrame *g = &F.p[F.len - 1];
            if (ok == g->anyone || ++g->i == g->count) { /* decided: ok is its answer */
                pr->known[g->n] = (unsigned char)(ok + 1);
                F.len--;
                continue;
            }
            S->T.g.rules->play(&S->T.g, &g->st, g->moves[g->i], &s);
            n = S->T.first[g->n] + g->i;
            break;
        }
    }
}

/* _met_solution_line: the line from the root (the path rebuilt down it) */
static int solution_line(SSearch *S, double h, int exact, double mirror, int64_t **line,
                         size_t *line_len) {
    size_t cap = 0;
    int rc = -1;
    Proofs pr = {NULL, NULL, mirror * h, mirror < 0};
    *line = NULL;
    *line_len = 0;
    if (exact) {
        const size_t n = S->T.n;
        pr.evaluated = gt_calloc(n / 8 + 1, 1);
        pr.known = gt_calloc(n, 1);
        if (!pr.evaluated || !pr.known) {
            PyErr_NoMemory();
            goto out;
        }
        unsigned char *ev = (unsigned char *)pr.evaluated;
        for (size_t i = 0; i < S->leaves.len; i++) {
            const node_t k = nl_get(&S->leaves, i);
            ev[k >> 3] |= (unsigned char)(1u << (k & 7));
        }
    }
    S->len = 1;
    int is_max = mirror > 0 ? S->root_max : !S->root_max;
    for (;;) {
        if (ROOM(*line, *line_len, cap) < 0)
            goto out;
        const SFrame *f = &S->P[S->len - 1];
        (*line)[(*line_len)++] = f->n;
        if (f->leaf)
            break;
        int c;
        if (is_max) {
            const int64_t *s = map_get(&S->solver, f->n);
            if (!s) { /* Python's solver[n] */
                PyErr_Format(PyExc_KeyError, "%lld", (long long)f->n);
                goto out;
            }
            c = (int)(*s - S->T.first[f->n]);
        } else {
            /* the first child that proves the value (the last one does when the others do
             * not: it is not asked) */
            c = 0;
            for (int ok = 0; exact && c + 1 < f->count; c++) {
                if (proves(S, &pr, c, &ok) < 0)
                    goto out;
                if (ok)
                    break;
            }
        }
        push_child(S, c);
        is_max = !is_max;
    }
    rc = 0;
out:
    gt_free((void *)pr.evaluated);
    gt_free(pr.known);
    if (rc < 0) {
        gt_free(*line);
        *line = NULL;
    }
    return rc;
}

/* -- the module function ---------------------------------------------------------------------- */
int od_root_state(PyObject *words, GState *root) {
    memset(root, 0, sizeof *root);
    PyObject *seq = PySequence_Fast(words, "words must be a sequence");
    if (!seq)
        return -1;
    const Py_ssize_t k = PySequence_Fast_GET_SIZE(seq);
    for (Py_ssize_t i = 0; i < k && i < GSTATE_WORDS; i++) {
        root->w[i] = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(seq, i));
        if (root->w[i] == (uint64_t)-1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
    }
    Py_DECREF(seq);
    return 0;
}

/* game_sss(name, params, words, root_max, limit, max_nodes, first, up, depth, h0, mirror,
 * progress) -> (h, line, leaves, generated, open_max, first, up, depth), or None when the
 * core has no rules `name` that hold `params` */
PyObject *gt_game_sss(PyObject *self, PyObject *args) {
    (void)self;
    const char *name;
    PyObject *params, *words, *first_obj, *up_obj, *depth_obj, *progress;
    long long limit, max_nodes;
    double h0, mirror;
    int root_max;
    if (!PyArg_ParseTuple(args, "sOOpLLOOOddO", &name, &params, &words, &root_max, &limit,
                          &max_nodes, &first_obj, &up_obj, &depth_obj, &h0, &mirror, &progress))
        return NULL;
    SSearch S;
    memset(&S, 0, sizeof S);
    S.root_max = root_max;
    const int found = od_game(&S.T.g, name, params);
    if (found <= 0) {
        if (found < 0)
            return NULL;
        Py_RETURN_NONE;
    }
    if (limit >= 0 && !S.T.g.rules->estimate)
        Py_RETURN_NONE; /* Python's game has no estimate either, and refuses --depth */
    SFrame root;
    if (od_root_state(words, &root.st) < 0)
        return NULL;
    Py_buffer fv, uv, dv;
    if (borrow_array(first_obj, &fv, "q", 0, "game_sss: first must be an array of typecode %s") <
        0)
        return NULL;
    if (borrow_array(up_obj, &uv, "q", 0, "game_sss: up must be an array of typecode %s") < 0) {
        PyBuffer_Release(&fv);
        return NULL;
    }
    if (borrow_array(depth_obj, &dv, "q", 0, "game_sss: depth must be an array of typecode %s") <
        0) {
        PyBuffer_Release(&uv);
        PyBuffer_Release(&fv);
        return NULL;
    }
    PyObject *result = NULL;
    int64_t *line = NULL;
    size_t line_len = 0;
    S.T.limit = limit;
    S.T.max_nodes = max_nodes;
    S.T.n = S.T.n0 = (size_t)(fv.len / 8);
    S.up0 = uv.buf;
    S.depth0 = dv.buf;
    nl_init(&S.leaves, max_nodes > INT32_MAX);
    if (tick_open(&S.tk, progress) < 0)
        goto release;
    if (S.T.n0 == 0 || uv.len != fv.len || dv.len != fv.len) {
        PyErr_SetString(PyExc_ValueError, "game_sss: first, up and depth must hold the same nodes");
        goto out;
    }
    S.T.cap = S.T.n;
    S.T.first = gt_malloc(S.T.n * sizeof *S.T.first);
    if (!S.T.first) {
        PyErr_NoMemory();
        goto out;
    }
    memcpy(S.T.first, fv.buf, S.T.n * sizeof *S.T.first);
    if (map_init(&S.solver, sizeof(int64_t)) < 0 ||
        step_room(&S) < 0)
        goto out;
    root.n = 0;
    root.idx = 0;
    root.leaf = !od_open(&S.T, &root.st, 0, root.moves, &root.count, &root.v);
    S.P[S.len++] = root;
    double h;
    int64_t generated, open_max;
    if (sss_core(&S, h0, mirror, &h, &generated, &open_max) < 0 ||
        solution_line(&S, h, h < h0, mirror, &line, &line_len) < 0)
        goto out;
    const size_t fresh = S.T.n - S.T.n0;
    /* each object made after the one before it succeeded (none is made with an error set) */
    PyObject *parts[5] = {NULL, NULL, NULL, NULL, NULL};
    if ((parts[0] = line_to_list(line, line_len)) && (parts[1] = nl_to_array(&S.leaves)) &&
        (parts[2] = make_array("q", S.T.first, S.T.n * sizeof *S.T.first)) &&
        (parts[3] = make_array("q", S.T.up, fresh * sizeof *S.T.up)) &&
        (parts[4] = make_array("q", S.T.depth, fresh * sizeof *S.T.depth)))
        result = Py_BuildValue("(dOOLLOOO)", h, parts[0], parts[1], (long long)generated,
                               (long long)open_max, parts[2], parts[3], parts[4]);
    for (int i = 0; i < 5; i++)
        Py_XDECREF(parts[i]);
out:
    tick_close(&S.tk);
release:
    gt_free(line);
    gt_free(S.T.first);
    gt_free(S.T.up);
    gt_free(S.T.depth);
    gt_free(S.P);
    gt_free(S.heap);
    gt_free(S.in_heap);
    gt_free(S.chain);
    gt_free(S.parked);
    map_free(&S.solver);
    nl_free(&S.leaves);
    PyBuffer_Release(&dv);
    PyBuffer_Release(&uv);
    PyBuffer_Release(&fv);
    return result;
}
