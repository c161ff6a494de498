/* Proof-number search (df-pn) over the threat tree: a port of connect5_proof.py.
 *
 * Nodes live in a pool, found through a table keyed by the stones' key mixed with the
 * node's code (kind, attacker, whose move) and its depth; their children's moves live
 * in a second pool. Either pool running out ends the search as "full", as Python's
 * bounded table does.
 */
#include "c5.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define INFINITE_NUMBER (1LL << 40)
#define SLACK 4
#define THREE_PROOF 2
#define POOL_PER_NODE 32

static const uint64_t CODE_SALT[8] = {
    0x243F6A8885A308D3ULL, 0x13198A2E03707344ULL, 0xA4093822299F31D0ULL, 0x082EFA98EC4E6C89ULL,
    0x452821E638D01377ULL, 0xBE5466CF34E90C6CULL, 0xC0AC29B7C97C50DDULL, 0x3F84D5B5B5470917ULL};

static uint64_t node_key(uint64_t stones_key, int code, int depth)
{
    return stones_key ^ CODE_SALT[code] ^ ((uint64_t)depth * 0x9E3779B97F4A7C15ULL);
}

static uint64_t win_key(uint64_t stones_key, int code)
{
    return stones_key ^ CODE_SALT[code & 3] * 3;
}

int proof_init(Proof *f, Solver *s, int node_limit)
{
    int bits = 1;
    while ((1 << bits) < 2 * node_limit)
        bits++;
    f->solver = s;
    f->node_limit = node_limit;
    f->node_count = 0;
    f->pool_limit = node_limit * POOL_PER_NODE;
    f->pool_used = 0;
    f->nodes = malloc(sizeof(Node) * (size_t)node_limit);
    f->pool = malloc(sizeof(int16_t) * (size_t)f->pool_limit);
    f->visited = 0;
    if (!f->nodes || !f->pool || table_init(&f->index, bits) || table_init(&f->wins, bits))
        return -1;
    return 0;
}

void proof_free(Proof *f)
{
    free(f->nodes);
    free(f->pool);
    table_free(&f->index);
    table_free(&f->wins);
}

static Node *lookup(Proof *f, uint64_t key)
{
    int32_t at;
    return table_get(&f->index, key, &at) ? &f->nodes[at] : NULL;
}

static Node settled(int64_t pn, int64_t dn, int stones)
{
    return (Node){pn, dn, NONE, 0, 0, (int16_t)stones};
}

static Node open_node(Proof *f, const int16_t *cells, int count, int forcing)
{
    if (f->pool_used + count > f->pool_limit)
        longjmp(*f->clock.escape, 2);
    int32_t first = f->pool_used;
    for (int i = 0; i < count; i++)
        f->pool[f->pool_used++] = cells[i];
    return (Node){1, 1, first, (int16_t)count, (int16_t)forcing, 0};
}

static void record_win(Proof *f, uint64_t stones_key, int code, int move, int stones)
{
    table_put(&f->wins, win_key(stones_key, code), move | stones << 16);
}

static Node attacker_node(Proof *f, int code, int depth)
{
    Position *p = f->solver->p;
    int side = code & 1, kind = (code >> 1) & 1;
    int16_t cells[MAX_CELLS];
    if (bits_any(&p->sets[side][ANY_WIN])) {
        record_win(f, p->stones_key, code, bits_first(&p->sets[side][ANY_WIN]), 1);
        return settled(0, INFINITE_NUMBER, 1);
    }
    int32_t known;
    if (table_get(&f->wins, win_key(p->stones_key, code), &known) && known >> 16 <= depth)
        return settled(0, INFINITE_NUMBER, known >> 16);
    Bits their_wins = p->sets[1 - side][ANY_WIN];
    if (depth < 2 || bits_count(&their_wins) >= 2)
        return settled(INFINITE_NUMBER, 0, 0);
    if (bits_any(&their_wins)) {
        cells[0] = (int16_t)bits_first(&their_wins);
        return open_node(f, cells, 1, 1);
    }
    Bits fours = p->sets[side][ANY_FOUR];
    int n = bits_cells(&fours, cells), forcing = n;
    Bits threes = bits_andnot(p->sets[side][ANY_THREE], fours);
    if (kind == VCT && depth >= 3 && bits_any(&threes)) {
        Bits doubles = bits_and(p->sets[side][FORK], threes);
        Bits singles = bits_andnot(threes, doubles);
        n += bits_cells(&doubles, cells + n);
        n += bits_cells(&singles, cells + n);
    }
    return n ? open_node(f, cells, n, forcing) : settled(INFINITE_NUMBER, 0, 0);
}

