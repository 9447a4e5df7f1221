/* The built-in games' rules in C (game.h) as the tests and benchmarks/bench.py call them:
 * game_initial, a game's first state, game_step, one state's answers, and game_perft, the
 * leaves of a depth-first walk.
 *
 * Both take the game's name (as GAME_RULES lists it), its parameters (a tuple of ints, in the
 * order of the game's Param list) and a state's words (a tuple of GSTATE_WORDS ints, as
 * gtsearch.sources.gamerules writes a Python state: the words of a state of the game, which
 * the rules trust), and return None when the game's open() refuses the parameters. */
#include "core.h"
#include "game.h"

/* room for the moves of any words: the most a game's moves() writes, even of words that are
 * no state of the game (Hexapawn: three a pawn) */
#define STEP_MOVES (3 * 64)

/* the rules called `name` opened with `params`, and `words` read into *s (NULL: all 0): 0, 1
 * when open() refuses the parameters, or -1 with an exception set */
static int game_open(const char *who, const char *name, PyObject *params, PyObject *words,
                     Game *g, GState *s) {
    const GameRules *rules = game_rules(name);
    if (!rules) {
        PyErr_Format(PyExc_ValueError, "%s: no game %s in C", who, name);
        return -1;
    }
    if (!PyTuple_Check(params) || PyTuple_GET_SIZE(params) > GAME_MAX_PARAMS ||
        (words && (!PyTuple_Check(words) || PyTuple_GET_SIZE(words) != GSTATE_WORDS))) {
        PyErr_Format(PyExc_ValueError,
                     "%s: the parameters are a tuple of at most %d ints, the words one of %d",
                     who, GAME_MAX_PARAMS, GSTATE_WORDS);
        return -1;
    }
    int64_t values[GAME_MAX_PARAMS];
    const int n = (int)PyTuple_GET_SIZE(params);
    for (int i = 0; i < n; i++) {
        values[i] = PyLong_AsLongLong(PyTuple_GET_ITEM(params, i));
        if (values[i] == -1 && PyErr_Occurred())
            return -1;
    }
    memset(s, 0, sizeof *s);
    for (int i = 0; words && i < GSTATE_WORDS; i++) {
        s->w[i] = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(words, i));
        if (s->w[i] == (uint64_t)-1 && PyErr_Occurred())
            return -1;
    }
    memset(g, 0, sizeof *g);
    g->rules = rules;
    return rules->open(g, values, n) < 0 ? 1 : 0;
}

/* a state's words as a tuple of ints, or NULL */
static PyObject *words_tuple(const GState *s) {
    PyObject *t = PyTuple_New(GSTATE_WORDS);
    for (int i = 0; t && i < GSTATE_WORDS; i++) {
        PyObject *w = PyLong_FromUnsignedLongLong(s->w[i]);
        if (!w)
            Py_CLEAR(t);
        else
            PyTuple_SET_ITEM(t, i, w);
    }
    return t;
}

/* game_initial(name, params) -> the words of the game's initial state, or None when open()
 * refuses the parameters */
PyObject *gt_game_initial(PyObject *self, PyObject *args) {
    (void)self;
    const char *name;
    PyObject *params;
    if (!PyArg_ParseTuple(args, "sO", &name, &params))
        return NULL;
    Game g;
    GState s;
    const int opened = game_open("game_initial", name, params, NULL, &g, &s);
    if (opened)
        return opened < 0 ? NULL : Py_NewRef(Py_None);
    g.rules->initial(&g, &s);
    return words_tuple(&s);
}

/* game_step(name, params, words) -> (kind, moves, children's words, weights, value), or None
 * when open() refuses: weights None but at a chance node, value the utility at the end and
 * elsewhere the estimate (None when the game has none) */
