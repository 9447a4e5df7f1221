/* Expectiminimax, Star1 and Star2 on demand over a game's C rules (game.h): the searches of
 * gtsearch.algorithms.chance.ListedRun on an OnDemandTree, step for step, in exact rationals.
 *
 * The nodes are numbered as OnDemandTree numbers them (game_tree.c's od_list): a node's
 * children when the search first asks whether the node is a leaf, the outcomes of a chance
 * node that Star1 or Star2 enters all at once (ListedRun.plan), and after the search the nodes
 * of the PV (ListedRun.line).  The same leaves are read in the same order, the same inner
 * nodes entered (a probe's entry into an outcome counted), the same probes made, and each
 * decision node's best move kept as the last search of it found it.
 *
 * Every value is an exact rational n/d (d > 0, in lowest terms) in 128-bit integers (64-bit
 * where the compiler has none), as Python's Fractions: a leaf's double counts as the decimal
 * it prints as (gtsearch.numbers.exact: PyOS_double_to_string's repr, the shortest decimal
 * that reads back as the double), a chance node's probabilities are its weights over their
 * sum, and the windows' infinities only meet comparisons.  A numerator or denominator past
 * 2**bits (bits <= 126, given by the caller) is an overflow: the search stops, nothing it
 * numbered is kept, and game_chance returns None, so that the Python search runs instead
 * (docs/core.md, "Chance nodes in C").
 *
 * With a table (buckets > 0), Star1 and Star2 are chance_tabled.ListedTableRun's, step for
 * step: every inner node searched through the table (an entry whose bounds decide the node for
 * its window answers it, and what the search proved is stored: exact, a lower bound on a fail
 * high, an upper bound on a fail low, in MAX's terms) and every leaf read through it (stored as
 * [v, v]).  A node's key is its position (docs/algorithms.md, "The key"), numbered the first
 * time OnDemandTree.expand would meet its entry (game_tree.h's Positions, handed back for
 * OnDemandTree.numbered_positions).  The table is Table's: the same buckets, the same two-tier
 * placement (core.h's tt_place) and so the same counts, but its entries hold exact bounds (a
 * rational or an infinity) and only the buckets the search meets are held (a hash from a
 * bucket's number to its two entries), so that the nominal size of a game's default table
 * (twice --max-nodes keys: 6,104 MiB by default) costs only what the search stores.
 */
#include "game_tree.h"

#ifdef __SIZEOF_INT128__
typedef __int128 qint;
#define QBITS 126
#else
typedef long long qint;
#define QBITS 62
#endif

typedef struct {
    qint n, d;
} Q;

/* a window's edge: -1 -inf, +1 +inf, 0 the value q */
typedef struct {
    int inf;
    Q q;
} E;

enum { K_FULL, K_DECISION, K_CHANCE };
enum { W_EMM, W_STAR1, W_STAR2 };
/* where a chance frame of Star1 or Star2 goes on */
enum { PC_START, PC_PROBE, PC_PROBE_BACK, PC_SEARCH, PC_SEARCH_BACK };

typedef struct {
    GState st;
    node_t n, best;
    int64_t depth;
    int turns, is_max, is_chance, type, pc, count, i;
    int moves[GAME_MAX_MOVES];
    E alpha, beta, m;
    /* a chance node's: its outcomes of probability > 0 (all of them for expectiminimax),
     * their index among its moves, probability, whether each is a leaf (and its value), a
     * chance node; Star2's bounds on each and whether it is known */
    int k, j, probed, side;
    int at[GAME_MAX_MOVES];
    unsigned char leaf[GAME_MAX_MOVES], chance[GAME_MAX_MOVES], known[GAME_MAX_MOVES];
    double lv[GAME_MAX_MOVES];
    Q p[GAME_MAX_MOVES], lo[GAME_MAX_MOVES], hi[GAME_MAX_MOVES];
    Q total, low, high, rest_lo, rest_hi, after;
    E a, b;
    /* with a table: the node's position key, and each planned outcome's */
    int64_t key;
    int64_t keys[GAME_MAX_MOVES];
} ChanceFrame;

/* an entry of the exact table: the key + 1 (0: empty), the bounds in MAX's terms */
typedef struct {
    int64_t key1;
    E lo, hi;
} CEntry;

/* a bucket of it: Table's two entries, the first the deeper (always the later: every draft is
 * full) */
typedef struct {
    CEntry e[2];
} CBucket;

#define CACHE_SIZE 64
typedef struct {
    ODRun R;
    int which, root_max, overflow;
    qint most; /* 2**bits: a numerator or denominator this big overflows */
    Q L, U;
    int64_t entered, probes;
    struct {
        ChanceFrame *p;
        size_t len, cap;
    } F;
    int64_t *best; /* each decision node's best child, -1: none */
    size_t best_cap;
    int64_t *turns; /* of each node this search numbered (from n0 on): the decision nodes
                     * above it (OnDemandTree.turn_counts, Tree.is_max's) */
    size_t turns_cap;
    int moves[GAME_MAX_MOVES]; /* an outcome's, as the plan opens it */
    struct {
        uint64_t bits;
        int used;
        Q q;
    } cache[CACHE_SIZE];
    /* with a table (tabled): its size and counters (table.c's Table, no slots), the buckets
     * met (`at`: a bucket's number to its index in B), the positions numbered, and `tags`: 0
     * where a key is twice the position's number plus 1 where MAX moves, else (GameTree.general)
     * the number itself and the tag of the chance nodes below an even number of decision nodes
     * (4 where MAX is expected there in the game, 5 where MIN is: --root does not change it) */
    int tabled, tags;
    Table tt;
    Map at;
    struct {
        CBucket *p;
        size_t len, cap;
    } B;
    Positions P;
} CRun;

