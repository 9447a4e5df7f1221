/* A game whose rules are Python objects searched on demand in C: OpenSpiel's states
 * (gtsearch/sources/openspiel.py), their methods called through the CPython API.
 *
 * The Python searches on an OnDemandTree (gtsearch/sources/ondemand.py) are the reference:
 * objects_negamax() is depthfirst._negamax_on_demand (fail-soft) and objects_expectiminimax()
 * chance.ListedRun.full, step for step.  A node's children are numbered as the tree numbers
 * them (the next free numbers, left to right, the first time the search lists them: as it
 * reaches them among its parent's children), and a node is the entry the tree would build
 * (games.py): a decision, a chance node (its tag says who is expected below it) or a forced
 * move (a pass of the other player where one player moves twice).  The states are asked what
 * the adapter asks them (is_terminal, current_player, legal_actions or chance_outcomes, child,
 * returns, str where states are keyed by their string), once each, as the tree lists them
 * (pyspiel's own states only what the search needs of them: see info_moves and the check of
 * the line in list_node); a node left for good is let go, as the tree releases it.  What is returned is what the tree
 * then adopts (OnDemandTree.numbered_in_c): each node's first child, parent, depth and
 * decision nodes above it.
 *
 * The C side decides nothing for the user: where the Python search would word an error (a
 * state's method raised or answered outside the protocol, a state that comes back along a
 * line of play, a value that is not an exact number within the rules) it returns None, and
 * the Python search runs from the start, meets the same thing at the same place and words it.
 * Ctrl-C and the core's own MemoryError are raised as they are; more nodes listed than
 * --max-nodes is VisitLimit, which the caller turns into the tree's own error.
 */
#include "core.h"

#define REDO 1 /* the Python search runs instead */

/* an entry's tag in its key (gtsearch/sources/games.py): a decision, a forced move, a chance
 * node that expects MAX or MIN below it */
enum { T_DECIDE = 0, T_FORCED = 2, T_CH_MAX = 4, T_CH_MIN = 5 };
/* who moves at a state (protocol.py): MAX, MIN, chance, nobody (the end) */
enum { W_MAX = 0, W_MIN = 1, W_CHANCE = 2, W_NONE = 3 };

/* A node as its entry: the state, who moves there, its moves (legal_actions() or
 * chance_outcomes(); NULL at the end or at a forced move, whose move is the pass), its number
 * of children (0: a leaf) and, where states are keyed by string, current_player()'s answer
 * (`cp`; `cpi` it + CP_LOW when it is an int from -CP_LOW to CP_HIGH, else -1) and its key on
 * the line, (tag, current_player(), str(state)), made when it is needed (NULL before). */
typedef struct {
    PyObject *state, *moves, *cp, *key;
    int tag, who, cpi;
    Py_ssize_t count;
} Info;

#define CP_LOW 8
#define CP_HIGH 55

static void info_clear(Info *x) {
    Py_CLEAR(x->state);
    Py_CLEAR(x->moves);
    Py_CLEAR(x->cp);
    Py_CLEAR(x->key);
}

static void infos_free(Info *xs, Py_ssize_t k) {
    if (!xs)
        return;
    for (Py_ssize_t i = 0; i < k; i++)
        info_clear(&xs[i]);
    gt_free(xs);
}

/* the states' methods the adapter calls */
enum { M_TERMINAL, M_PLAYER, M_ACTIONS, M_OUTCOMES, M_CHILD, M_RETURNS, METHODS };
static const char *const METHOD_NAMES[METHODS] = {
    "is_terminal", "current_player", "legal_actions", "chance_outcomes", "child", "returns"};

typedef struct {
    PyObject *names[METHODS]; /* the methods' names */
    /* where the states are pyspiel's own (`own`): the methods of their class, `type`, called
     * as functions of the state (no bound method made at each call) */
    int own;
    PyObject *type;
    PyObject *methods[METHODS];
    long chance_player;
    int by_string, with_turns;
    int every; /* every state's string asked, as the adapter asks it (its own Position) */
    PyObject *line;    /* the keys of the entries on the line, when keyed by string */
    /* how many entries on the line have each tag and current player (cpi), and how many a
     * current player outside them: a child whose tag and player no entry on the line has
     * cannot be one of them, and its string is not asked for the check (a leaf's, mostly) */
    int32_t seen[6][CP_LOW + CP_HIGH + 1];
    int64_t odd;
    PyObject *weigh;   /* probabilities -> (scaled weights, scale): compiled.chance_weights */
    PyObject *weighed; /* its answers so far */
    PyObject *last_probs, *last_weights; /* the last odds looked up, and their answer */
    /* the nodes numbered: first[] for each, up/depth/turns for each but the root */
    int64_t *first, *up, *depth, *turns;
    size_t nfirst, capfirst, nup, capup, ndepth, capdepth, nturns, capturns;
    node_t max_nodes;
    size_t prior;    /* the nodes numbered before this search (first[]'s items then) */
    int64_t deepest; /* the deepest node numbered */
    Ticker tk;
    NodeList leaves;
} Ctx;

