/* Victory by continuous fours (VCF) and by threes and fours (VCT), depth first.
 *
 * A line-for-line port of ThreatSolver in connect5_threats.py; see its docstrings for
 * the reasoning. Its table is keyed by the stones' Zobrist key mixed with the kind of
 * search and the attacker, where Python keys it by the stones themselves.
 */
#define _DEFAULT_SOURCE /* mmap's MAP_ANONYMOUS, madvise */
#include "c5.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static const uint64_t KIND_SALT[4] = {
    0x9E3779B97F4A7C15ULL, 0xC2B2AE3D27D4EB4FULL, 0x165667B19E3779F9ULL, 0xD6E8FEB86659FD93ULL};

#define HUGE_PAGE ((size_t)2 << 20)

/* The tables are read at random, a cache miss and often a TLB miss a look-up: on 2 MB
 * pages (where the kernel grants them on request) the TLB covers them, and their first
 * touch faults once per 2 MB instead of once per 4 kB. The block is aligned to 2 MB by
 * mapping 2 MB more and giving back both ends, then touched page by page at once: the
 * kernel's zeroing of the pages (3 to 35 ms for a core's tables on a busy machine) is
 * paid when the core is made, not by whichever search first reaches a page. */
void *big_alloc(size_t bytes)
{
    bytes = (bytes + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
    char *mapped = mmap(NULL, bytes + HUGE_PAGE, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mapped == MAP_FAILED)
        return NULL;
    size_t lead = (HUGE_PAGE - (uintptr_t)mapped % HUGE_PAGE) % HUGE_PAGE;
    if (lead)
        munmap(mapped, lead);
    if (HUGE_PAGE - lead)
        munmap(mapped + lead + bytes, HUGE_PAGE - lead);
#ifdef MADV_HUGEPAGE
    madvise(mapped + lead, bytes, MADV_HUGEPAGE);
#endif
    volatile char *block = mapped + lead;
    for (size_t at = 0; at < bytes; at += 4096)
        block[at] = 0;
    return mapped + lead;
}

void big_free(void *block, size_t bytes)
{
    if (block)
        munmap(block, (bytes + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1));
}

int table_init(IntTable *t, int bits)
{
    t->mask = (1u << bits) - 1;
    t->count = 0;
    t->slots = big_alloc(((size_t)t->mask + 1) * sizeof(Slot));
    return t->slots ? 0 : -1;
}

void table_free(IntTable *t)
{
    big_free(t->slots, ((size_t)t->mask + 1) * sizeof(Slot));
    t->slots = NULL;
}

void table_clear(IntTable *t)
{
    memset(t->slots, 0, ((size_t)t->mask + 1) * sizeof(Slot));
    t->count = 0;
}

static Slot *slot_of(const IntTable *t, uint64_t key)
{
    uint32_t at = (uint32_t)(key >> 32) & t->mask;
    while (t->slots[at].key && t->slots[at].key != key)
        at = (at + 1) & t->mask;
    return &t->slots[at];
}

int table_get(const IntTable *t, uint64_t key, int32_t *value)
{
    Slot *slot = slot_of(t, key | 1); /* never 0, the mark of a free slot */
    if (!slot->key)
        return 0;
    *value = slot->value;
    return 1;
}

void table_put(IntTable *t, uint64_t key, int32_t value)
{
    key |= 1;
    if (t->count >= t->mask - t->mask / 4)
        table_clear(t); /* three quarters full: start afresh rather than crawl */
    Slot *slot = slot_of(t, key);
    if (!slot->key) {
        slot->key = key;
        t->count++;
    }
    slot->value = value;
}

void clock_check(const Clock *clock)
{
    if (clock->deadline != INFINITY && c5_now() >= clock->deadline)
        longjmp(*clock->escape, 1);
}

static int defend(Solver *s, int side, int depth, int kind);

/* The attacker has just been answered: does it still win? (connect5_threats._after_reply) */
static int after_reply(Solver *s, int side, int depth, int kind, int defender_made_five)
{
    if (defender_made_five)
        return 0;
    return solver_attack(s, side, depth, kind) != NONE;
}

/* Try the attacker's fours, then (VCT) its threes; the first that wins. */
static int attack_moves(Solver *s, int side, int depth, int kind)
{
    Position *p = s->p;
    int16_t cells[MAX_CELLS];
    Bits their_wins = p->sets[1 - side][ANY_WIN];
    int count = bits_count(&their_wins);
    if (count >= 2)
        return NONE;
    if (count) {
        /* The defender threatens five: block it, and go on only if a threat is left. */
        int cell = bits_first(&their_wins);
        place(p, cell, side);
        int wins = defend(s, side, depth - 1, kind);
        lift(p, cell, side);
        return wins ? cell : NONE;
    }
    Bits fours = p->sets[side][ANY_FOUR], threes = p->sets[side][ANY_THREE];
    int n = bits_cells(&fours, cells);
    for (int i = 0; i < n; i++) {
        place(p, cells[i], side);
        int wins = defend(s, side, depth - 1, kind);
        lift(p, cells[i], side);
        if (wins)
            return cells[i];
    }
    if (kind == VCF)
        return NONE;
    threes = bits_andnot(threes, fours);
    if (depth < 3) {
        /* A three needs three more stones: the three, the open four and the five. */
        s->cut = s->cut || bits_any(&threes);
        return NONE;
    }
    Bits doubles = bits_and(p->sets[side][FORK], threes), singles = bits_andnot(threes, doubles);
    n = bits_cells(&doubles, cells); /* threes along a second line first: they win most */
    n += bits_cells(&singles, cells + n);
    for (int i = 0; i < n; i++) {
        place(p, cells[i], side);
        Bits threat = winning(p, side);
        int wins = bits_any(&threat) && defend(s, side, depth - 1, kind);
        lift(p, cells[i], side);
        if (wins)
            return cells[i];
    }
    return NONE;
}

int solver_attack(Solver *s, int side, int depth, int kind)
{
    Position *p = s->p;
    s->nodes++;
    tick(&s->clock);
    if (bits_any(&p->sets[side][ANY_WIN]))
        return bits_first(&p->sets[side][ANY_WIN]);
    if (depth < 2) {
        s->cut = s->cut || bits_any(&p->sets[side][ANY_FOUR]) ||
                 (kind == VCT && bits_any(&p->sets[side][ANY_THREE]));
        return NONE;
    }
    uint64_t key = p->stones_key ^ KIND_SALT[2 * kind + side];
    int32_t known;
    if (table_get(&s->table, key, &known) && (known >= 0 || -known >= depth)) {
        if (known < 0) {
            s->cut = s->cut || known != -NO_WIN;
            return NONE;
        }
        return known;
    }
    int outer = s->cut;
    s->cut = 0;
    int move = attack_moves(s, side, depth, kind);
    table_put(&s->table, key, move != NONE ? move : s->cut ? -depth : -NO_WIN);
    s->cut = outer || s->cut;
    return move;
}

/* Whether ``side``, having just moved, wins against every reply of the other. */
static int defend(Solver *s, int side, int depth, int kind)
{
    Position *p = s->p;
    int enemy = 1 - side;
    int16_t cells[MAX_CELLS];
    if (bits_any(&p->sets[enemy][ANY_WIN]))
        return 0;
    Bits wins = p->sets[side][ANY_WIN];
    if (bits_any(&wins)) {
        if (bits_count(&wins) >= 2)
            return 1;
        int block = bits_first(&wins);
        int made_five = place(p, block, enemy);
        int result = after_reply(s, side, depth, kind, made_five);
        lift(p, block, enemy);
        return result;
    }
    Bits threat = winning(p, side);
    if (kind == VCF || !bits_any(&threat))
        return 0;
    if (depth < 2) {
        s->cut = 1;
        return 0;
    }
    int outer = s->cut; /* the counter-attack is searched to a fixed depth */
    int counter = solver_attack(s, enemy, COUNTER_VCF_DEPTH, VCF);
    s->cut = outer;
    if (counter != NONE)
        return 0; /* the defender answers the three with fours of its own that win */
    Bits replies = bits_or(defence_cells(p, side), p->sets[enemy][ANY_FOUR]);
    int n = bits_cells(&replies, cells);
    for (int i = 0; i < n; i++) {
        int made_five = place(p, cells[i], enemy);
        int result = after_reply(s, side, depth, kind, made_five);
        lift(p, cells[i], enemy);
        if (!result)
            return 0;
    }
    return 1;
}

int solver_solve(Solver *s, int side, int depth, int kind, double deadline)
{
    jmp_buf escape;
    if (s->table.count > SOLVER_TABLE_LIMIT)
        table_clear(&s->table);
    clock_start(&s->clock, deadline, &escape);
    s->timed_out = 0;
    s->cut = 0;
    if (setjmp(escape)) {
        s->timed_out = 1; /* the position is left mid-search: the caller reloads it */
        return NONE;
    }
    return solver_attack(s, side, depth, kind);
}

static const int VCF_DEPTHS[] = {3, 6, 10, 20};

int solver_winning_move(Solver *s, int side, double deadline, int *plies)
{
    s->timed_out = 0;
    for (int kind = VCF; kind <= VCT; kind++) {
        int first = kind == VCF ? 0 : 3, last = kind == VCF ? 3 : 15;
        for (int k = first; k <= last; k++) {
            int depth = kind == VCF ? VCF_DEPTHS[k] : k;
            if (s->timed_out)
                return NONE;
            int move = solver_solve(s, side, depth, kind, deadline);
            if (move != NONE) {
                *plies = 2 * depth - 1;
                return move;
            }
            if (!s->cut && !s->timed_out)
                break; /* no depth limit was met: deeper searches would find nothing more */
        }
    }
    return NONE;
}

int solver_move_wins(Solver *s, int side, int move, int stones, double deadline, int *result)
{
    jmp_buf escape;
    clock_start(&s->clock, deadline, &escape);
    if (setjmp(escape))
        return -1;
    place(s->p, move, side);
    *result = defend(s, side, stones - 1, VCT);
    lift(s->p, move, side);
    return 0;
}