/* -- exact rationals ------------------------------------------------------------------------ */
static qint q_abs(qint x) { return x < 0 ? -x : x; }

/* gcd(a, b) of a, b >= 0: Euclid's, in 64-bit words once both fit one (a 128-bit remainder is
 * a call of the compiler's runtime, some ten times a 64-bit one) */
static qint q_gcd(qint a, qint b) {
#ifdef __SIZEOF_INT128__
    while (b && (a > INT64_MAX || b > INT64_MAX)) {
        const qint t = a % b;
        a = b;
        b = t;
    }
#endif
    uint64_t x = (uint64_t)a, y = (uint64_t)b;
    while (y) {
        const uint64_t t = x % y;
        x = y;
        y = t;
    }
    return (qint)x;
}

static const Q Q_ZERO = {0, 1};

/* n/d (d > 0) in lowest terms; an overflow (0) past C->most */
static Q q_make(CRun *C, qint n, qint d) {
    const qint g = q_gcd(q_abs(n), d);
    if (g > 1) {
        n /= g;
        d /= g;
    }
    if (q_abs(n) >= C->most || d >= C->most) {
        C->overflow = 1;
        return Q_ZERO;
    }
    return (Q){n, d};
}

static Q q_add(CRun *C, Q a, Q b) {
    qint n, d;
    if (a.d == b.d) {
        if (__builtin_add_overflow(a.n, b.n, &n))
            goto over;
        return q_make(C, n, a.d);
    }
    const qint g = q_gcd(a.d, b.d), x = b.d / g, y = a.d / g;
    qint s, t;
    if (__builtin_mul_overflow(a.n, x, &s) || __builtin_mul_overflow(b.n, y, &t) ||
        __builtin_add_overflow(s, t, &n) || __builtin_mul_overflow(a.d, x, &d))
        goto over;
    return q_make(C, n, d);
over:
    C->overflow = 1;
    return Q_ZERO;
}

static Q q_neg(Q a) { return (Q){-a.n, a.d}; }
static Q q_sub(CRun *C, Q a, Q b) { return q_add(C, a, q_neg(b)); }

static Q q_mul(CRun *C, Q a, Q b) {
    const qint g1 = q_gcd(q_abs(a.n), b.d), g2 = q_gcd(q_abs(b.n), a.d);
    qint n, d;
    if (__builtin_mul_overflow(a.n / g1, b.n / g2, &n) ||
        __builtin_mul_overflow(a.d / g2, b.d / g1, &d)) {
        C->overflow = 1;
        return Q_ZERO;
    }
    return q_make(C, n, d);
}

/* a / b, b > 0 (a probability) */
static Q q_div(CRun *C, Q a, Q b) { return q_mul(C, a, (Q){b.d, b.n}); }

/* n1/d1 against n2/d2, all >= 0 (d1, d2 > 0), by their continued fractions: the integer
 * parts, then the reciprocals of what is left (the other way round); no product, no overflow */
static int q_cmp_positive(qint n1, qint d1, qint n2, qint d2) {
    for (;;) {
        const qint q1 = n1 / d1, q2 = n2 / d2;
        if (q1 != q2)
            return q1 > q2 ? 1 : -1;
        const qint r1 = n1 % d1, r2 = n2 % d2;
        if (!r1 || !r2)
            return (r1 > 0) - (r2 > 0);
        /* r1/d1 against r2/d2 is d2/r2 against d1/r1 */
        n1 = d2;
        n2 = d1;
        d1 = r2;
        d2 = r1;
    }
}

static int q_cmp(Q a, Q b) {
    qint x = a.n, y = b.n;
    if (a.d == b.d ||
        (!__builtin_mul_overflow(a.n, b.d, &x) && !__builtin_mul_overflow(b.n, a.d, &y)))
        return (x > y) - (x < y);
    if ((a.n < 0) != (b.n < 0)) /* the products overflow: neither is 0 */
        return a.n < 0 ? -1 : 1;
    return a.n < 0 ? q_cmp_positive(-b.n, b.d, -a.n, a.d) : q_cmp_positive(a.n, a.d, b.n, b.d);
}

static E e_of(Q q) { return (E){0, q}; }
static const E E_LOW = {-1, {0, 1}}, E_HIGH = {1, {0, 1}};

static int e_cmp(E a, E b) {
    if (a.inf || b.inf)
        return (a.inf > b.inf) - (a.inf < b.inf);
    return q_cmp(a.q, b.q);
}

/* a leaf's double as the decimal it prints as (gtsearch.numbers.exact): 0, or -1 with an
 * exception; an overflow where it has no such value (inf, nan) or that is too big */
