/* The transposition table: gtsearch.algorithms.table, slot for slot.
 *
 * MIB mebibytes hold MIB * 32,768 entries of 32 bytes in buckets of two; a key (an int >= 0:
 * a node, or a game's position number) goes to bucket key mod buckets; the first entry of a
 * bucket keeps the deeper draft, the second the last store (two-tier: Breuker, Uiterwijk &
 * van den Herik 1994).  Python keeps the entries in a dict by slot number; here they are the
 * array itself, so every slot and so every count is the same.  The counters are the Python
 * Table's, `used` kept as stores fill slots.
 *
 * The memory is kept for the next table, as a game program keeps its table from one search to
 * the next: the first touch of each page of a fresh block is a page fault (a table of 16 MiB:
 * 4,096 of them, some 8 ms on the machine of docs/development.md, where alpha-beta searches
 * a b=4 d=10 tree in 0.5 ms), a kept one costs nothing.  Each table that takes a kept block
 * is its next generation, and every entry carries the generation that wrote it: the entries
 * of the tables before are empty to it, with no clearing (the block is zeroed only when the
 * 16-bit generation wraps round).  KEPT blocks are kept (keep_tables(n): n of them, for the
 * tests and for a process that would rather give its memory back): a search's table and
 * those of the PV's uncounted searches, opened while it is open; a table opened while they are
 * all in use (by a search another thread starts while this one lets the interpreter go at a
 * tick) gets a block of its own.
 */
#include "core.h"

#define KEPT 3
static int keeping = KEPT; /* the blocks kept (keep_tables) */
static struct {
    TTEntry *slots;
    uint64_t buckets;
    uint16_t gen; /* the generation of the last table that took it */
    int busy;
} kept[KEPT];

void tt_size(Table *t, uint64_t buckets) {
    memset(t, 0, sizeof *t);
    t->buckets = buckets ? buckets : 1;
    t->mask = t->buckets & (t->buckets - 1) ? 0 : t->buckets - 1;
    t->own = -1;
}

int tt_init(Table *t, uint64_t buckets) {
    tt_size(t, buckets);
    t->gen = 1; /* a fresh block is zeroed: generation 0 */
    int k = -1;  /* a free kept block: one large enough, else any */
    for (int i = 0; i < keeping; i++)
        if (!kept[i].busy && (k < 0 || kept[i].buckets >= t->buckets))
            k = i;
    if (k >= 0 && kept[k].buckets < t->buckets) {
        gt_free(kept[k].slots);
        kept[k].buckets = kept[k].gen = 0;
        if (!(kept[k].slots = gt_calloc(2 * t->buckets, sizeof(TTEntry)))) {
            PyErr_NoMemory();
            return -1;
        }
        kept[k].buckets = t->buckets;
    }
    if (k < 0) {
        if (!(t->slots = gt_calloc(2 * t->buckets, sizeof(TTEntry)))) {
            PyErr_NoMemory();
            return -1;
        }
        return 0;
    }
    if (++kept[k].gen == 0) { /* round: every generation's entries are gone */
        memset(kept[k].slots, 0, 2 * kept[k].buckets * sizeof(TTEntry));
        kept[k].gen = 1;
    }
    kept[k].busy = 1;
    t->own = k;
    t->gen = kept[k].gen;
    t->slots = kept[k].slots;
    return 0;
}

void tt_free(Table *t) {
    if (t->own >= 0)
        kept[t->own].busy = 0;
    else
        gt_free(t->slots);
    t->slots = NULL;
}

void tt_forget(void) {
    for (int i = 0; i < KEPT; i++)
        if (!kept[i].busy) {
            gt_free(kept[i].slots);
            kept[i].slots = NULL;
            kept[i].buckets = kept[i].gen = 0;
        }
}

PyObject *gt_release_tables(PyObject *self, PyObject *args) {
    (void)self;
    (void)args;
    tt_forget();
    Py_RETURN_NONE;
}

PyObject *gt_keep_tables(PyObject *self, PyObject *args) {
    (void)self;
    int n, was = keeping;
    if (!PyArg_ParseTuple(args, "i", &n))
        return NULL;
    if (n < 0 || n > KEPT) {
        PyErr_Format(PyExc_ValueError, "keep_tables takes 0 to %d blocks, got %d", KEPT, n);
        return NULL;
    }
    PyObject *former = PyLong_FromLong(was); /* made first: on failure nothing changed */
    if (!former)
        return NULL;
    keeping = n;
    tt_forget(); /* the blocks beyond n, and the others too: they come back as needed */
    return former;
}

PyObject *tt_counts(const Table *t) {
    return Py_BuildValue("(LLLLLLL)", (long long)t->probes, (long long)t->hits,
                         (long long)t->cuts, (long long)t->orders, (long long)t->stores,
                         (long long)t->overwrites, (long long)t->used);
}
