/* The built-in games counted in C: GameTree._count's graph of entries, for the games whose
 * rules are written here too.
 *
 * gtsearch.sources.games counts a game's distinct entries depth-first, each expanded once,
 * and numbers them in the order they are met (the order of GameTree.info).  count_game does
 * the same walk over a kernel's own rules and hands back the graph: the entries' states, each
 * entry's children's numbers kids[first[s]:first[s+1]], its subtree's size, leaves and height,
 * and its value (the utility where the game ends, NaN elsewhere: no built-in game with a
 * kernel has an estimate).  The rules are the Python game's, state for state; the Python
 * game stays the reference (tests/test_game_kernels.py counts both and compares them).
 *
 * A kernel's rules are a game's rules in C (game.h) whose state is one word: the state's
 * int.  Kernels (their number is the game class's `kernel`):
 *   0  tic-tac-toe (game_tictactoe.c: gtsearch.sources.builtin_games.TicTacToe). */
#include "core.h"
#include "game.h"

#define MAX_MOVES 9 /* the most moves of a kernel's state */

typedef struct {
    int64_t states; /* the states are 0 .. states - 1 */
    size_t entries; /* the entries counted from the initial state: the arrays' first size */
    size_t edges;   /* and their children */
    int index;              /* its place in KERNELS */
    const GameRules *rules; /* its rules (game.h): a state is their first word */
} Kernel;

/* a kernel's game: its rules (game.h), opened once without parameters */
static Game kernel_games[1];
static int kernel_open[1];

/* the moves from a state (its children's states, in the order of its moves): how many; the
 * state is the rules' one word (a kernel's game keeps the others 0) */
static int kernel_kids(const Kernel *k, int64_t state, int64_t *out) {
    const Game *g = &kernel_games[k->index];
    int moves[MAX_MOVES];
    GState s, kid;
    memset(&s, 0, sizeof s);
    s.w[0] = (uint64_t)state;
    const int count = k->rules->moves(g, &s, moves);
    for (int i = 0; i < count; i++) {
        k->rules->play(g, &s, moves[i], &kid);
        out[i] = (int64_t)kid.w[0];
    }
    return count;
}

/* the utility of a state without moves, in MAX's terms */
static double kernel_utility(const Kernel *k, int64_t state) {
    GState s;
    memset(&s, 0, sizeof s);
    s.w[0] = (uint64_t)state;
    return k->rules->utility(&kernel_games[k->index], &s);
}

/* 0: tic-tac-toe (game_tictactoe.c) */
static const Kernel KERNELS[] = {{(int64_t)1 << 20, 5478, 16167, 0, &GAME_TICTACTOE}};
#define N_KERNELS (int)(sizeof KERNELS / sizeof KERNELS[0])

typedef struct {
    int64_t entry, next; /* the entry, and the index of its next child to look at */
} Visit;

/* the growable arrays of the count */
typedef struct {
    int64_t *states, *first, *kids, *sizes, *leaves, *heights;
    double *values;
    size_t n, cap, n_kids, cap_kids;
    Visit *stack;
    size_t top, cap_stack;
    Map ids; /* state -> its entry's number + 1 */
} Count;

static void count_free(Count *c) {
    gt_free(c->states);
    gt_free(c->first);
    gt_free(c->kids);
    gt_free(c->sizes);
    gt_free(c->leaves);
    gt_free(c->heights);
    gt_free(c->values);
    gt_free(c->stack);
    map_free(&c->ids);
}

/* every per-entry array made to hold cap items (first[] holds one entry fewer); 0, or -1 */
static int entries_to(Count *c, size_t cap) {
    int64_t **arrays[] = {&c->states, &c->first, &c->sizes, &c->leaves, &c->heights};
    for (size_t i = 0; i < sizeof arrays / sizeof *arrays; i++) {
        int64_t *grown = gt_realloc(*arrays[i], cap * sizeof **arrays[i]);
        if (!grown)
            return -1;
        *arrays[i] = grown;
    }
    double *grown = gt_realloc(c->values, cap * sizeof *c->values);
    if (!grown)
        return -1;
    c->values = grown;
    c->cap = cap;
    return 0;
}

/* one more entry's room in every per-entry array (first[] has one item more) */
static int room_entry(Count *c) { return c->n + 1 < c->cap ? 0 : entries_to(c, c->cap * 2); }

/* the entry of `state`, expanded: its number, its children's states listed (their numbers
 * are written once every entry is known); -1 on MemoryError */
static int64_t expand(Count *c, const Kernel *k, int64_t state) {
    int64_t out[MAX_MOVES];
    int fresh;
    int64_t *id = map_put(&c->ids, state, &fresh);
    if (!id || room_entry(c) < 0)
        return -1;
    const int64_t e = (int64_t)c->n++;
    *id = e + 1;
    const int count = kernel_kids(k, state, out);
    while (c->n_kids + (size_t)count > c->cap_kids)
        if (grow_array(&c->kids, &c->cap_kids, sizeof *c->kids) < 0)
            return -1;
    memcpy(c->kids + c->n_kids, out, (size_t)count * sizeof *out);
    c->n_kids += (size_t)count;
    c->states[e] = state;
    c->first[e + 1] = (int64_t)c->n_kids;
    c->sizes[e] = 0; /* not finished */
    c->values[e] = count ? NAN : kernel_utility(k, state);
    return e;
}