static int q_of_double(CRun *C, double v, Q *out) {
    if (v == floor(v) && fabs(v) < 1e15) { /* an integer: repr prints every digit */
        *out = (Q){(qint)v, 1};
        return 0;
    }
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    const size_t slot = (size_t)(sm64(bits) % CACHE_SIZE);
    if (C->cache[slot].used && C->cache[slot].bits == bits) {
        *out = C->cache[slot].q;
        return 0;
    }
    if (!isfinite(v)) {
        C->overflow = 1;
        return 0;
    }
    char *text = PyOS_double_to_string(v, 'r', 0, 0, NULL);
    if (!text)
        return -1;
    const char *s = text;
    int negative = 0, point = 0, exp10 = 0;
    qint n = 0;
    if (*s == '-') {
        negative = 1;
        s++;
    }
    for (; *s && *s != 'e'; s++) {
        if (*s == '.')
            point = 1;
        else {
            n = n * 10 + (*s - '0'); /* repr has at most 17 significant digits */
            exp10 -= point;
        }
    }
    if (*s == 'e')
        exp10 += atoi(s + 1);
    PyMem_Free(text);
    qint d = 1;
    for (; exp10 > 0 && !C->overflow; exp10--)
        if (__builtin_mul_overflow(n, 10, &n) || n >= C->most)
            C->overflow = 1;
    for (; exp10 < 0 && !C->overflow; exp10++)
        if (__builtin_mul_overflow(d, 10, &d) || d >= C->most)
            C->overflow = 1;
    if (C->overflow)
        return 0;
    *out = q_make(C, negative ? -n : n, d);
    C->cache[slot].used = 1;
    C->cache[slot].bits = bits;
    C->cache[slot].q = *out;
    return 0;
}

/* -- the exact table (chance_tabled.TableRun's Table) ------------------------------------------- */
/* key's entry, or NULL: one probe, and a hit when found (Table.probe); the entry is read
 * before the next store */
static const CEntry *ct_probe(CRun *C, int64_t key) {
    C->tt.probes++;
    const int64_t *i = map_get(&C->at, (int64_t)tt_bucket(&C->tt, key));
    if (!i)
        return NULL;
    const CBucket *b = &C->B.p[*i];
    const CEntry *e = b->e[0].key1 == key + 1 ? &b->e[0] : b->e[1].key1 == key + 1 ? &b->e[1] : NULL;
    C->tt.hits += e != NULL;
    return e;
}

/* Table.store(key, lo, hi, FULL, -1): merged into key's entry (both bounds hold), else placed
 * by the two-tier rule; 0, or -1 with MemoryError */
static int ct_store(CRun *C, int64_t key, E lo, E hi) {
    C->tt.stores++;
    const int64_t bucket = (int64_t)tt_bucket(&C->tt, key);
    int64_t *i = map_get(&C->at, bucket);
    if (!i) { /* the bucket's first store: its two entries, empty */
        if (ROOM(C->B.p, C->B.len, C->B.cap) < 0 || !(i = map_put(&C->at, bucket, NULL)))
            return -1;
        *i = (int64_t)C->B.len;
        memset(&C->B.p[C->B.len++], 0, sizeof *C->B.p);
    }
    CBucket *b = &C->B.p[*i];
    for (int k = 0; k < 2; k++) {
        CEntry *e = &b->e[k];
        if (e->key1 == key + 1) { /* Python's max() and min(): the new bound unless passed */
            if (e_cmp(e->lo, lo) > 0)
                lo = e->lo;
            if (e_cmp(e->hi, hi) < 0)
                hi = e->hi;
            e->lo = lo;
            e->hi = hi;
            return 0;
        }
    }
    if (tt_place(&C->tt, b->e[0].key1 != 0, b->e[1].key1 != 0, 1) == TT_SHIFT)
        b->e[1] = b->e[0];
    b->e[0] = (CEntry){key + 1, lo, hi};
    return 0;
}

/* The position key of the node of state s at depth d with `turns` decision nodes above it, its
 * entry met here (PositionKeys.entry_position, numbered in the order OnDemandTree.expand meets
 * the entries); 0 without a table, -1 with MemoryError.  A chance node's entry is tagged with
 * who is expected below it (gtsearch.sources.games.CHANCE_TAGS): the game's player of its own
 * level, which alternates with the decision nodes above it */
static int64_t position(CRun *C, const GState *s, int64_t d, int turns) {
    if (!C->tabled)
        return 0;
    const ODTree *T = &C->R.T;
    const int chance = T->g.rules->kind(&T->g, s) == GAME_CHANCE;
    const int64_t tag = chance ? (turns % 2 ? 9 - C->tags : C->tags) : 0;
    return pos_key(&C->P, T, s, d, tag, C->tags != 0, C->root_max);
}

/* -- the tree --------------------------------------------------------------------------------- */
/* read leaf c valued v (position `key`), through the table when there is one: its value in *q;
 * 0, or -1 with an exception */
static int read_leaf(CRun *C, node_t c, int64_t key, double v, Q *q) {
    if (C->tabled) {
        const CEntry *e = ct_probe(C, key);
        if (e) { /* a leaf's entry is [v, v] */
            C->tt.cuts++;
            *q = e->lo.q;
            return 0;
        }
    }
    if (nl_push(&C->R.leaves, c) < 0 || q_of_double(C, v, q) < 0)
        return -1;
    return C->tabled && !C->overflow ? ct_store(C, key, e_of(*q), e_of(*q)) : 0;
}

