/* Connect Four solved as a dedicated solver does (docs/algorithms.md, "Solving Connect Four"):
 * gtsearch/algorithms/connect4.py step for step, node for node (the Python module is the
 * reference: the same table, the same order of moves, the same counts).
 *
 * A position is the player to move's discs (cur) and every disc (mask), rows + 1 bits a
 * column; the board fits 64 bits, so no search is deeper than 64 plies and the searches'
 * stacks are arrays of fixed size: the only allocation is the table.  Sources: Tromp's
 * Fhourstones, Pons (2019), Allis (1988); nothing of PascalPons/connect4's code is used. */
#include "core.h"

#define C4_MAX_PLIES 64
#define C4_LOWER 1
#define C4_UPPER 2
#define C4_NO_MOVE 255
#define C4_GOLDEN 0x9E3779B97F4A7C15ULL

typedef struct {
    uint64_t key;
    uint32_t data; /* kind | (score + 128) << 2 | move << 10 */
} C4Entry;

typedef struct {
    uint64_t cur, mask, key;
    int n, alpha, count, next; /* the null window (alpha, alpha + 1) */
    uint8_t moves[C4_MAX_PLIES];
} C4Frame;

typedef struct {
    int rows, columns, k, height, squares, shift;
    uint64_t bottom, board, column[C4_MAX_PLIES];
    int order[C4_MAX_PLIES];
    C4Entry *table;
    uint64_t entries;
    int64_t most, nodes, expanded, leaves, line_nodes;
    int in_line;
    int64_t probes, hits, cuts, stores, overwrites;
    Ticker tk;
    C4Frame stack[C4_MAX_PLIES + 2];
} C4;

/* bits of p shifted so that bit x says whether p holds x + d */
static inline uint64_t c4_at(uint64_t p, int d) {
    if (d >= 64 || d <= -64)
        return 0;
    return d >= 0 ? p >> d : p << -d;
}

/* the empty squares where one more of discs makes k in a line (k a constant when inlined) */
static inline uint64_t c4_wins_k(const C4 *s, uint64_t discs, uint64_t mask, int k) {
    const int steps[4] = {1, s->height, s->height + 1, s->height - 1};
    uint64_t out = 0;
    for (int d = 0; d < 4; d++)
        for (int j = 0; j < k; j++) {
            uint64_t t = ~(uint64_t)0;
            for (int i = 0; i < k; i++)
                if (i != j)
                    t &= c4_at(discs, (i - j) * steps[d]);
            out |= t;
        }
    return out & s->board & ~mask;
}

static uint64_t c4_wins(const C4 *s, uint64_t discs, uint64_t mask) {
    return s->k == 4 ? c4_wins_k(s, discs, mask, 4) : c4_wins_k(s, discs, mask, s->k);
}

static inline uint64_t c4_playable(const C4 *s, uint64_t mask) {
    return (mask + s->bottom) & s->board;
}

/* the playable squares after which the opponent cannot win at once (connect4.safe_moves) */
static uint64_t c4_safe(const C4 *s, uint64_t cur, uint64_t mask) {
    uint64_t free = c4_playable(s, mask);
    const uint64_t threats = c4_wins(s, cur ^ mask, mask), forced = free & threats;
    if (forced) {
        if (forced & (forced - 1))
            return 0;
        free = forced;
    }
    return free & ~(threats >> 1);
}

static int c4_winning_column(const C4 *s, uint64_t cur, uint64_t mask) {
    const uint64_t wins = c4_wins(s, cur, mask) & c4_playable(s, mask);
    if (!wins)
        return -1;
    int i = 0;
    while (!(wins & s->column[s->order[i]]))
        i++;
    return s->order[i];
}

static inline uint64_t c4_slot(const C4 *s, uint64_t key) { return (key * C4_GOLDEN) >> s->shift; }

static void c4_store(C4 *s, uint64_t key, int kind, int score, int move) {
    C4Entry *e = &s->table[c4_slot(s, key)];
    s->stores++;
    if (e->key && e->key != key)
        s->overwrites++;
    else if (e->key && move == C4_NO_MOVE) /* an upper bound keeps the position's move */
        move = (int)(e->data >> 10);
    e->key = key;
    e->data = (uint32_t)kind | (uint32_t)(score + 128) << 2 | (uint32_t)move << 10;
}

/* the moves of f among safe, ordered as connect4.Solver.ordered orders them */
static void c4_order(const C4 *s, C4Frame *f, uint64_t safe, int first) {
    int keys[C4_MAX_PLIES];
    f->count = 0;
    for (int i = 0; i < s->columns; i++) {
        const int c = s->order[i];
        const uint64_t move = safe & s->column[c];
        if (!move)
            continue;
        const int threats = __builtin_popcountll(c4_wins(s, f->cur | move, f->mask | move));
        /* the key: not the table's move first, then the most threats (stable among equals) */
        const int key = (c != first) * 256 - threats;
        int j = f->count++;
        while (j > 0 && keys[j - 1] > key) {
            keys[j] = keys[j - 1];
            f->moves[j] = f->moves[j - 1];
            j--;
        }
        keys[j] = key;
        f->moves[j] = (uint8_t)c;
    }
    f->next = 0;
}