static Node defender_node(Proof *f, int code, int depth)
{
    Solver *s = f->solver;
    Position *p = s->p;
    int side = code & 1, kind = (code >> 1) & 1, enemy = 1 - side;
    int16_t cells[MAX_CELLS];
    if (bits_any(&p->sets[enemy][ANY_WIN]))
        return settled(INFINITE_NUMBER, 0, 0);
    Bits wins = p->sets[side][ANY_WIN];
    if (bits_any(&wins)) {
        if (bits_count(&wins) >= 2)
            return settled(0, INFINITE_NUMBER, 1);
        cells[0] = (int16_t)bits_first(&wins);
        return open_node(f, cells, 1, 1);
    }
    Bits threat = winning(p, side);
    if (kind == VCF || !bits_any(&threat) || depth < 2)
        return settled(INFINITE_NUMBER, 0, 0);
    int outer = s->cut;
    int counter = solver_attack(s, enemy, COUNTER_VCF_DEPTH, VCF);
    s->cut = outer;
    if (counter != NONE)
        return settled(INFINITE_NUMBER, 0, 0);
    Bits replies = bits_or(defence_cells(p, side), p->sets[enemy][ANY_FOUR]);
    int n = bits_cells(&replies, cells);
    /* No reply takes the threat away: the open four and the five are two more stones. */
    return n ? open_node(f, cells, n, n) : settled(0, INFINITE_NUMBER, 2);
}

static Node *expand(Proof *f, uint64_t key, int code, int depth)
{
    if (f->node_count >= f->node_limit)
        longjmp(*f->clock.escape, 2);
    Node node = code & 4 ? attacker_node(f, code, depth) : defender_node(f, code, depth);
    f->nodes[f->node_count] = node;
    table_put(&f->index, key, f->node_count);
    return &f->nodes[f->node_count++];
}

static int64_t cap(int64_t number) { return number < INFINITE_NUMBER ? number : INFINITE_NUMBER; }

static int64_t beyond(int64_t second) { return cap(second + 1 + second / SLACK); }

/* Set a node's numbers from its children's; the best child and the second-best number.
 * ``children`` caches each child's entry: an entry once made stays where it is until the
 * next search, so only the children not yet made are looked up again. */
static int update(Proof *f, Node *node, const uint64_t *keys, Node **children, int attacker,
                  int64_t *second)
{
    int best = 0;
    int64_t best_value = INFINITE_NUMBER + 1, runner_up = INFINITE_NUMBER, total = 0;
    for (int i = 0; i < node->count; i++) {
        Node *child = children[i] ? children[i] : (children[i] = lookup(f, keys[i]));
        int64_t pn = child ? child->pn : i < node->forcing ? 1 : THREE_PROOF;
        int64_t dn = child ? child->dn : 1;
        int64_t value = attacker ? pn : dn, other = attacker ? dn : pn;
        total += other;
        if (value < best_value) {
            runner_up = best_value;
            best = i;
            best_value = value;
        } else if (value < runner_up) {
            runner_up = value;
        }
    }
    if (attacker) {
        node->pn = best_value;
        node->dn = cap(total);
    } else {
        node->pn = cap(total);
        node->dn = best_value;
    }
    *second = runner_up < INFINITE_NUMBER ? runner_up : INFINITE_NUMBER;
    return best;
}