static int set_best(CRun *C, node_t n, node_t c) {
    if ((size_t)n >= C->best_cap) {
        const size_t old = C->best_cap;
        while ((size_t)n >= C->best_cap)
            if (grow_array(&C->best, &C->best_cap, sizeof *C->best) < 0)
                return -1;
        for (size_t i = old; i < C->best_cap; i++)
            C->best[i] = -1;
    }
    C->best[n] = c;
    return 0;
}

/* List node c's `count` children (c at depth d, with `turns` decision nodes above it, a chance
 * node or not): od_list, and the children's turns the first time; c's first child, or -1 */
static node_t list_kids(CRun *C, node_t c, int64_t d, int count, int turns, int chance) {
    ODTree *T = &C->R.T;
    const int fresh = T->first[c] < 0;
    const node_t first = od_list(T, c, d, count);
    if (first < 0 || !fresh)
        return first;
    while (T->n - T->n0 > C->turns_cap)
        if (grow_array(&C->turns, &C->turns_cap, sizeof *C->turns) < 0)
            return -1;
    for (size_t k = (size_t)first; k < T->n; k++)
        C->turns[k - T->n0] = turns + !chance;
    return first;
}

/* chance state s's probabilities, one per move, to p: its weights over their sum */
static void probabilities(CRun *C, const GState *s, int count, Q *p) {
    const Game *g = &C->R.T.g;
    int64_t w[GAME_MAX_MOVES];
    if (g->rules->weights)
        g->rules->weights(g, s, w);
    else
        for (int i = 0; i < count; i++)
            w[i] = 1;
    qint total = 0;
    for (int i = 0; i < count; i++)
        total += w[i];
    if (total <= 0) { /* no such game: the Python rules say what is wrong */
        C->overflow = 1;
        total = 1;
    }
    for (int i = 0; i < count; i++)
        p[i] = q_make(C, w[i], total);
}

/* Node c, its state in g->st (the frame above the top) at depth d with `turns` decision nodes
 * above it, opened: 1 with its frame pushed (node, moves, depth, turns, type: `full` K_FULL,
 * else the search's kind of it; the caller sets its window), 0 with a leaf's value in *q (read
 * through the table), -1 with an exception */
static int enter(CRun *C, ChanceFrame *g, node_t c, int64_t d, int turns, int full, Q *q) {
    ODTree *T = &C->R.T;
    double v;
    g->turns = turns;
    const int64_t key = position(C, &g->st, d, turns);
    if (key < 0)
        return -1;
    if (!od_open(T, &g->st, d, g->moves, &g->count, &v))
        return read_leaf(C, c, key, v, q) < 0 ? -1 : 0;
    g->key = key;
    g->is_chance = T->g.rules->kind(&T->g, &g->st) == GAME_CHANCE;
    if (list_kids(C, c, d, g->count, turns, g->is_chance) < 0)
        return -1;
    g->n = c;
    g->depth = d;
    g->is_max = C->root_max == (turns % 2 == 0);
    g->type = full ? K_FULL : g->is_chance ? K_CHANCE : K_DECISION;
    g->pc = PC_START;
    g->i = 0;
    g->best = -1;
    C->F.len++;
    return 1;
}

/* The top frame's child i opened (enter) */
static int open_child(CRun *C, int i, int full, Q *q) {
    if (ROOM(C->F.p, C->F.len, C->F.cap) < 0)
        return -1;
    const ChanceFrame *f = &C->F.p[C->F.len - 1];
    ChanceFrame *g = &C->F.p[C->F.len];
    C->R.T.g.rules->play(&C->R.T.g, &f->st, f->moves[i], &g->st);
    return enter(C, g, C->R.T.first[f->n] + i, f->depth + 1, f->turns + !f->is_chance, full, q);
}

/* the top frame searched with the window (alpha, beta) */
static void window(CRun *C, E alpha, E beta) {
    ChanceFrame *g = &C->F.p[C->F.len - 1];
    g->alpha = alpha;
    g->beta = beta;
}

/* Star1's and Star2's plan of chance frame f (ListedRun.plan): its outcomes of probability >
 * 0, each listed (its children numbered) in order; 0, or -1 with an exception */
static int plan(CRun *C, ChanceFrame *f) {
    ODTree *T = &C->R.T;
    Q p[GAME_MAX_MOVES];
    probabilities(C, &f->st, f->count, p);
    f->k = 0;
    for (int i = 0; i < f->count; i++) {
        if (!p[i].n)
            continue;
        const int j = f->k++;
        GState s;
        int count;
        double v = 0.0;
        const node_t c = T->first[f->n] + i;
        T->g.rules->play(&T->g, &f->st, f->moves[i], &s);
        f->at[j] = i;
        f->p[j] = p[i];
        if ((f->keys[j] = position(C, &s, f->depth + 1, f->turns)) < 0)
            return -1;
        f->leaf[j] = !od_open(T, &s, f->depth + 1, C->moves, &count, &v);
        f->lv[j] = v;
        f->chance[j] = 0;
        if (!f->leaf[j]) {
            f->chance[j] = T->g.rules->kind(&T->g, &s) == GAME_CHANCE;
            if (list_kids(C, c, f->depth + 1, count, f->turns, f->chance[j]) < 0)
                return -1;
        }
    }
    return 0;
}

