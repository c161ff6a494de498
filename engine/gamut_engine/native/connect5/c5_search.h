/* Alpha-beta below the root (c5_search.c). */
#ifndef GAMUT_C5_SEARCH_H
#define GAMUT_C5_SEARCH_H

#include "c5.h"

#define MAX_PLY 200

typedef struct {
    uint64_t key;
    int16_t depth;
    int8_t flag;
    int16_t move;
    int32_t score; /* a win or loss relative to the entry's own position */
} Entry;

/* What search/nodes.py's Counters count, summed over one call. */
typedef struct {
    long nodes, evals[2], cutoffs[2], tt_hits, tt_cutoffs;
    int max_ply;
} Stats;

typedef struct {
    Position *p;
    Solver *solver; /* its VCF at the horizon of a timed search */
    Entry *table; /* one entry a slot, always replaced */
    uint32_t table_mask;
    int max_plies, root_side, exact, extension_limit;
    int threats; /* timed, not exact: wins by fours looked for at the horizon */
    long node_limit; /* 0 for none */
    Clock clock;
    Stats stats;
    int history[MAX_CELLS];        /* kept over the iterations of one search */
    int16_t killers[MAX_PLY][2];   /* likewise */
    uint8_t won[MAX_PLY];          /* whether the stone that reached each ply made five */
    int16_t pv[MAX_PLY][MAX_PLY];
    int pv_length[MAX_PLY];
    /* The root's progress, kept when a limit cuts the iteration short. */
    int searched, best_move, best_score, best_pv_length;
    int16_t best_pv[MAX_PLY];
} Search;

int search_init(Search *s, Position *p, int table_bits);
void search_free(Search *s);
void search_clear(Search *s);
void search_new_run(Search *s);
int search_root(Search *s, int depth, const int16_t *moves, int n, double deadline);

#endif