/* After a call of the game's code failed: Ctrl-C stays itself (-1); anything else is the
 * Python search's to word (REDO). */
static int game_failed(void) {
    if (PyErr_ExceptionMatches(PyExc_KeyboardInterrupt))
        return -1;
    PyErr_Clear();
    return REDO;
}

/* state.name() (arg NULL) or state.name(arg): a new reference, or NULL with *rc set */
static PyObject *ask(Ctx *C, PyObject *state, int m, PyObject *arg, int *rc) {
    PyObject *r;
    if (C->own) {
        if ((PyObject *)Py_TYPE(state) != C->type) { /* the methods of its class, once */
            for (int k = 0; k < METHODS; k++) {
                Py_CLEAR(C->methods[k]);
                C->methods[k] = PyObject_GetAttr((PyObject *)Py_TYPE(state), C->names[k]);
                if (!C->methods[k]) {
                    Py_CLEAR(C->type);
                    *rc = game_failed();
                    return NULL;
                }
            }
            Py_XSETREF(C->type, Py_NewRef((PyObject *)Py_TYPE(state)));
        }
        PyObject *args[2] = {state, arg};
        r = PyObject_Vectorcall(C->methods[m], args, arg ? 2 : 1, NULL);
    } else {
        r = arg ? PyObject_CallMethodOneArg(state, C->names[m], arg)
                : PyObject_CallMethodNoArgs(state, C->names[m]);
    }
    if (!r)
        *rc = game_failed();
    return r;
}

/* OpenSpiel's player id of the end (kTerminalPlayerId, open_spiel/spiel.h) */
#define SPIEL_TERMINAL (-4)

/* Who moves at x->state, and its moves, as OpenSpielGame.player(), moves() and outcomes()
 * answer: is_terminal(), then current_player(); *who_obj gets current_player()'s answer (a
 * new reference; NULL at the end, where it is not asked).  pyspiel's own states are asked
 * current_player() first, which OpenSpiel documents to be kTerminalPlayerId at the end and
 * a player or chance elsewhere (open_spiel/spiel.h, State::CurrentPlayer): is_terminal() is
 * asked only of a state whose player is neither.  0, REDO or -1. */
static int info_moves(Ctx *C, Info *x, PyObject **who_obj) {
    int rc = 0;
    *who_obj = NULL;
    long who = 0;
    if (C->own) { /* pyspiel's own state: its player first (see own_player) */
        PyObject *r = ask(C, x->state, M_PLAYER, NULL, &rc);
        if (!r)
            return rc;
        *who_obj = r;
        who = PyLong_AsLong(r);
        if (who == -1 && PyErr_Occurred())
            return game_failed();
        if (who == SPIEL_TERMINAL) {
            x->who = W_NONE;
            return 0;
        }
    }
    if (!C->own || (who < 0 && who != C->chance_player)) {
        PyObject *r = ask(C, x->state, M_TERMINAL, NULL, &rc);
        if (!r)
            return rc;
        int end = PyObject_IsTrue(r);
        Py_DECREF(r);
        if (end < 0)
            return game_failed();
        if (end) {
            x->who = W_NONE;
            return 0;
        }
    }
    if (!C->own) {
        PyObject *r = ask(C, x->state, M_PLAYER, NULL, &rc);
        if (!r)
            return rc;
        *who_obj = r;
        who = PyLong_AsLong(r);
        if (who == -1 && PyErr_Occurred())
            return game_failed();
    }
    x->who = who == C->chance_player ? W_CHANCE : who == 0 ? W_MAX : W_MIN;
    x->moves = ask(C, x->state, x->who == W_CHANCE ? M_OUTCOMES : M_ACTIONS, NULL, &rc);
    if (!x->moves)
        return rc;
    if (!PyList_CheckExact(x->moves)) /* the protocol's checks of a sequence: Python's */
        return REDO;
    return 0;
}

/* x's current player where states are keyed by string: `who`, current_player()'s answer when
 * it was asked (a reference taken over), else asked here; 0, REDO or -1 */
static int info_player(Ctx *C, Info *x, PyObject *who) {
    int rc = 0;
    if (!who && !(who = ask(C, x->state, M_PLAYER, NULL, &rc)))
        return rc;
    x->cp = who;
    x->cpi = -1;
    if (PyLong_CheckExact(who)) {
        int overflow;
        long v = PyLong_AsLongAndOverflow(who, &overflow);
        if (!overflow && v >= -CP_LOW && v <= CP_HIGH)
            x->cpi = (int)(v + CP_LOW);
    }
    return 0;
}

/* x's key on the line, (tag, current_player(), str(state)), as the tree keys the entry (tag,
 * Position, None) of a game keyed by string; 0, REDO or -1. */
static int info_key(Info *x) {
    if (x->key)
        return 0;
    PyObject *text = PyObject_Str(x->state);
    if (!text)
        return game_failed();
    x->key = Py_BuildValue("(iON)", x->tag, x->cp, text);
    return x->key ? 0 : -1;
}