/* Star2's probe of outcome j of the top frame (a decision node): its first child only, with
 * (alpha, beta); 1 with the child's frame pushed, 0 with a leaf's value in *q, -1 */
static int probe(CRun *C, int j, E alpha, E beta, Q *q) {
    ODTree *T = &C->R.T;
    C->entered++;
    C->probes++;
    if (ROOM(C->F.p, C->F.len, C->F.cap) < 0)
        return -1;
    const ChanceFrame *f = &C->F.p[C->F.len - 1];
    ChanceFrame *g = &C->F.p[C->F.len];
    const node_t c = T->first[f->n] + f->at[j];
    GState s;
    int count;
    double v;
    T->g.rules->play(&T->g, &f->st, f->moves[f->at[j]], &s);
    od_open(T, &s, f->depth + 1, C->moves, &count, &v); /* an inner node: the plan listed it */
    const node_t first = T->first[c];
    T->g.rules->play(&T->g, &s, C->moves[0], &g->st);
    /* c's decision nodes above it, and c's own */
    const int rc = enter(C, g, first, f->depth + 2, f->turns + 1, 0, q);
    if (rc > 0)
        window(C, alpha, beta);
    return rc;
}

/* the edge min(b, U) and max(a, L) of the windows given to outcomes */
static E at_most_u(CRun *C, E b) { return e_cmp(b, e_of(C->U)) > 0 ? e_of(C->U) : b; }
static E at_least_l(CRun *C, E a) { return e_cmp(a, e_of(C->L)) < 0 ? e_of(C->L) : a; }

/* -- the searches: one loop over the frames ------------------------------------------------- */
/* The root's value in *value: 0, 1 on an overflow, -1 with an exception.  Each frame runs
 * until it pushes a child's (and goes on when the child's value comes back: `back`) or is
 * done (its value to its parent). */
