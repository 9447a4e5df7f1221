/* The transposition table: gtsearch.algorithms.table, slot for slot.
 *
 * MIB mebibytes hold MIB * 32,768 entries of 32 bytes in buckets of two; a key (an int >= 0:
 * a node, or a game's position number) goes to bucket splitmix64(key) mod buckets; the first
 * entry of a bucket keeps the deeper draft, the second the last store (two-tier: Breuker,
 * Uiterwijk & van den Herik 1994).  Python keeps the entries in a dict by slot number; here
 * they are a Map of the buckets stored into (core.h), so every slot and so every count is the
 * same.  The counters are the Python Table's, `used` kept as stores fill slots.
 */
#include "core.h"

int tt_init(Table *t, uint64_t buckets) {
    memset(t, 0, sizeof *t);
    t->buckets = buckets ? buckets : 1;
    return map_init(&t->buckets_used, 2 * sizeof(TTEntry));
}

void tt_free(Table *t) { map_free(&t->buckets_used); }

int tt_store(Table *t, int64_t key, double lo, double hi, int32_t draft, int32_t move) {
    t->stores++;
    TTEntry *first = map_put(&t->buckets_used, tt_bucket(t, key), NULL);
    if (!first)
        return -1;
    TTEntry *second = first + 1;
    const uint64_t k1 = (uint64_t)key + 1;
    for (TTEntry *e = first; e <= second; e++)
        if (e->key1 == k1) {
            if (e->draft == draft) { /* merged: both bounds hold (Python's max() and min()) */
                if (e->lo > lo)
                    lo = e->lo;
                if (e->hi < hi)
                    hi = e->hi;
                if (move < 0)
                    move = e->move;
            }
            *e = (TTEntry){k1, lo, hi, draft, move};
            return 0;
        }
    const TTEntry fresh = {k1, lo, hi, draft, move};
    if (!first->key1 || first->draft <= draft) {
        if (first->key1) {
            if (second->key1)
                t->overwrites++;
            else
                t->used++;
            *second = *first;
        } else
            t->used++;
        *first = fresh;
    } else {
        if (second->key1)
            t->overwrites++;
        else
            t->used++;
        *second = fresh;
    }
    return 0;
}

PyObject *tt_counts(const Table *t) {
    return Py_BuildValue("(LLLLLLL)", (long long)t->probes, (long long)t->hits,
                         (long long)t->cuts, (long long)t->orders, (long long)t->stores,
                         (long long)t->overwrites, (long long)t->used);
}