/* The entry of a child state (games.py, GameTree._entry): its tag where `expected` is
 * expected to move, and its children; x->state set (owned), the rest filled here. */
static int info_entry(Ctx *C, Info *x, int expected) {
    PyObject *who = NULL;
    int rc = info_moves(C, x, &who);
    if (rc || !C->by_string)
        Py_CLEAR(who);
    if (rc)
        return rc;
    Py_ssize_t moves = x->moves ? PyList_GET_SIZE(x->moves) : 0;
    if (x->who == W_CHANCE)
        x->tag = expected == W_MAX ? T_CH_MAX : T_CH_MIN;
    else if (x->who == expected || moves == 0)
        x->tag = T_DECIDE;
    else
        x->tag = T_FORCED;
    x->count = x->tag == T_FORCED ? 1 : moves;
    if (x->who == W_CHANCE && moves == 0) {
        Py_XDECREF(who);
        return REDO; /* "gave no outcome at a chance state": Python's to say */
    }
    return C->by_string ? info_player(C, x, who) : 0;
}

/* x's value as the adapter's utility() gives it: returns()[0], a finite float (an integral one
 * within 2**53, as protocol.Game.number takes it) in *v, and *integral with the integer in
 * *exact; 0, REDO (outside the rules: Python's to word) or -1 */
static int value_of(Ctx *C, const Info *x, double *v, int *integral, int64_t *exact) {
    int rc = 0;
    PyObject *r = ask(C, x->state, M_RETURNS, NULL, &rc);
    if (!r)
        return rc;
    PyObject *first = PyList_CheckExact(r) && PyList_GET_SIZE(r) > 0 ? PyList_GET_ITEM(r, 0) : NULL;
    int ok = first && PyFloat_CheckExact(first);
    double d = ok ? PyFloat_AS_DOUBLE(first) : 0.0;
    Py_DECREF(r);
    if (!ok || !isfinite(d))
        return REDO;
    *v = d;
    *integral = d == floor(d);
    if (*integral && fabs(d) > 9007199254740992.0)
        return REDO;
    if (*integral)
        *exact = (int64_t)d;
    return 0;
}

static int push64(int64_t **p, size_t *len, size_t *cap, int64_t x) {
    if (*len == *cap && grow_array(p, cap, sizeof **p) < 0)
        return -1;
    (*p)[(*len)++] = x;
    return 0;
}

/* List node n (entry x, on the line below `line_depth` ancestors): its children's entries in
 * *kids (x->count of them), numbered the next free numbers (*base the first), checked against
 * the line; as OnDemandTree.open and _list: 0, REDO or -1 (VisitLimit past max_nodes). */
static int list_node(Ctx *C, node_t n, const Info *x, Info **kids, node_t *base) {
    Py_ssize_t k = x->count;
    Info *xs = gt_calloc((size_t)k, sizeof *xs);
    if (!xs)
        return (PyErr_NoMemory(), -1);
    int rc = 0;
    if (x->tag == T_FORCED) { /* the pass: the same state, where its player decides */
        Info *y = &xs[0];
        y->state = Py_NewRef(x->state);
        y->moves = Py_XNewRef(x->moves);
        y->who = x->who;
        y->tag = T_DECIDE;
        y->count = PyList_GET_SIZE(x->moves); /* a forced move's player has moves */
        y->cp = Py_XNewRef(x->cp);
        y->cpi = x->cpi;
    } else {
        int expected = x->tag == T_CH_MAX   ? W_MAX
                       : x->tag == T_CH_MIN ? W_MIN
                       : x->who == W_MAX    ? W_MIN
                                            : W_MAX;
        for (Py_ssize_t i = 0; i < k; i++) {
            PyObject *move = PyList_GET_ITEM(x->moves, i);
            if (x->who == W_CHANCE) {
                if (!PyTuple_CheckExact(move) || PyTuple_GET_SIZE(move) != 2) {
                    rc = REDO;
                    goto done;
                }
                move = PyTuple_GET_ITEM(move, 0);
            }
            xs[i].state = ask(C, x->state, M_CHILD, move, &rc);
            if (!xs[i].state)
                goto done;
            rc = info_entry(C, &xs[i], expected);
            if (rc)
                goto done;
        }
    }
    /* numbered: the most nodes first, then the line (OnDemandTree._list) */
    node_t count = (node_t)C->nfirst;
    if (count + k > C->max_nodes) {
        PyErr_SetString(VisitLimit, "more nodes listed than allowed");
        rc = -1;
        goto done;
    }
    if (C->by_string) {
        for (Py_ssize_t i = 0; i < k; i++) {
            Info *y = &xs[i];
            if (!C->every && y->cpi >= 0 && !C->odd && !C->seen[y->tag][y->cpi])
                continue; /* no entry on the line has its tag and player */
            if ((rc = info_key(y)) != 0)
                goto done;
            int on = PySet_Contains(C->line, y->key);
            if (on) { /* the game does not end (or a key that cannot be compared) */
                rc = on < 0 ? game_failed() : REDO;
                goto done;
            }
        }
    }
    if (C->first[n] >= 0) { /* listed before (by an earlier search): its numbers stay */
        *base = C->first[n];
        *kids = xs;
        return 0;
    }
    int64_t depth = (n ? C->depth[n - 1] : 0) + 1;
    int64_t turns = 0; /* the decision nodes above the children (is_max), with chance nodes */
    if (C->with_turns)
        turns = (n ? C->turns[n - 1] : 0) + (x->who != W_CHANCE);
    C->first[n] = count;
    if (depth > C->deepest)
        C->deepest = depth;
    for (Py_ssize_t i = 0; i < k; i++)
        if (push64(&C->first, &C->nfirst, &C->capfirst, -1) < 0 ||
            push64(&C->up, &C->nup, &C->capup, n) < 0 ||
            push64(&C->depth, &C->ndepth, &C->capdepth, depth) < 0 ||
            (C->with_turns && push64(&C->turns, &C->nturns, &C->capturns, turns) < 0)) {
            rc = -1;
            goto done;
        }
    *base = count;
    *kids = xs;
    return 0;
done:
    infos_free(xs, k);
    return rc;
}