PyObject *gt_game_step(PyObject *self, PyObject *args) {
    (void)self;
    const char *name;
    PyObject *params, *words;
    if (!PyArg_ParseTuple(args, "sOO", &name, &params, &words))
        return NULL;
    Game g;
    GState s, kid;
    const int opened = game_open("game_step", name, params, words, &g, &s);
    if (opened)
        return opened < 0 ? NULL : Py_NewRef(Py_None);
    const GameRules *r = g.rules;
    int moves[STEP_MOVES];
    int64_t weights[STEP_MOVES];
    const int kind = r->kind(&g, &s), count = r->moves(&g, &s, moves);
    PyObject *result = NULL, *listed = PyList_New(count), *kids = PyList_New(count);
    PyObject *weighed = NULL, *value = NULL;
    if (!listed || !kids)
        goto done;
    for (int i = 0; i < count; i++) {
        PyObject *move = PyLong_FromLong(moves[i]);
        if (!move)
            goto done;
        PyList_SET_ITEM(listed, i, move);
        r->play(&g, &s, moves[i], &kid);
        PyObject *t = words_tuple(&kid);
        if (!t)
            goto done;
        PyList_SET_ITEM(kids, i, t);
    }
    if (kind == GAME_CHANCE) {
        for (int i = 0; i < count; i++)
            weights[i] = 1;
        if (r->weights)
            r->weights(&g, &s, weights);
        weighed = PyList_New(count);
        for (int i = 0; weighed && i < count; i++) {
            PyObject *w = PyLong_FromLongLong(weights[i]);
            if (!w)
                Py_CLEAR(weighed);
            else
                PyList_SET_ITEM(weighed, i, w);
        }
        if (!weighed)
            goto done;
    } else {
        weighed = Py_NewRef(Py_None);
    }
    if (kind == GAME_END)
        value = PyFloat_FromDouble(r->utility(&g, &s));
    else if (r->estimate)
        value = PyFloat_FromDouble(r->estimate(&g, &s));
    else
        value = Py_NewRef(Py_None);
    if (value)
        result = Py_BuildValue("(iOOOO)", kind, listed, kids, weighed, value);
done:
    Py_XDECREF(listed);
    Py_XDECREF(kids);
    Py_XDECREF(weighed);
    Py_XDECREF(value);
    return result;
}

/* a state on the walk's stack, with its moves and the next one to play */
typedef struct {
    GState s;
    int count, next;
    int moves[GAME_MAX_MOVES];
} Ply;

/* game_perft(name, params, words, depth) -> the leaves of the tree from the state to that
 * depth: the states `depth` moves below it (a forced pass and a chance outcome are moves too)
 * and those where the game ends above it; None when open() refuses */
PyObject *gt_game_perft(PyObject *self, PyObject *args) {
    (void)self;
    const char *name;
    PyObject *params, *words;
    long long depth;
    if (!PyArg_ParseTuple(args, "sOOL", &name, &params, &words, &depth))
        return NULL;
    if (depth < 0) {
        PyErr_SetString(PyExc_ValueError, "game_perft: the depth is at least 0");
        return NULL;
    }
    Game g;
    GState s;
    const int opened = game_open("game_perft", name, params, words, &g, &s);
    if (opened)
        return opened < 0 ? NULL : Py_NewRef(Py_None);
    const GameRules *r = g.rules;
    Ply *stack = NULL;
    size_t top = 0, cap = 0;
    int64_t leaves = 0;
    Ticker tk;
    memset(&tk, 0, sizeof tk);
    if (ROOM(stack, top, cap) < 0) /* MemoryError set */
        return NULL;
    stack[0].s = s;
    stack[0].next = 0;
    stack[0].count = depth ? r->moves(&g, &s, stack[0].moves) : 0;
    top = 1;
    leaves = stack[0].count ? 0 : 1;
    while (top) {
        Ply *p = &stack[top - 1];
        if (p->next == p->count) {
            top--;
            continue;
        }
        if (tick(&tk, leaves) < 0)
            goto fail;
        if (ROOM(stack, top, cap) < 0)
            goto fail;
        p = &stack[top - 1];
        Ply *kid = &stack[top];
        r->play(&g, &p->s, p->moves[p->next++], &kid->s);
        kid->next = 0;
        kid->count = (long long)top < depth ? r->moves(&g, &kid->s, kid->moves) : 0;
        if (kid->count)
            top++;
        else
            leaves++;
    }
    gt_free(stack);
    return PyLong_FromLongLong(leaves);
fail:
    gt_free(stack);
    return NULL;
}
