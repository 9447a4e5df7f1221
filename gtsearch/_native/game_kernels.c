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
 * Kernels (their number is GAME_KERNELS's in gtsearch/sources/games.py):
 *   0  tic-tac-toe (gtsearch.sources.builtin_games.TicTacToe): a state is one int, X's
 *      squares in bits 0-8, O's in bits 9-17, bit 18 when the player who just moved has won,
 *      bit 19 when O is to move. */
#include "core.h"

#define MAX_MOVES 9 /* the most moves of a kernel's state */

typedef struct {
    int64_t states; /* the states are 0 .. states - 1 */
    size_t entries; /* the entries counted from the initial state: the arrays' first size */
    size_t edges;   /* and their children */
    /* the moves from a state (its children's states, in the order of its moves): how many */
    int (*kids)(int64_t state, int64_t *out);
    /* the utility of a state without moves, in MAX's terms */
    double (*utility)(int64_t state);
} Kernel;

/* -- tic-tac-toe ------------------------------------------------------------------------------ */
enum { T_O_SHIFT = 9, T_WON = 1 << 18, T_O_TO_MOVE = 1 << 19, T_SQUARES = (1 << 9) - 1 };

/* whether a player's nine squares hold a line: a table of the 512 sets, made at the first count */
static unsigned char ttt_wins[512];
static int ttt_ready;

static void ttt_init(void) {
    static const int lines[8] = {0007, 0070, 0700, 0111, 0222, 0444, 0421, 0124};
    for (int bits = 0; bits < 512; bits++)
        for (int i = 0; i < 8; i++)
            if ((bits & lines[i]) == lines[i])
                ttt_wins[bits] = 1;
    ttt_ready = 1;
}

static inline int ttt_line(int64_t bits) { return ttt_wins[bits]; }

/* TicTacToe.moves and .play */
static int ttt_kids(int64_t state, int64_t *out) {
    if (!ttt_ready)
        ttt_init();
    if (state & T_WON)
        return 0;
    const int64_t x = state & T_SQUARES, o = state >> T_O_SHIFT & T_SQUARES;
    int count = 0;
    for (int sq = 0; sq < 9; sq++) {
        if ((x | o) >> sq & 1)
            continue;
        if (state & T_O_TO_MOVE) { /* O plays; X moves next */
            const int64_t mine = o | (int64_t)1 << sq;
            out[count++] = x | mine << T_O_SHIFT | (ttt_line(mine) ? T_WON : 0);
        } else {
            const int64_t mine = x | (int64_t)1 << sq;
            out[count++] = mine | o << T_O_SHIFT | T_O_TO_MOVE | (ttt_line(mine) ? T_WON : 0);
        }
    }
    return count;
}

/* TicTacToe.utility: 0 at a full board, else the player who just moved has won */
static double ttt_utility(int64_t state) {
    if (!(state & T_WON))
        return 0.0;
    return state & T_O_TO_MOVE ? 1.0 : -1.0;
}

static const Kernel KERNELS[] = {{(int64_t)1 << 20, 5478, 16167, ttt_kids, ttt_utility}};
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
    const int count = k->kids(state, out);
    while (c->n_kids + (size_t)count > c->cap_kids)
        if (grow_array(&c->kids, &c->cap_kids, sizeof *c->kids) < 0)
            return -1;
    memcpy(c->kids + c->n_kids, out, (size_t)count * sizeof *out);
    c->n_kids += (size_t)count;
    c->states[e] = state;
    c->first[e + 1] = (int64_t)c->n_kids;
    c->sizes[e] = 0; /* not finished */
    c->values[e] = count ? NAN : k->utility(state);
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