/* count a position entered: 0, -2 past the most allowed, -1 at Ctrl-C */
static int c4_count(C4 *s) {
    if (s->in_line)
        s->line_nodes++;
    else
        s->nodes++;
    if (s->nodes + s->line_nodes > s->most)
        return -2;
    return tick(&s->tk, s->nodes + s->line_nodes);
}

/* enter frame f: 1 with *value when it is decided at once, 0 when its moves are to be
 * searched (ordered in f), -1 or -2 (c4_count) */
static int c4_enter(C4 *s, C4Frame *f, int *value) {
    const int r = c4_count(s);
    if (r < 0)
        return r;
    const uint64_t safe = c4_safe(s, f->cur, f->mask);
    const int n = f->n;
    if (!safe) {
        s->leaves++;
        *value = -((s->squares - n) / 2);
        return 1;
    }
    if (n >= s->squares - 2) {
        s->leaves++;
        *value = 0;
        return 1;
    }
    const int low = -((s->squares - 2 - n) / 2);
    if (low > f->alpha) {
        s->leaves++;
        *value = low;
        return 1;
    }
    const int high = (s->squares - 1 - n) / 2;
    if (high <= f->alpha) {
        s->leaves++;
        *value = high;
        return 1;
    }
    f->key = f->cur + f->mask + s->bottom;
    const C4Entry *e = &s->table[c4_slot(s, f->key)];
    s->probes++;
    int best = C4_NO_MOVE;
    if (e->key == f->key) {
        s->hits++;
        const int kind = (int)(e->data & 3), score = (int)(e->data >> 2 & 255) - 128;
        best = (int)(e->data >> 10);
        if (kind == C4_LOWER ? score > f->alpha : score <= f->alpha) {
            s->cuts++;
            s->leaves++;
            *value = score;
            return 1;
        }
    }
    s->expanded++;
    c4_order(s, f, safe, best);
    return 0;
}

/* connect4.Solver.negamax on an explicit stack: 0 with *out, -1 (exception), -2 (limit) */
static int c4_negamax(C4 *s, uint64_t cur, uint64_t mask, int n, int alpha, int *out) {
    C4Frame *st = s->stack;
    int top = 0, value = 0, entering = 1;
    st[0].cur = cur;
    st[0].mask = mask;
    st[0].n = n;
    st[0].alpha = alpha;
    for (;;) {
        C4Frame *f = &st[top];
        int decided = 0;
        if (entering) {
            const int r = c4_enter(s, f, &value);
            if (r < 0)
                return r;
            decided = r;
        } else {
            const int score = -value;
            if (score > f->alpha) {
                c4_store(s, f->key, C4_LOWER, score, f->moves[f->next - 1]);
                value = score;
                decided = 1;
            }
        }
        if (!decided) {
            if (f->next < f->count) {
                const int c = f->moves[f->next++];
                const uint64_t move = (f->mask + ((uint64_t)1 << (c * s->height))) &
                                      s->column[c] & ~f->mask;
                C4Frame *g = &st[top + 1];
                g->cur = f->cur ^ f->mask;
                g->mask = f->mask | move;
                g->n = f->n + 1;
                g->alpha = -f->alpha - 1;
                top++;
                entering = 1;
                continue;
            }
            c4_store(s, f->key, C4_UPPER, f->alpha, C4_NO_MOVE);
            value = f->alpha;
        }
        if (top == 0) {
            *out = value;
            return 0;
        }
        top--;
        entering = 0;
    }
}

static inline int c4_half(int x) { return x / 2; /* toward 0, as connect4.half */ }

/* Whether the position's score is at most bound (connect4.Solver.child_at_most): 0 or 1,
 * or -1 / -2 */
static int c4_at_most(C4 *s, uint64_t cur, uint64_t mask, int n, int bound) {
    if (c4_winning_column(s, cur, mask) >= 0)
        return (s->squares + 1 - n) / 2 <= bound;
    if (n >= s->squares)
        return 0 <= bound;
    int r;
    const int e = c4_negamax(s, cur, mask, n, bound, &r);
    return e < 0 ? e : r <= bound;
}

/* the move the position's table entry holds, or -1 (connect4.Solver.table_move) */
static int c4_table_move(const C4 *s, uint64_t cur, uint64_t mask) {
    const uint64_t key = cur + mask + s->bottom;
    const C4Entry *e = &s->table[c4_slot(s, key)];
    if (e->key != key || (e->data >> 10) == C4_NO_MOVE)
        return -1;
    return (int)(e->data >> 10);
}

static void c4_free(C4 *s) {
    gt_free(s->table);
    tick_close(&s->tk);
    gt_free(s);
}

/* solve_c4(rows, columns, k, cur, mask, entries, most) -> (score, pv, nodes, expanded, leaves,
 * line_nodes, probes, tt) or None past most positions entered: connect4.solve_connect4 on a
 * position not over (checked in Python); entries a power of two */