/* n's key joins the line (it is searched now); 0, REDO or -1 */
static int line_add(Ctx *C, Info *x) {
    if (!C->by_string)
        return 0;
    int rc = info_key(x);
    if (rc)
        return rc;
    if (PySet_Add(C->line, x->key) < 0)
        return -1;
    if (x->cpi >= 0)
        C->seen[x->tag][x->cpi]++;
    else
        C->odd++;
    return 0;
}

/* n, searched, leaves the line; 0 or -1 */
static int line_drop(Ctx *C, const Info *x) {
    if (!C->by_string)
        return 0;
    if (x->cpi >= 0)
        C->seen[x->tag][x->cpi]--;
    else
        C->odd--;
    return PySet_Discard(C->line, x->key) < 0 ? -1 : 0;
}

/* The context of one search; 0 or -1. */
/* the items from `from` on of the array('q') obj, pushed onto *p; 0 or -1 */
static int copy_in(PyObject *obj, size_t from, int64_t **p, size_t *len, size_t *cap) {
    Py_buffer view;
    if (borrow_array(obj, &view, "q", 0, "the nodes numbered must be arrays('%s')") < 0)
        return -1;
    const int64_t *items = view.buf;
    size_t n = (size_t)(view.len / 8);
    int rc = 0;
    for (size_t i = from; i < n && !rc; i++)
        rc = push64(p, len, cap, items[i]);
    PyBuffer_Release(&view);
    return rc;
}

/* The nodes an earlier search numbered: (first, up, depths, turns) as the tree holds them
 * (each node's, the root's first), or None; 0 or -1 */
static int numbered_before(Ctx *C, PyObject *prior) {
    if (prior == Py_None)
        return push64(&C->first, &C->nfirst, &C->capfirst, -1);
    if (!PyTuple_Check(prior) || PyTuple_GET_SIZE(prior) != 4) {
        PyErr_SetString(PyExc_TypeError, "the nodes numbered must be (first, up, depths, turns)");
        return -1;
    }
    if (copy_in(PyTuple_GET_ITEM(prior, 0), 0, &C->first, &C->nfirst, &C->capfirst) < 0 ||
        copy_in(PyTuple_GET_ITEM(prior, 1), 1, &C->up, &C->nup, &C->capup) < 0 ||
        copy_in(PyTuple_GET_ITEM(prior, 2), 1, &C->depth, &C->ndepth, &C->capdepth) < 0 ||
        (C->with_turns &&
         copy_in(PyTuple_GET_ITEM(prior, 3), 1, &C->turns, &C->nturns, &C->capturns) < 0))
        return -1;
    size_t n = C->nfirst;
    if (n == 0 || C->nup != n - 1 || C->ndepth != n - 1 || (C->with_turns && C->nturns != n - 1)) {
        PyErr_SetString(PyExc_ValueError, "the nodes numbered do not hold one item a node");
        return -1;
    }
    for (size_t i = 0; i < C->ndepth; i++)
        if (C->depth[i] > C->deepest)
            C->deepest = C->depth[i];
    return 0;
}

static int ctx_open(Ctx *C, PyObject *progress, long chance_player, int by_string, int with_turns,
                    node_t max_nodes, PyObject *prior) {
    memset(C, 0, sizeof *C);
    C->chance_player = chance_player;
    C->own = (by_string & 4) != 0;
    C->by_string = (by_string & 3) != 0;
    C->every = (by_string & 3) == 1;
    C->with_turns = with_turns;
    C->max_nodes = max_nodes;
    nl_init(&C->leaves, max_nodes > INT32_MAX);
    if (tick_open(&C->tk, progress) < 0)
        return -1;
    for (int k = 0; k < METHODS; k++)
        if (!(C->names[k] = PyUnicode_InternFromString(METHOD_NAMES[k])))
            return -1;
    if (!(C->line = PySet_New(NULL)) || !(C->weighed = PyDict_New()))
        return -1;
    if (numbered_before(C, prior) < 0)
        return -1;
    C->prior = C->nfirst;
    return 0;
}