static int chance_search(CRun *C, Q *value) {
    ODTree *T = &C->R.T;
    ChanceFrame *f = &C->F.p[0];
    int back = 0; /* a child's value has come back: `ret` */
    Q ret = Q_ZERO, v = Q_ZERO;
    for (;;) {
        if (C->overflow)
            return 1;
        if (tick(&C->R.tk, (int64_t)C->R.leaves.len) < 0)
            return -1;
        f = &C->F.p[C->F.len - 1];
        int rc;
        if (f->type == K_FULL) {
            if (f->pc == PC_START) {
                C->entered++;
                f->pc = PC_SEARCH;
                f->total = Q_ZERO;
                f->m = f->is_max ? E_LOW : E_HIGH;
                if (f->is_chance)
                    probabilities(C, &f->st, f->count, f->p);
            }
            for (;;) {
                if (back) {
                    back = 0;
                    v = ret;
                } else if (f->i < f->count) {
                    rc = open_child(C, f->i++, 1, &v);
                    if (rc < 0)
                        return -1;
                    if (rc)
                        break;
                    f = &C->F.p[C->F.len - 1]; /* the frames may have moved */
                } else
                    goto done;
                const node_t c = T->first[f->n] + f->i - 1;
                if (f->is_chance)
                    f->total = q_add(C, f->total, q_mul(C, f->p[f->i - 1], v));
                else if (f->is_max ? e_cmp(e_of(v), f->m) > 0 : e_cmp(e_of(v), f->m) < 0) {
                    f->m = e_of(v);
                    f->best = c;
                }
            }
            continue;
        }
        if (f->pc == PC_START && C->tabled) { /* TableRun.search: the table first */
            const CEntry *e = ct_probe(C, f->key);
            if (e && (e_cmp(e->lo, f->beta) >= 0 || e_cmp(e->lo, e->hi) == 0)) {
                C->tt.cuts++;
                ret = e->lo.q;
                goto answered;
            }
            if (e && e_cmp(e->hi, f->alpha) <= 0) {
                C->tt.cuts++;
                ret = e->hi.q;
                goto answered;
            }
        }
        if (f->type == K_DECISION) {
            if (f->pc == PC_START) {
                C->entered++;
                f->pc = PC_SEARCH;
                f->m = f->is_max ? E_LOW : E_HIGH;
            }
            for (;;) {
                if (back) {
                    back = 0;
                    v = ret;
                } else if (f->i < f->count) {
                    E a = f->alpha, b = f->beta;
                    if (f->is_max)
                        a = e_cmp(f->alpha, f->m) > 0 ? f->alpha : f->m;
                    else
                        b = e_cmp(f->beta, f->m) < 0 ? f->beta : f->m;
                    rc = open_child(C, f->i++, 0, &v);
                    if (rc < 0)
                        return -1;
                    if (rc) {
                        window(C, a, b);
                        break;
                    }
                    f = &C->F.p[C->F.len - 1];
                } else
                    goto done;
                if (f->is_max ? e_cmp(e_of(v), f->m) > 0 : e_cmp(e_of(v), f->m) < 0) {
                    f->m = e_of(v);
                    f->best = T->first[f->n] + f->i - 1;
                    if (f->is_max ? e_cmp(f->m, f->beta) >= 0 : e_cmp(f->m, f->alpha) <= 0)
                        goto done;
                }
            }
            continue;
        }
        /* a chance node, Star1 or Star2 */
        const Q L = C->L, U = C->U;
        switch (f->pc) {
        case PC_START:
            C->entered++;
            if (e_cmp(e_of(L), f->beta) >= 0) {
                ret = L;
                goto popped;
            }
            if (e_cmp(e_of(U), f->alpha) <= 0) {
                ret = U;
                goto popped;
            }
            if (plan(C, f) < 0)
                return -1;
            f->probed = C->which == W_STAR2 && (f->alpha.inf != -1 || f->beta.inf != 1);
            f->j = 0;
            f->pc = PC_SEARCH;
            if (f->probed) {
                for (int j = 0; j < f->k; j++) {
                    f->lo[j] = L;
                    f->hi[j] = U;
                    f->known[j] = 0;
                }
                f->low = L;
                f->high = U;
                f->pc = PC_PROBE;
            } else {
                f->after = Q_ZERO;
                for (int j = 0; j < f->k; j++)
                    f->after = q_add(C, f->after, f->p[j]);
            }
            f->total = Q_ZERO;
            continue;
        case PC_PROBE_BACK:
            back = 0;
            if (f->side)
                f->hi[f->j] = ret;
            else
                f->lo[f->j] = ret;
            goto probed;
        case PC_PROBE:
            for (; f->j < f->k; f->j++) {
                const int j = f->j;
                const Q p = f->p[j];
                if (f->leaf[j]) {
                    if (read_leaf(C, T->first[f->n] + f->at[j], f->keys[j], f->lv[j], &v) < 0)
                        return -1;
                    f->lo[j] = f->hi[j] = v;
                    f->known[j] = 1;
                } else if (f->chance[j])
                    continue;
                else if (C->root_max == (f->turns % 2 == 0)) { /* MAX moves at the outcome */
                    if (f->beta.inf == 1)
                        continue;
                    const Q b = q_div(
                        C, q_sub(C, f->beta.q, q_sub(C, f->low, q_mul(C, p, L))), p);
                    f->side = 0;
                    rc = probe(C, j, e_of(L), at_most_u(C, e_of(b)), &v);
                    if (rc < 0)
                        return -1;
                    f = &C->F.p[C->F.len - 1 - rc];
                    if (rc) {
                        f->pc = PC_PROBE_BACK;
                        break;
                    }
                    f->lo[j] = v;
                } else {
                    if (f->alpha.inf == -1)
                        continue;
                    const Q a = q_div(
                        C, q_sub(C, f->alpha.q, q_sub(C, f->high, q_mul(C, p, U))), p);
                    f->side = 1;
                    rc = probe(C, j, at_least_l(C, e_of(a)), e_of(U), &v);
                    if (rc < 0)
                        return -1;
                    f = &C->F.p[C->F.len - 1 - rc];
                    if (rc) {
                        f->pc = PC_PROBE_BACK;
                        break;
                    }
                    f->hi[j] = v;
                }
            probed:
                f->pc = PC_PROBE;
                f->low = q_add(C, f->low, q_mul(C, f->p[f->j], q_sub(C, f->lo[f->j], L)));
                f->high = q_add(C, f->high, q_mul(C, f->p[f->j], q_sub(C, f->hi[f->j], U)));
                if (e_cmp(e_of(f->low), f->beta) >= 0) {
                    ret = f->low;
                    goto popped;
                }
                if (e_cmp(e_of(f->high), f->alpha) <= 0) {
                    ret = f->high;
                    goto popped;
                }
            }
            if (f->pc == PC_PROBE_BACK)
                continue;
            f->rest_lo = f->rest_hi = Q_ZERO;
            for (int j = 0; j < f->k; j++) {
                f->rest_lo = q_add(C, f->rest_lo, q_mul(C, f->p[j], f->lo[j]));
                f->rest_hi = q_add(C, f->rest_hi, q_mul(C, f->p[j], f->hi[j]));
            }
            f->j = 0;
            f->pc = PC_SEARCH;
            continue;
        case PC_SEARCH_BACK:
            back = 0;
            v = ret;
            goto searched;
        default: /* PC_SEARCH */
            for (; f->j < f->k; f->j++) {
                const int j = f->j;
                const Q p = f->p[j];
                if (f->probed) {
                    f->rest_lo = q_sub(C, f->rest_lo, q_mul(C, p, f->lo[j]));
                    f->rest_hi = q_sub(C, f->rest_hi, q_mul(C, p, f->hi[j]));
                } else {
                    f->after = q_sub(C, f->after, p);
                    f->rest_lo = q_mul(C, L, f->after);
                    f->rest_hi = q_mul(C, U, f->after);
                }
                f->a = f->alpha.inf == -1
                           ? E_LOW
                           : e_of(q_div(
                                 C, q_sub(C, q_sub(C, f->alpha.q, f->total), f->rest_hi), p));
                f->b = f->beta.inf == 1
                           ? E_HIGH
                           : e_of(q_div(
                                 C, q_sub(C, q_sub(C, f->beta.q, f->total), f->rest_lo), p));
                if (f->probed && f->known[j])
                    v = f->lo[j];
                else if (f->leaf[j]) {
                    if (read_leaf(C, T->first[f->n] + f->at[j], f->keys[j], f->lv[j], &v) < 0)
                        return -1;
                } else {
                    const E a = at_least_l(C, f->a), b = at_most_u(C, f->b);
                    rc = open_child(C, f->at[j], 0, &v);
                    if (rc < 0)
                        return -1;
                    /* an inner outcome (the plan opened it): its frame pushed */
                    f = &C->F.p[C->F.len - 2];
                    window(C, a, b);
                    f->pc = PC_SEARCH_BACK;
                    break;
                }
            searched:
                f->pc = PC_SEARCH;
                if (e_cmp(e_of(v), f->a) <= 0) {
                    ret = q_add(C, q_add(C, f->total, q_mul(C, f->p[f->j], v)), f->rest_hi);
                    goto popped;
                }
                if (e_cmp(e_of(v), f->b) >= 0) {
                    ret = q_add(C, q_add(C, f->total, q_mul(C, f->p[f->j], v)), f->rest_lo);
                    goto popped;
                }
                f->total = q_add(C, f->total, q_mul(C, f->p[f->j], v));
            }
            if (f->pc == PC_SEARCH_BACK)
                continue;
            ret = f->total;
            goto popped;
        }
    done: /* a decision node's value is m, a chance node's (expectiminimax's) its sum */
        if (f->type == K_FULL && f->is_chance)
            ret = f->total;
        else {
            ret = f->m.q;
            if (set_best(C, f->n, f->best) < 0)
                return -1;
        }
    popped:
        if (C->tabled) { /* what the search proved, in MAX's terms (TableRun.search) */
            const E v = e_of(ret);
            const int high = e_cmp(v, f->beta) >= 0, low = !high && e_cmp(v, f->alpha) <= 0;
            if (ct_store(C, f->key, low ? E_LOW : v, high ? E_HIGH : v) < 0)
                return -1;
        }
    answered:
        if (--C->F.len == 0) {
            *value = ret;
            return C->overflow;
        }
        back = 1; /* the parent goes on with ret */
    }
}