PyObject *gt_solve_c4(PyObject *self, PyObject *args) {
    (void)self;
    int rows, columns, k;
    unsigned long long cur, mask, entries;
    long long most;
    if (!PyArg_ParseTuple(args, "iiiKKKL", &rows, &columns, &k, &cur, &mask, &entries, &most))
        return NULL;
    if (rows < 1 || rows > 63 || columns < 1 || columns > 64 || (rows + 1) * columns > 64 ||
        k < 1 || entries < 2 || (entries & (entries - 1)) || (cur & ~mask) || most < 0) {
        PyErr_SetString(PyExc_ValueError, "solve_c4: parameters out of range");
        return NULL;
    }
    C4 *s = gt_calloc(1, sizeof *s);
    if (!s)
        return PyErr_NoMemory();
    s->table = gt_calloc((size_t)entries, sizeof *s->table);
    if (!s->table) {
        c4_free(s);
        return PyErr_NoMemory();
    }
    s->rows = rows;
    s->columns = columns;
    s->k = k;
    s->height = rows + 1;
    s->squares = rows * columns;
    s->entries = entries;
    s->shift = 64 - ctz64(entries);
    s->most = most;
    for (int c = 0; c < columns; c++) {
        s->column[c] = (((uint64_t)1 << rows) - 1) << (c * s->height);
        s->bottom |= (uint64_t)1 << (c * s->height);
        s->board |= s->column[c];
    }
    /* centre first: |2c - (columns - 1)| ascending, the left one first */
    for (int c = 0; c < columns; c++) {
        const int d = abs(2 * c - (columns - 1));
        int j = c;
        while (j > 0 && abs(2 * s->order[j - 1] - (columns - 1)) > d) {
            s->order[j] = s->order[j - 1];
            j--;
        }
        s->order[j] = c;
    }
    const int n = __builtin_popcountll(mask);
    PyObject *probes = PyList_New(0), *result = NULL;
    if (!probes) {
        c4_free(s);
        return NULL;
    }
    int score, err = 0;
    if (c4_winning_column(s, cur, mask) >= 0)
        score = (s->squares + 1 - n) / 2;
    else {
        int low = -((s->squares - n) / 2), high = (s->squares - 1 - n) / 2;
        while (low < high) {
            int test = low + (high - low) / 2;
            if (test <= 0 && c4_half(low) < test)
                test = c4_half(low);
            else if (test >= 0 && c4_half(high) > test)
                test = c4_half(high);
            const int64_t n0 = s->nodes, e0 = s->expanded, l0 = s->leaves;
            const double t0 = monotonic_seconds();
            int r;
            err = c4_negamax(s, cur, mask, n, test, &r);
            if (err < 0)
                goto done;
            PyObject *p = Py_BuildValue("iiLLLd", test, r, (long long)(s->nodes - n0),
                                        (long long)(s->expanded - e0), (long long)(s->leaves - l0),
                                        monotonic_seconds() - t0);
            if (!p || PyList_Append(probes, p) < 0) {
                Py_XDECREF(p);
                err = -1;
                goto done;
            }
            Py_DECREF(p);
            if (r <= test)
                high = r;
            else
                low = r;
        }
        score = low;
    }
    /* the table's counts before the line's searches, as the Python version gives them */
    const long long tt[5] = {s->probes, s->hits, s->cuts, s->stores, s->overwrites};
    const long long counts[3] = {s->nodes, s->expanded, s->leaves};
    uint8_t line[C4_MAX_PLIES];
    int len = 0, at = score;
    s->in_line = 1;
    while (n + len < s->squares) {
        const int win = c4_winning_column(s, cur, mask);
        if (win >= 0) {
            line[len++] = (uint8_t)win;
            break;
        }
        /* the first playable column whose position scores -at (the root's score is exact,
         * so one does): the table entry's move first, then centre first */
        int tried[C4_MAX_PLIES + 1], m = 0, c, i = 0;
        const int first = c4_table_move(s, cur, mask);
        if (first >= 0)
            tried[m++] = first;
        for (int j = 0; j < columns; j++)
            if (s->order[j] != first)
                tried[m++] = s->order[j];
        uint64_t child, child_mask;
        for (;;) {
            c = tried[i++];
            const uint64_t move = c4_playable(s, mask) & s->column[c];
            if (!move)
                continue;
            child = cur ^ mask;
            child_mask = mask | move;
            err = c4_at_most(s, child, child_mask, n + len + 1, -at);
            if (err < 0)
                goto done;
            if (err)
                break;
        }
        err = 0;
        line[len++] = (uint8_t)c;
        cur = child;
        mask = child_mask;
        at = -at;
    }
    PyObject *pv = PyBytes_FromStringAndSize((const char *)line, len);
    if (!pv) {
        err = -1;
        goto done;
    }
    result = Py_BuildValue("iNLLLLO(LLLLL)", score, pv, counts[0], counts[1], counts[2],
                           (long long)s->line_nodes, probes, tt[0], tt[1], tt[2], tt[3], tt[4]);
done:
    Py_DECREF(probes);
    c4_free(s);
    if (err == -2)
        Py_RETURN_NONE;
    return result;
}