static void ctx_close(Ctx *C) {
    tick_close(&C->tk);
    nl_free(&C->leaves);
    for (int k = 0; k < METHODS; k++) {
        Py_XDECREF(C->names[k]);
        Py_XDECREF(C->methods[k]);
    }
    Py_XDECREF(C->type);
    Py_XDECREF(C->line);
    Py_XDECREF(C->weighed);
    Py_XDECREF(C->last_probs);
    Py_XDECREF(C->last_weights);
    gt_free(C->first);
    gt_free(C->up);
    gt_free(C->depth);
    gt_free(C->turns);
}

/* The root's entry: its state and tag as the tree keyed it; 0, REDO or -1 */
static int root_entry(Ctx *C, Info *root, PyObject *state, int tag) {
    root->state = Py_NewRef(state);
    root->tag = tag;
    PyObject *who = NULL;
    int rc = info_moves(C, root, &who);
    Py_CLEAR(who);
    if (rc)
        return rc;
    Py_ssize_t moves = root->moves ? PyList_GET_SIZE(root->moves) : 0;
    root->count = tag == T_FORCED ? 1 : moves;
    /* the tag the tree gave the root says who moves there: else Python's (never so) */
    if ((tag == T_CH_MAX || tag == T_CH_MIN) != (root->who == W_CHANCE))
        return REDO;
    return C->by_string ? info_player(C, root, NULL) : 0;
}

/* (first, up, depth, turns or None, deepest) as arrays('q'): every node's first child, and
 * the nodes this search numbered; or NULL */
static PyObject *numbered(Ctx *C) {
    size_t old = C->prior - 1, fresh = C->nup - old; /* the nodes numbered by this search */
    PyObject *turns =
        C->with_turns ? make_array("q", C->turns + old, fresh * 8) : Py_NewRef(Py_None);
    PyObject *first = turns ? take_array("q", &C->first, C->nfirst * 8) : NULL;
    PyObject *up = first ? make_array("q", C->up + old, fresh * 8) : NULL;
    PyObject *depth = up ? make_array("q", C->depth + old, fresh * 8) : NULL;
    PyObject *r = depth ? Py_BuildValue("(OOOOL)", first, up, depth, turns, (long long)C->deepest)
                        : NULL;
    Py_XDECREF(turns);
    Py_XDECREF(first);
    Py_XDECREF(up);
    Py_XDECREF(depth);
    return r;
}

/* The line from the root: each node's step in the log (depthfirst._best_line, and
 * ListedRun.line), as a list; NULL with an exception */
static PyObject *pv_of(const PairLog *best) {
    int64_t *line = NULL;
    size_t len = 0, cap = 0, at = best->len;
    node_t k = 0;
    while (k >= 0) {
        if (push64(&line, &len, &cap, k) < 0) {
            gt_free(line);
            return NULL;
        }
        k = log_last(best, &at, k);
    }
    PyObject *pv = line_to_list(line, len);
    gt_free(line);
    return pv;
}

/* -- minimax, F1 and alpha-beta (fail-soft): depthfirst._negamax_on_demand ----------------- */
typedef struct {
    node_t n, base, bc;
    Info *kids;
    Py_ssize_t k, i;
    Info *self; /* n's entry (its parent's child, or the root) */
    double m, a, b, s;
} NFrame;

/* the search of a root with children: *value, the log of best children, the inner nodes
 * entered; 0, REDO or -1 */