/* The PV (ListedRun.line): each decision node's best move, each chance node's likeliest
 * outcome (the first of the greatest weight), the nodes listed on the way; 0, or -1 */
static int chance_line(CRun *C, int64_t **line, size_t *len) {
    ODTree *T = &C->R.T;
    GState s = C->R.root, next;
    int64_t *out = NULL;
    size_t k = 0, cap = 0;
    node_t n = 0;
    int turns = 0;
    for (int64_t d = 0;; d++) {
        if (ROOM(out, k, cap) < 0)
            goto fail;
        out[k++] = n;
        int count;
        double v;
        if (position(C, &s, d, turns) < 0) /* ListedRun.line's entries are met too */
            goto fail;
        if (!od_open(T, &s, d, C->moves, &count, &v))
            break;
        const int chance = T->g.rules->kind(&T->g, &s) == GAME_CHANCE;
        const node_t first = list_kids(C, n, d, count, turns, chance);
        if (first < 0)
            goto fail;
        int i = 0;
        turns += !chance;
        if (chance) {
            int64_t w[GAME_MAX_MOVES];
            if (T->g.rules->weights) {
                T->g.rules->weights(&T->g, &s, w);
                for (int j = 1; j < count; j++)
                    if (w[j] > w[i])
                        i = j;
            }
        } else if ((size_t)n < C->best_cap && C->best[n] >= 0)
            i = (int)(C->best[n] - first);
        T->g.rules->play(&T->g, &s, C->moves[i], &next);
        s = next;
        n = first + i;
    }
    *line = out;
    *len = k;
    return 0;
fail:
    gt_free(out);
    return -1;
}

/* a 128-bit integer as a Python int */
static PyObject *int_of(qint x) {
    char text[48], *s = text + sizeof text;
    const int negative = x < 0;
    *--s = 0;
    do {
        const qint r = x % 10;
        *--s = (char)('0' + (r < 0 ? -r : r));
        x /= 10;
    } while (x);
    if (negative)
        *--s = '-';
    return PyLong_FromString(s, NULL, 10);
}

typedef struct {
    Q value;
    const int64_t *line;
    size_t line_len;
    const NodeList *leaves;
    int64_t entered, probes;
    const int64_t *turns;
    size_t fresh;
    const Table *tt;
    const Positions *P;
} ChanceOut;

static PyObject *chance_item(int i, const void *ctx) {
    const ChanceOut *o = ctx;
    switch (i) {
    case 0:
        return int_of(o->value.n);
    case 1:
        return int_of(o->value.d);
    case 2:
        return line_to_list(o->line, o->line_len);
    case 3:
        return nl_to_array(o->leaves);
    case 4:
        return PyLong_FromLongLong((long long)o->entered);
    case 5:
        return PyLong_FromLongLong((long long)o->probes);
    case 6:
        return tt_counts(o->tt);
    case 7:
        return make_array("Q", o->P->keys, o->P->n * sizeof *o->P->keys);
    default:
        return make_array("q", o->turns, o->fresh * sizeof *o->turns);
    }
}