static void record_proof(Proof *f, Node *node, int code, const uint64_t *keys, int best)
{
    Position *p = f->solver->p;
    if (code & 4) {
        node->stones = (int16_t)(1 + lookup(f, keys[best])->stones);
        record_win(f, p->stones_key, code, f->pool[node->children + best], node->stones);
        return;
    }
    int most = 0;
    for (int i = 0; i < node->count; i++) {
        int stones = lookup(f, keys[i])->stones;
        most = stones > most ? stones : most;
    }
    node->stones = (int16_t)most;
}

static void search(Proof *f, int code, int depth, int64_t proof, int64_t disproof)
{
    Position *p = f->solver->p;
    uint64_t key = node_key(p->stones_key, code, depth);
    f->visited++;
    tick(&f->clock);
    Node *node = lookup(f, key);
    if (!node)
        node = expand(f, key, code, depth);
    if (node->children == NONE)
        return;
    int attacker = code & 4, mover = attacker ? code & 1 : 1 - (code & 1);
    int child_code = code ^ 4, child_depth = attacker ? depth - 1 : depth;
    uint64_t keys[MAX_CELLS];
    Node *children[MAX_CELLS];
    const Tables *t = p->t;
    for (int i = 0; i < node->count; i++) {
        int cell = f->pool[node->children + i];
        keys[i] = node_key(p->stones_key ^ t->zobrist[mover][cell], child_code, child_depth);
        children[i] = NULL;
    }
    int best;
    for (;;) {
        int64_t second;
        best = update(f, node, keys, children, attacker, &second);
        if (node->pn >= proof || node->dn >= disproof || !node->pn || !node->dn)
            break;
        Node *child = children[best];
        int64_t child_pn = child ? child->pn : 1, child_dn = child ? child->dn : 1;
        int64_t child_proof, child_disproof;
        if (attacker) {
            child_proof = proof < beyond(second) ? proof : beyond(second);
            child_disproof = cap(disproof - node->dn + child_dn);
        } else {
            child_proof = cap(proof - node->pn + child_pn);
            child_disproof = disproof < beyond(second) ? disproof : beyond(second);
        }
        int cell = f->pool[node->children + best];
        place(p, cell, mover);
        search(f, child_code, child_depth, child_proof, child_disproof);
        lift(p, cell, mover);
    }
    if (!node->pn)
        record_proof(f, node, code, keys, best);
}

int proof_prove(Proof *f, int side, int depth, int kind, double deadline, int *stones)
{
    jmp_buf escape;
    Solver *s = f->solver;
    if (f->node_count > f->node_limit / 2) {
        table_clear(&f->index);
        f->node_count = 0;
        f->pool_used = 0;
    }
    if ((int)f->wins.count > f->node_limit)
        table_clear(&f->wins);
    clock_start(&f->clock, deadline, &escape);
    clock_start(&s->clock, deadline, &escape);
    f->timed_out = f->full = 0;
    int code = 4 | 2 * kind | side;
    switch (setjmp(escape)) {
    case 1:
        f->timed_out = 1;
        return NONE;
    case 2:
        f->full = 1;
        return NONE;
    default:
        break;
    }
    search(f, code, depth, INFINITE_NUMBER, INFINITE_NUMBER);
    int32_t known;
    if (!table_get(&f->wins, win_key(s->p->stones_key, code), &known))
        return NONE;
    *stones = known >> 16;
    return known & 0xFFFF;
}

/* Mark the cells of a proven node's proof tree: the winning move at the attacker's
 * nodes, every reply at the defender's, as far as the node table holds them. */