static int negamax_run(Ctx *C, Info *root, double alpha, double beta, int deep, int prune,
                       int root_max, double *value, PairLog *best, int64_t *entered) {
    struct {
        NFrame *p;
        size_t len, cap;
    } st = {NULL, 0, 0};
    int rc = 0;
    int64_t nodes = 1;
    NFrame f = {0, 0, -1, NULL, root->count, 0, root, -INF, alpha, beta, root_max ? 1.0 : -1.0};
    if ((rc = line_add(C, root)) != 0 || (rc = list_node(C, 0, root, &f.kids, &f.base)) != 0)
        goto out;
    for (;;) {
        int down = 0;
        while (f.i < f.k) {
            if (tick(&C->tk, (int64_t)C->leaves.len) < 0) {
                rc = -1;
                goto out;
            }
            node_t c = f.base + f.i;
            Info *x = &f.kids[f.i++];
            if (x->count) { /* an inner child: searched in a frame of its own */
                NFrame g = {c, 0, -1, NULL, x->count, 0, x, -INF, -INF, INF, -f.s};
                if ((rc = line_add(C, x)) != 0 || (rc = list_node(C, c, x, &g.kids, &g.base)) != 0)
                    goto out;
                nodes++;
                if (prune) {
                    g.b = -(f.a > f.m ? f.a : f.m);
                    g.a = deep ? -f.b : -INF;
                }
                if (ROOM(st.p, st.len, st.cap) < 0) {
                    infos_free(g.kids, g.k);
                    rc = -1;
                    goto out;
                }
                st.p[st.len++] = f;
                f = g;
                down = 1;
                break;
            }
            if (nl_push(&C->leaves, c) < 0) {
                rc = -1;
                goto out;
            }
            double v;
            int64_t ignored;
            int integral;
            if ((rc = value_of(C, x, &v, &integral, &ignored)) != 0)
                goto out;
            double t = f.s * v;
            if (t > f.m) {
                f.m = t;
                f.bc = c;
                if (f.m >= f.b)
                    break;
            }
        }
        if (down)
            continue;
        /* node f.n is finished with value f.m: hand it to its parent */
        for (;;) {
            if (log_pair(best, f.n, f.bc) < 0 || line_drop(C, f.self) < 0) {
                rc = -1;
                goto out;
            }
            infos_free(f.kids, f.k);
            f.kids = NULL;
            if (!st.len) {
                *value = f.m;
                *entered = nodes;
                goto out;
            }
            double t = -f.m;
            node_t child = f.n;
            f = st.p[--st.len];
            if (t > f.m) {
                f.m = t;
                f.bc = child;
                if (f.m >= f.b)
                    continue;
            }
            break;
        }
    }
out:
    infos_free(f.kids, f.k);
    while (st.len) {
        NFrame *g = &st.p[--st.len];
        infos_free(g->kids, g->k);
    }
    gt_free(st.p);
    return rc;
}

/* Read the shared arguments: (root_state, root_tag, chance_player, by_string, with_turns,
 * root_max, max_nodes, progress) first in every call */
PyObject *gt_objects_negamax(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *state, *prior, *progress;
    int tag, by_string, with_turns, root_max, deep, prune;
    long chance_player;
    long long max_nodes;
    double alpha, beta;
    if (!PyArg_ParseTuple(args, "OilippLOddppO", &state, &tag, &chance_player, &by_string,
                          &with_turns, &root_max, &max_nodes, &prior, &alpha, &beta, &deep,
                          &prune, &progress))
        return NULL;
    Ctx C;
    Info root = {0};
    PairLog best = {NULL, 0, 0};
    PyObject *result = NULL;
    int rc = ctx_open(&C, progress, chance_player, by_string, with_turns, (node_t)max_nodes, prior);
    if (!rc)
        rc = root_entry(&C, &root, state, tag);
    if (!rc && root.count == 0)
        rc = REDO; /* a leaf at the root: Python's, one call */
    double value = 0;
    int64_t entered = 0;
    if (!rc)
        rc = negamax_run(&C, &root, alpha, beta, deep, prune, root_max, &value, &best, &entered);
    if (rc == REDO) {
        result = Py_NewRef(Py_None);
    } else if (!rc) {
        PyObject *pv = pv_of(&best);
        PyObject *leaves = pv ? nl_to_array(&C.leaves) : NULL;
        PyObject *nums = leaves ? numbered(&C) : NULL;
        if (nums)
            result = Py_BuildValue("(dNNLN)", value, pv, leaves, (long long)entered, nums);
        else {
            Py_XDECREF(pv);
            Py_XDECREF(leaves);
        }
    }
    info_clear(&root);
    gt_free(best.p);
    ctx_close(&C);
    return result;
}

/* -- expectiminimax: chance.ListedRun.full, exact ----------------------------------------- */
/* an exact value num/den (den > 0, lowest terms), both within +-2**62: beyond, the Python
 * search's Fractions (REDO) */
typedef struct {
    int64_t num, den;
} Q;

#define Q_MAX ((int64_t)1 << 62)