/* an int64 numerator and denominator (> 0) from Python: 0, 1 when out of range, -1 */
static int q_arg(CRun *C, long long n, long long d, Q *q) {
    if (d <= 0)
        return 1;
    *q = q_make(C, n, d);
    return C->overflow;
}

/* game_chance(name, params, words, root_max, limit, max_nodes, first, which, lo_n, lo_d, hi_n,
 * hi_d, bits, tags, buckets, progress) -> (numerator, denominator, line, leaves, entered,
 * probes, counts, positions, turns, first, up, depth), or None: ListedRun's expectiminimax
 * (which 0), Star1 (1) or Star2 (2) with the leaf bounds lo_n/lo_d and hi_n/hi_d, with a table
 * of `buckets` (chance_tabled.ListedTableRun's; 0: none; its keys as CRun.tags says) whose
 * counts (tt_counts) and positions (game_tabled's: five words each, the fifth's top byte a
 * chance node's tag) come back (those of an empty table without one); None when the core has
 * no rules `name` that hold `params`, or
 * a value passes 2**bits (bits at most 126; 62 without 128-bit integers) */
PyObject *gt_game_chance(PyObject *self, PyObject *args) {
    (void)self;
    const char *name;
    PyObject *params, *words, *first_obj, *progress;
    long long limit, max_nodes, lo_n, lo_d, hi_n, hi_d;
    unsigned long long buckets;
    int root_max, which, bits, tags;
    if (!PyArg_ParseTuple(args, "sOOpLLOiLLLLiiKO", &name, &params, &words, &root_max, &limit,
                          &max_nodes, &first_obj, &which, &lo_n, &lo_d, &hi_n, &hi_d, &bits,
                          &tags, &buckets, &progress))
        return NULL;
    if (which < W_EMM || which > W_STAR2 || bits < 2 || (which == W_EMM && buckets) ||
        (tags && tags != 4 && tags != 5)) {
        PyErr_SetString(PyExc_ValueError, "game_chance: which is 0, 1 or 2 (a table: 1 or 2), "
                                          "bits at least 2, tags 0, 4 or 5");
        return NULL;
    }
    CRun *C = gt_calloc(1, sizeof *C);
    if (!C)
        return PyErr_NoMemory();
    C->which = which;
    C->root_max = root_max;
    C->tags = tags;
    C->tabled = buckets > 0;
    tt_size(&C->tt, buckets);
    C->most = (qint)1 << (bits < QBITS ? bits : QBITS);
    if (q_arg(C, lo_n, lo_d, &C->L) || q_arg(C, hi_n, hi_d, &C->U)) {
        gt_free(C);
        Py_RETURN_NONE;
    }
    const int rc = od_begin(&C->R, name, params, words, limit, max_nodes, first_obj, progress);
    if (rc <= 0) {
        gt_free(C);
        if (rc < 0)
            return NULL;
        Py_RETURN_NONE;
    }
    ODTree *T = &C->R.T;
    PyObject *result = NULL;
    int64_t *line = NULL;
    ChanceOut o = {Q_ZERO, NULL, 0, &C->R.leaves, 0, 0, NULL, 0, &C->tt, &C->P};
    int found;
    if (grow_array(&C->F.p, &C->F.cap, sizeof *C->F.p) < 0 ||
        (C->tabled && map_init(&C->at, sizeof(int64_t)) < 0))
        goto out;
    ChanceFrame *f = &C->F.p[0];
    double v;
    f->st = C->R.root;
    if ((f->key = position(C, &f->st, 0, 0)) < 0) /* the root's entry, met first */
        goto out;
    if (!od_open(T, &f->st, 0, f->moves, &f->count, &v)) { /* the root is a leaf */
        if (read_leaf(C, 0, f->key, v, &o.value) < 0)
            goto out;
        found = C->overflow;
    } else {
        f->is_chance = T->g.rules->kind(&T->g, &f->st) == GAME_CHANCE;
        if (list_kids(C, 0, 0, f->count, 0, f->is_chance) < 0)
            goto out;
        f->n = 0;
        f->depth = 0;
        f->turns = 0;
        f->is_max = root_max;
        f->type = which == W_EMM ? K_FULL : f->is_chance ? K_CHANCE : K_DECISION;
        f->pc = PC_START;
        f->i = 0;
        f->best = -1;
        f->alpha = E_LOW;
        f->beta = E_HIGH;
        C->F.len = 1;
        found = chance_search(C, &o.value);
        if (found < 0)
            goto out;
    }
    if (found) { /* an overflow: the Python search runs, and numbers the nodes itself */
        result = Py_None;
        Py_INCREF(result);
        goto out;
    }
    if (chance_line(C, &line, &o.line_len) < 0)
        goto out;
    o.line = line;
    o.entered = C->entered;
    o.probes = C->probes;
    o.turns = C->turns;
    o.fresh = T->n - T->n0;
    result = od_result(T, 9, chance_item, &o);
out:
    gt_free(line);
    map_free(&C->at);
    gt_free(C->B.p);
    pos_free(&C->P);
    gt_free(C->F.p);
    gt_free(C->best);
    gt_free(C->turns);
    od_end(&C->R);
    gt_free(C);
    return result;
}