static void mark_proof(Proof *f, int code, int depth, Bits *cells)
{
    Position *p = f->solver->p;
    Node *node = lookup(f, node_key(p->stones_key, code, depth));
    if (!node || node->pn || node->children == NONE)
        return;
    int attacker = code & 4, mover = attacker ? code & 1 : 1 - (code & 1);
    int child_code = code ^ 4, child_depth = attacker ? depth - 1 : depth;
    for (int i = 0; i < node->count; i++) {
        int cell = f->pool[node->children + i];
        uint64_t stones = p->stones_key ^ p->t->zobrist[mover][cell];
        Node *child = lookup(f, node_key(stones, child_code, child_depth));
        if (!child || child->pn)
            continue;
        bits_set(cells, cell);
        place(p, cell, mover);
        mark_proof(f, child_code, child_depth, cells);
        lift(p, cell, mover);
        if (attacker)
            return; /* one winning move is the proof */
    }
}

/* Whether the opponent still has a VCT of ``stones`` after ``move``: 1 if it has, 0 if
 * not, -1 if the search stopped (deadline or full table), the position then reloaded. */
static int still_threatened(Proof *f, const uint8_t *board, int turn, int move, int stones,
                            double deadline)
{
    Position *p = f->solver->p;
    int found;
    place(p, move, turn);
    int threat = proof_prove(f, 1 - turn, stones, VCT, deadline, &found) != NONE;
    if (f->timed_out || f->full) {
        position_load(p, board);
        return -1;
    }
    lift(p, move, turn);
    return threat;
}

/* The root's guard against the opponent's VCT, by proof-number search: when the opponent
 * (as if to move) has a VCT of up to ``stones`` stones, the ``moves`` after which it has
 * none. They are checked in the order most likely to answer it (our fours, then the
 * cells that make a three of ours or that the proof of the threat played on, then the
 * rest, only when none of those is safe) until GUARD_ENOUGH safe ones are found or the
 * deadline passes. Only the safe moves are kept, in the order given; if none is found,
 * the moves left unchecked; all of ``moves`` when there is no such VCT or when every
 * move leaves one. The position is ``board``'s and stays so. Returns how many moves are
 * kept, at the front of ``moves``. */
int proof_guards(Proof *f, const uint8_t *board, int turn, int16_t *moves, int n, int stones,
                 double deadline)
{
    Position *p = f->solver->p;
    const Bits *mine = p->sets[turn];
    int found, enemy = 1 - turn;
    if (proof_prove(f, enemy, stones, VCT, deadline, &found) == NONE) {
        if (f->timed_out || f->full)
            position_load(p, board);
        return n;
    }
    Bits likely = mine[ANY_THREE]; /* the cells that threaten a four of ours in reply */
    mark_proof(f, 4 | 2 * VCT | enemy, stones, &likely);
    int16_t order[MAX_CELLS];
    int8_t verdict[MAX_CELLS]; /* per place in ``moves``: 1 threatened, 0 safe, -1 unchecked */
    int count = 0, safe = 0, likely_end = 0;
    for (int pass = 0; pass < 3; pass++) {
        for (int i = 0; i < n; i++) {
            int four = bits_has(&mine[ANY_FOUR], moves[i]), near = bits_has(&likely, moves[i]);
            if ((pass == 0 && four) || (pass == 1 && !four && near) || (pass == 2 && !four && !near))
                order[count++] = (int16_t)i;
        }
        likely_end = pass == 1 ? count : likely_end;
    }
    memset(verdict, -1, sizeof(int8_t) * (size_t)n);
    for (int k = 0; k < count && safe < GUARD_ENOUGH && !(k == likely_end && safe); k++) {
        int result = still_threatened(f, board, turn, moves[order[k]], stones, deadline);
        if (result < 0)
            break;
        verdict[order[k]] = (int8_t)result;
        safe += !result;
    }
    int16_t kept[MAX_CELLS];
    int total = 0;
    for (int i = 0; i < n; i++) /* the safe moves, or if none is known, the unchecked */
        if (verdict[i] == (safe ? 0 : -1))
            kept[total++] = moves[i];
    if (!total)
        return n; /* every move loses: leave the choice to the search */
    memcpy(moves, kept, sizeof(int16_t) * (size_t)total);
    return total;
}