static int64_t gcd64(int64_t a, int64_t b) {
    if (a < 0)
        a = -a;
    while (b) {
        int64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* a * b within +-Q_MAX: 0, or 1 when it is not */
static int mul_q(int64_t a, int64_t b, int64_t *r) {
    int64_t ua = a < 0 ? -a : a, ub = b < 0 ? -b : b;
    if (ua && ub > Q_MAX / ua)
        return 1;
    *r = a * b;
    return 0;
}

/* *x = num / den in lowest terms (den > 0); 0 */
static int q_norm(Q *x, int64_t num, int64_t den) {
    int64_t g = gcd64(num, den);
    if (g > 1) {
        num /= g;
        den /= g;
    }
    x->num = num;
    x->den = den;
    return 0;
}

/* *acc += k * v; 0, or 1 past the bounds */
static int q_add_scaled(Q *acc, int64_t k, Q v) {
    int64_t kn, a, b, den;
    if (mul_q(k, v.num, &kn) || mul_q(acc->num, v.den, &a) || mul_q(kn, acc->den, &b) ||
        mul_q(acc->den, v.den, &den))
        return 1;
    if ((a > 0 && b > Q_MAX - a) || (a < 0 && b < -Q_MAX - a))
        return 1;
    return q_norm(acc, a + b, den);
}

/* a > b (gt) or a < b: compared through a.num * b.den against b.num * a.den; -1 past the
 * bounds */
static int q_beats(Q a, Q b, int is_max) {
    int64_t l, r;
    if (mul_q(a.num, b.den, &l) || mul_q(b.num, a.den, &r))
        return -1;
    return is_max ? l > r : l < r;
}

typedef struct {
    node_t n, base, best;
    Info *self; /* n's entry (its parent's child, or the root) */
    Info *kids;
    Py_ssize_t k, i;
    int chance, is_max, has;
    Q acc;            /* a chance node's weighted sum so far, a decision node's m */
    PyObject *scaled; /* a chance node's weights over their common denominator (a tuple) */
    int64_t scale;
} EFrame;

/* f's weights from `got`, compiled.chance_weights's answer: (scaled, scale), each int within
 * Q_MAX, or None beyond them (REDO); 0, REDO or -1 */
static int weights_from(EFrame *f, PyObject *got) {
    if (got == Py_None)
        return REDO;
    f->scaled = Py_NewRef(PyTuple_GET_ITEM(got, 0));
    f->scale = PyLong_AsLongLong(PyTuple_GET_ITEM(got, 1));
    return f->scale == -1 && PyErr_Occurred() ? -1 : 0;
}

/* a chance node's weights (ListedRun.weighed): from its outcomes' probabilities, by
 * compiled.chance_weights once for each list; 0, REDO or -1 */
static int weights_of(Ctx *C, const Info *x, EFrame *f) {
    Py_ssize_t k = x->count;
    /* the odds of the chance node before, as floats of the same values: its answer (a game's
     * chance nodes mostly give one list; this spares making and hashing the key) */
    PyObject *last = C->last_probs;
    int same = last && PyTuple_GET_SIZE(last) == k;
    for (Py_ssize_t i = 0; same && i < k; i++) {
        PyObject *p = PyTuple_GET_ITEM(PyList_GET_ITEM(x->moves, i), 1);
        PyObject *q = PyTuple_GET_ITEM(last, i);
        same = PyFloat_CheckExact(p) && PyFloat_CheckExact(q) &&
               PyFloat_AS_DOUBLE(p) == PyFloat_AS_DOUBLE(q);
    }
    if (same)
        return weights_from(f, C->last_weights);
    PyObject *probs = PyTuple_New(k);
    if (!probs)
        return -1;
    for (Py_ssize_t i = 0; i < k; i++) {
        PyObject *p = PyTuple_GET_ITEM(PyList_GET_ITEM(x->moves, i), 1);
        if (!PyFloat_CheckExact(p) && !PyLong_CheckExact(p)) {
            Py_DECREF(probs);
            return REDO; /* the protocol reads other numbers: Python's */
        }
        PyTuple_SET_ITEM(probs, i, Py_NewRef(p));
    }
    PyObject *got = PyDict_GetItemWithError(C->weighed, probs);
    if (got) {
        Py_INCREF(got);
    } else if (PyErr_Occurred()) {
        Py_DECREF(probs);
        return -1;
    } else {
        got = PyObject_CallOneArg(C->weigh, probs);
        if (!got) {
            Py_DECREF(probs);
            return game_failed();
        }
        if (PyDict_SetItem(C->weighed, probs, got) < 0) {
            Py_DECREF(probs);
            Py_DECREF(got);
            return -1;
        }
    }
    Py_XSETREF(C->last_probs, probs);
    Py_XSETREF(C->last_weights, got);
    return weights_from(f, got);
}

/* the PV's step through a chance node (pv.likeliest_outcome): its most probable outcome, the
 * leftmost of equals; -1 with an exception */
static node_t likeliest(const EFrame *f) {
    node_t pick = -1;
    int64_t top = -1;
    for (Py_ssize_t i = 0; i < f->k; i++) {
        int64_t w = PyLong_AsLongLong(PyTuple_GET_ITEM(f->scaled, i));
        if (w == -1 && PyErr_Occurred())
            return -1;
        if (w > top) {
            top = w;
            pick = f->base + i;
        }
    }
    return pick;
}

static int efree(EFrame *f) {
    infos_free(f->kids, f->k);
    f->kids = NULL;
    Py_CLEAR(f->scaled);
    return 0;
}

/* enter node n (entry x): its frame, its children listed; 0, REDO or -1 */
static int e_enter(Ctx *C, EFrame *f, node_t n, Info *x, int root_max) {
    memset(f, 0, sizeof *f);
    f->n = n;
    f->self = x;
    f->k = x->count;
    f->best = -1;
    f->chance = x->who == W_CHANCE;
    f->acc = (Q){0, 1};
    f->has = f->chance;
    /* Tree.is_max: the decision nodes above n, or its depth where there is no chance node */
    int64_t above = !n ? 0 : C->with_turns ? C->turns[n - 1] : C->depth[n - 1];
    f->is_max = root_max == (above % 2 == 0);
    int rc = line_add(C, x);
    if (!rc)
        rc = list_node(C, n, x, &f->kids, &f->base);
    if (!rc && f->chance)
        rc = weights_of(C, x, f);
    return rc;
}

/* the value of a finished frame (chance: the sum over the common denominator) */
static int e_value(const EFrame *f, Q *v) {
    if (!f->chance) {
        *v = f->acc;
        return 0;
    }
    int64_t den;
    if (mul_q(f->acc.den, f->scale, &den))
        return 1;
    return q_norm(v, f->acc.num, den);
}

/* child value v of f */
static int e_take(EFrame *f, node_t c, Q v) {
    if (f->chance) {
        PyObject *w = PyTuple_GET_ITEM(f->scaled, f->i - 1);
        int64_t k = PyLong_AsLongLong(w);
        if (k == -1 && PyErr_Occurred())
            return -1;
        return q_add_scaled(&f->acc, k, v) ? REDO : 0;
    }
    int beats = f->has ? q_beats(v, f->acc, f->is_max) : 1;
    if (beats < 0)
        return REDO;
    if (beats) {
        f->acc = v;
        f->best = c;
        f->has = 1;
    }
    return 0;
}

static int emm_run(Ctx *C, Info *root, int root_max, Q *value, PairLog *best, int64_t *entered) {
    struct {
        EFrame *p;
        size_t len, cap;
    } st = {NULL, 0, 0};
    EFrame f;
    int rc = e_enter(C, &f, 0, root, root_max);
    int64_t nodes = 1;
    while (!rc) {
        int down = 0;
        while (f.i < f.k) {
            if (tick(&C->tk, (int64_t)C->leaves.len) < 0) {
                rc = -1;
                goto out;
            }
            node_t c = f.base + f.i;
            Info *x = &f.kids[f.i++];
            if (x->count) {
                if (ROOM(st.p, st.len, st.cap) < 0) {
                    rc = -1;
                    goto out;
                }
                st.p[st.len++] = f;
                memset(&f, 0, sizeof f);
                rc = e_enter(C, &f, c, x, root_max);
                if (rc)
                    goto out;
                nodes++;
                down = 1;
                break;
            }
            if (nl_push(&C->leaves, c) < 0) {
                rc = -1;
                goto out;
            }
            double v;
            Q q = {0, 1};
            int integral;
            if ((rc = value_of(C, x, &v, &integral, &q.num)) != 0)
                goto out;
            if (!integral) { /* exact(v), the decimal it prints as: Python's Fractions */
                rc = REDO;
                goto out;
            }
            if ((rc = e_take(&f, c, q)) != 0)
                goto out;
        }
        if (down)
            continue;
        for (;;) {
            Q v;
            if (e_value(&f, &v)) {
                rc = REDO;
                goto out;
            }
            /* the PV's step from f.n: its best child, or its likeliest outcome */
            node_t step = f.chance ? likeliest(&f) : f.best;
            if (step < 0 || log_pair(best, f.n, step) < 0 || line_drop(C, f.self) < 0) {
                rc = -1;
                goto out;
            }
            node_t child = f.n;
            efree(&f);
            if (!st.len) {
                *value = v;
                *entered = nodes;
                goto out;
            }
            f = st.p[--st.len];
            if ((rc = e_take(&f, child, v)) != 0)
                goto out;
            break;
        }
    }
out:
    efree(&f);
    while (st.len)
        efree(&st.p[--st.len]);
    gt_free(st.p);
    return rc;
}

PyObject *gt_objects_expectiminimax(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *state, *prior, *progress, *weigh;
    int tag, by_string, with_turns, root_max;
    long chance_player;
    long long max_nodes;
    if (!PyArg_ParseTuple(args, "OilippLOOO", &state, &tag, &chance_player, &by_string,
                          &with_turns, &root_max, &max_nodes, &prior, &weigh, &progress))
        return NULL;
    Ctx C;
    Info root = {0};
    PairLog best = {NULL, 0, 0};
    PyObject *result = NULL;
    int rc = ctx_open(&C, progress, chance_player, by_string, with_turns, (node_t)max_nodes, prior);
    C.weigh = weigh;
    if (!rc)
        rc = root_entry(&C, &root, state, tag);
    if (!rc && root.count == 0)
        rc = REDO;
    Q value = {0, 1};
    int64_t entered = 0;
    if (!rc)
        rc = emm_run(&C, &root, root_max, &value, &best, &entered);
    if (rc == REDO) {
        result = Py_NewRef(Py_None);
    } else if (!rc) {
        PyObject *pv = pv_of(&best);
        PyObject *leaves = pv ? nl_to_array(&C.leaves) : NULL;
        PyObject *nums = leaves ? numbered(&C) : NULL;
        if (nums)
            result = Py_BuildValue("(LLNNLN)", (long long)value.num, (long long)value.den, pv,
                                   leaves, (long long)entered, nums);
        else {
            Py_XDECREF(pv);
            Py_XDECREF(leaves);
        }
    }
    info_clear(&root);
    gt_free(best.p);
    ctx_close(&C);
    return result;
}