/* count_game(kernel, root, most, room=0) -> (states, first, kids, sizes, leaves, heights,
 * values), or None when the game has more than `most` entries; room: the entries the arrays
 * first hold (0: as many as from the initial state; the tests make them grow) */
PyObject *gt_count_game(PyObject *self, PyObject *args) {
    (void)self;
    int which;
    long long root, most, room = 0;
    if (!PyArg_ParseTuple(args, "iLL|L", &which, &root, &most, &room))
        return NULL;
    if (which < 0 || which >= N_KERNELS || root < 0 || root >= KERNELS[which].states ||
        most < 1 || room < 0 || room > (long long)KERNELS[which].entries) {
        PyErr_SetString(PyExc_ValueError, "count_game: parameters out of range");
        return NULL;
    }
    const Kernel *k = &KERNELS[which];
    if (!kernel_open[which]) { /* a kernel's game takes no parameter: open() cannot refuse */
        k->rules->open(&kernel_games[which], NULL, 0);
        kernel_open[which] = 1;
    }
    Count c;
    memset(&c, 0, sizeof c);
    PyObject *result = NULL;
    Ticker tk;
    memset(&tk, 0, sizeof tk);
    /* sized for the game from its initial state (the most it can hold): nothing grows then */
    const size_t first = room ? (size_t)room : k->entries;
    const size_t cap = (size_t)most < first ? (size_t)most + 1 : first + 1;
    c.cap_kids = cap == k->entries + 1 ? k->edges : MAX_MOVES * cap;
    c.kids = gt_malloc(c.cap_kids * sizeof *c.kids);
    if (!c.kids || entries_to(&c, cap) < 0 || map_init(&c.ids, sizeof(int64_t)) < 0)
        goto nomem;
    while (c.ids.cap < 2 * c.cap) /* the map's room, made while it is empty */
        if (map_grow(&c.ids) < 0)
            goto nomem;
    c.first[0] = 0;
    if (expand(&c, k, root) < 0 || ROOM(c.stack, c.top, c.cap_stack) < 0)
        goto nomem;
    c.stack[c.top++] = (Visit){0, 0};
    while (c.top) {
        Visit *v = &c.stack[c.top - 1];
        const int64_t e = v->entry, lo = c.first[e], hi = c.first[e + 1];
        /* the first child not counted yet (a kernel's game ends: every move fills a square, so
         * no child is an entry on the current line, which GameTree._count looks for); each
         * child's state is replaced by -(its entry's number + 1) once that is known */
        while (lo + v->next < hi) {
            const int64_t *id = map_get(&c.ids, c.kids[lo + v->next]);
            if (!id)
                break;
            c.kids[lo + v->next++] = -*id;
        }
        if (lo + v->next < hi) {
            const int64_t j = lo + v->next++, state = c.kids[j];
            if ((long long)c.n >= most) {
                result = Py_NewRef(Py_None);
                goto done;
            }
            if (expand(&c, k, state) < 0 || ROOM(c.stack, c.top, c.cap_stack) < 0)
                goto nomem;
            c.kids[j] = -(int64_t)c.n; /* expand() may have moved the array: written after */
            c.stack[c.top++] = (Visit){(int64_t)c.n - 1, 0};
            if (tick(&tk, 0) < 0)
                goto done;
            continue;
        }
        /* every child counted: this entry's size, leaves and height */
        int64_t size = 1, leaves = 0, height = -1;
        for (int64_t j = lo; j < hi; j++) {
            const int64_t kid = -c.kids[j] - 1;
            size += c.sizes[kid];
            leaves += c.leaves[kid];
            if (c.heights[kid] > height)
                height = c.heights[kid];
        }
        c.sizes[e] = size;
        c.leaves[e] = hi > lo ? leaves : 1;
        c.heights[e] = height + 1;
        c.top--;
    }
    /* the children as their entries' numbers */
    for (size_t j = 0; j < c.n_kids; j++)
        c.kids[j] = -c.kids[j] - 1;
    const size_t n = c.n, bytes = n * sizeof(int64_t);
    void *bufs[7] = {&c.states, &c.first, &c.kids, &c.sizes, &c.leaves, &c.heights, &c.values};
    const size_t sizes[7] = {bytes, bytes + sizeof(int64_t), c.n_kids * sizeof(int64_t), bytes,
                             bytes, bytes, n * sizeof(double)};
    result = PyTuple_New(7);
    for (int i = 0; result && i < 7; i++) { /* each made only once the one before was */
        PyObject *part = take_array(i == 6 ? "d" : "q", bufs[i], sizes[i]);
        if (!part)
            Py_CLEAR(result);
        else
            PyTuple_SET_ITEM(result, i, part);
    }
    goto done;
nomem:
    PyErr_NoMemory();
done:
    count_free(&c);
    return result;
}
