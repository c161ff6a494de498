/* The board, its line patterns, the evaluation and the move order.
 *
 * Mirrors connect5_scan.py (the bit-parallel scan of one line), connect5_lines.py (the
 * patterns kept line by line), connect5_eval.py (evaluation and order) and the
 * answers to a threat in connect5_threats.py. A line is at most 19 cells, so its
 * stones fit a 32-bit word and the scan of a whole line is a few dozen word operations.
 */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */
#include "c5.h"

#include <stddef.h>
#include <string.h>
#include <time.h>

#define WIN_NEXT 50000
#define OPEN_FOUR_NEXT 20000

double c5_now(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now); /* the clock of Python's time.perf_counter */
    return (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
}

static const int STEPS[4][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1}}; /* row, column step */

static int on_board(int size, int r, int c) { return r >= 0 && r < size && c >= 0 && c < size; }

static void make_lines(Tables *t)
{
    int n = t->size;
    for (int d = 0; d < 4; d++) {
        int dr = STEPS[d][0], dc = STEPS[d][1], lines = 0;
        for (int cell = 0; cell < t->cells; cell++) {
            int r = cell / n, c = cell % n;
            if (on_board(n, r - dr, c - dc))
                continue; /* not the first cell of its line */
            int len = 0;
            for (int rr = r, cc = c; on_board(n, rr, cc); rr += dr, cc += dc, len++) {
                t->line_id[d][rr * n + cc] = (int16_t)lines;
                t->line_pos[d][rr * n + cc] = (int8_t)len;
                t->line_cell[d][lines][len] = (int16_t)(rr * n + cc);
            }
            t->line_len[d][lines++] = (int8_t)len;
        }
        t->line_count[d] = lines;
    }
}

static void make_neighbourhoods(Tables *t)
{
    int n = t->size;
    memset(t->board.w, 0, sizeof(t->board));
    memset(t->shiftable, 0, sizeof(t->shiftable));
    for (int cell = 0; cell < t->cells; cell++) {
        int r = cell / n, c = cell % n;
        memset(&t->star[cell], 0, sizeof(Bits));
        bits_set(&t->star[cell], cell);
        for (int d = 0; d < 4; d++)
            for (int k = -4; k <= 4; k++)
                if (k && on_board(n, r + k * STEPS[d][0], c + k * STEPS[d][1]))
                    bits_set(&t->star[cell], (r + k * STEPS[d][0]) * n + c + k * STEPS[d][1]);
        bits_set(&t->board, cell);
        int steps[4] = {1, 2, -1, -2};
        for (int k = 0; k < 4; k++)
            if (on_board(n, r, c + steps[k]))
                bits_set(&t->shiftable[k], cell);
    }
}

/* Each flag word of a cell (4 bits a direction) to the sets it belongs to, one bit a set;
 * looked up, as set_flags asks it twice for every cell a stone changes. */
static uint8_t MEMBERSHIP[1 << 16];

static unsigned membership_of(unsigned flags)
{
    unsigned folded = (flags | flags >> 2) & 0x2222; /* a four or a three, per direction */
    return (unsigned)((flags & 0x1111) != 0) | (unsigned)((flags & 0x2222) != 0) << 1 |
           (unsigned)((flags & 0x4444) != 0) << 2 | (unsigned)((flags & 0x8888) != 0) << 3 |
           (unsigned)(__builtin_popcount(flags & 0x2222) >= 2) << 4 |
           (unsigned)(__builtin_popcount(folded) >= 2) << 5;
}

static void make_membership(void)
{
    if (MEMBERSHIP[0xFFFF])
        return; /* made by an earlier core */
    for (unsigned flags = 0; flags < (1u << 16); flags++)
        MEMBERSHIP[flags] = (uint8_t)membership_of(flags);
}

void tables_init(Tables *t, int size, const uint64_t *zobrist, const int *weights)
{
    memset(t, 0, sizeof(*t));
    t->size = size;
    t->cells = size * size;
    t->centre = (size / 2) * size + size / 2;
    make_lines(t);
    make_neighbourhoods(t);
    make_membership();
    memcpy(t->zobrist[0], zobrist, sizeof(uint64_t) * t->cells);
    memcpy(t->zobrist[1], zobrist + t->cells, sizeof(uint64_t) * t->cells);
    t->side_key = zobrist[2 * t->cells];
    memcpy(t->weights, weights, sizeof(t->weights));
}

void position_init(Position *p, const Tables *t)
{
    memset(p, 0, offsetof(Position, undo)); /* an empty line has no pattern and no worth */
    p->t = t;
}

int position_load(Position *p, const uint8_t *board)
{
    position_init(p, p->t);
    p->loading = 1;
    for (int cell = 0; cell < p->t->cells; cell++) {
        if (board[cell] > 2)
            return -1;
        if (board[cell])
            place(p, cell, board[cell] - 1);
    }
    p->loading = 0;
    return 0;
}

/* One side's patterns along one line: connect5_scan.scan_line with a step of one bit.
 * Windows are runs of five cells; a free window holds no enemy stone. */
static void line_patterns(const Tables *t, uint32_t a, uint32_t b, int len, uint32_t *masks,
                          int32_t *worth, int32_t *threes)
{
    uint32_t e = ((1u << len) - 1) & ~(a | b);
    uint32_t starts = len >= 5 ? (1u << (len - 4)) - 1 : 0;
    uint32_t free_ = starts & ~(b | b >> 1 | b >> 2 | b >> 3 | b >> 4);
    uint32_t a1 = a >> 1, a2 = a >> 2, a3 = a >> 3, a4 = a >> 4;
    /* Bit-sliced sum of each window's stones: low + 2 * mid + 4 * high. */
    uint32_t s = a ^ a1, carry1 = a & a1;
    uint32_t u = s ^ a2;
    carry1 |= s & a2;
    s = u ^ a3;
    uint32_t carry2 = u & a3;
    uint32_t low = s ^ a4;
    carry2 |= s & a4;
    uint32_t mid = carry1 ^ carry2, high = carry1 & carry2;
    uint32_t under_four = free_ & ~high;
    uint32_t four = free_ & high & ~mid & ~low;
    uint32_t three = under_four & mid & low;
    uint32_t two = under_four & mid & ~low;
    uint32_t one = under_four & low & ~mid;
#define SPREAD(x) (((x) | (x) << 1 | (x) << 2 | (x) << 3 | (x) << 4) & e)
    uint32_t e1 = e >> 1, e2 = e >> 2, e3 = e >> 3, e4 = e >> 4;
    uint32_t ends = e & e >> 5, pair12 = a1 & a2, pair34 = a3 & a4;
    masks[WIN] = SPREAD(four);
    masks[FOUR] = SPREAD(three);
    masks[OPEN4] = (ends & e1 & a2 & pair34) << 1 | (ends & a1 & e2 & pair34) << 2 |
                   (ends & pair12 & e3 & a4) << 3 | (ends & pair12 & a3 & e4) << 4;
    masks[THREE] = SPREAD(two);
#undef SPREAD
    /* Six cells, both ends empty, two stones and two empty cells between: a stone on
     * either empty inner cell makes an open three. */
    uint32_t b1 = b >> 1, b2 = b >> 2, b3 = b >> 3, b4 = b >> 4;
    uint32_t even = ~(a1 ^ a2 ^ a3 ^ a4) & (a1 | a2 | a3 | a4) & ~(a1 & a2 & a3 & a4);
    uint32_t twos = ends & ~(b1 | b2 | b3 | b4) & even;
    masks[FLEX3] = (twos << 1 | twos << 2 | twos << 3 | twos << 4) & e;
    const int *w = t->weights;
    *worth = w[0] * __builtin_popcount(masks[WIN]) + w[1] * __builtin_popcount(masks[OPEN4]) +
             w[2] * __builtin_popcount(three) + w[3] * __builtin_popcount(two) +
             w[4] * __builtin_popcount(one);
    *threes = __builtin_popcount(three);
}

/* A cell's patterns changed along one direction: move it in or out of the sets that differ. */
static void set_flags(Position *p, int side, int cell, uint16_t flags)
{
    unsigned changed = MEMBERSHIP[p->flags[side][cell]] ^ MEMBERSHIP[flags];
    p->flags[side][cell] = flags;
    uint64_t bit = 1ULL << (cell & 63);
    for (; changed; changed &= changed - 1)
        p->sets[side][__builtin_ctz(changed)].w[cell >> 6] ^= bit;
}

static void update_line(Position *p, int d, int line, Undo *undo)
{
    const Tables *t = p->t;
    int len = t->line_len[d][line];
    for (int side = 0; side < 2; side++) {
        uint32_t masks[LINE_MASKS], *old = p->line_masks[side][d][line];
        int32_t worth, threes;
        line_patterns(t, p->line_stones[side][d][line], p->line_stones[1 - side][d][line], len,
                      masks, &worth, &threes);
        uint32_t changed = 0;
        for (int k = 0; k < KINDS; k++)
            changed |= masks[k] ^ old[k];
        for (; changed; changed &= changed - 1) {
            int at = __builtin_ctz(changed), cell = t->line_cell[d][line][at];
            uint16_t nibble = 0;
            for (int k = 0; k < KINDS; k++)
                nibble |= (uint16_t)(((masks[k] >> at) & 1) << k);
            uint16_t flags = (uint16_t)((p->flags[side][cell] & ~(0xF << 4 * d)) | nibble << 4 * d);
            if (undo) {
                undo->cell[undo->changes] = (uint16_t)(cell + MAX_CELLS * side);
                undo->flags[undo->changes++] = p->flags[side][cell];
            }
            set_flags(p, side, cell, flags);
        }
        p->open_threes[side] +=
            __builtin_popcount(masks[FLEX3]) - __builtin_popcount(old[FLEX3]);
        memcpy(old, masks, sizeof(masks));
        p->worth[side] += worth - p->line_worth[side][d][line];
        p->threes[side] += threes - p->line_threes[side][d][line];
        p->line_worth[side][d][line] = worth;
        p->line_threes[side][d][line] = threes;
    }
}

/* Put a stone on (or take it off) the four lines through its cell and rescan them. */
static void restone(Position *p, int cell, int side, int on, Undo *undo)
{
    const Tables *t = p->t;
    for (int d = 0; d < 4; d++) {
        int line = t->line_id[d][cell];
        uint32_t bit = 1u << t->line_pos[d][cell];
        if (undo)
            for (int s = 0; s < 2; s++) {
                memcpy(undo->line_masks[d][s], p->line_masks[s][d][line], sizeof(uint32_t) * LINE_MASKS);
                undo->line_worth[d][s] = p->line_worth[s][d][line];
                undo->line_threes[d][s] = p->line_threes[s][d][line];
            }
        if (on)
            p->line_stones[side][d][line] |= bit;
        else
            p->line_stones[side][d][line] &= ~bit;
        update_line(p, d, line, undo);
    }
}

int place(Position *p, int cell, int side)
{
    const Tables *t = p->t;
    Undo *undo = NULL;
    if (!p->loading) {
        undo = &p->undo[p->undone++];
        memcpy(undo->worth, p->worth, sizeof(p->worth));
        memcpy(undo->threes, p->threes, sizeof(p->threes));
        memcpy(undo->open_threes, p->open_threes, sizeof(p->open_threes));
        undo->changes = 0;
    }
    int made_five = bits_has(&p->sets[side][ANY_WIN], cell);
    p->stone[cell] = (uint8_t)(side + 1);
    bits_set(&p->occupied, cell);
    p->stones_key ^= t->zobrist[side][cell];
    p->stones++;
    restone(p, cell, side, 1, undo);
    return made_five;
}

/* Take off the stone the last place() put on: everything it changed, put back as it was. */
void lift(Position *p, int cell, int side)
{
    const Tables *t = p->t;
    Undo *undo = &p->undo[--p->undone];
    p->stone[cell] = 0;
    bits_clear(&p->occupied, cell);
    p->stones_key ^= t->zobrist[side][cell];
    p->stones--;
    for (int i = undo->changes - 1; i >= 0; i--) /* the sets too, change by change */
        set_flags(p, undo->cell[i] / MAX_CELLS, undo->cell[i] % MAX_CELLS, undo->flags[i]);
    for (int d = 0; d < 4; d++) {
        int line = t->line_id[d][cell];
        p->line_stones[side][d][line] &= ~(1u << t->line_pos[d][cell]);
        for (int s = 0; s < 2; s++) {
            memcpy(p->line_masks[s][d][line], undo->line_masks[d][s], sizeof(uint32_t) * LINE_MASKS);
            p->line_worth[s][d][line] = undo->line_worth[d][s];
            p->line_threes[s][d][line] = undo->line_threes[d][s];
        }
    }
    memcpy(p->worth, undo->worth, sizeof(p->worth));
    memcpy(p->threes, undo->threes, sizeof(p->threes));
    memcpy(p->open_threes, undo->open_threes, sizeof(p->open_threes));
}

int has_five(const Position *p, int side)
{
    for (int d = 0; d < 4; d++)
        for (int line = 0; line < p->t->line_count[d]; line++) {
            uint32_t s = p->line_stones[side][d][line];
            if (s & s >> 1 & s >> 2 & s >> 3 & s >> 4)
                return 1;
        }
    return 0;
}

/* The set shifted ``k`` cells towards higher numbers (k > 0) or lower (k < 0), |k| < 64. */
static Bits shifted(Bits b, int k)
{
    Bits out;
    if (k > 0)
        for (int i = WORDS - 1; i >= 0; i--)
            out.w[i] = b.w[i] << k | (i ? b.w[i - 1] >> (64 - k) : 0);
    else
        for (int i = 0; i < WORDS; i++)
            out.w[i] = b.w[i] >> -k | (i < WORDS - 1 ? b.w[i + 1] << (64 + k) : 0);
    return out;
}

Bits near_cells(const Position *p)
{
    const Tables *t = p->t;
    Bits stones = p->occupied, rows = stones;
    static const int STEPS_ALONG[4] = {1, 2, -1, -2};
    for (int k = 0; k < 4; k++) /* along the rows, without wrapping to the next */
        rows = bits_or(rows, shifted(bits_and(stones, t->shiftable[k]), STEPS_ALONG[k]));
    Bits square = rows;
    for (int k = 0; k < 4; k++) /* then up and down the columns */
        square = bits_or(square, shifted(rows, STEPS_ALONG[k] * t->size));
    return bits_andnot(bits_and(square, t->board), stones);
}

Bits winning(const Position *p, int side)
{
    return bits_or(p->sets[side][ANY_OPEN4], p->sets[side][DOUBLE_FOUR]);
}

static int floor_div(int a, int b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

int evaluate(const Position *p, int side, int won)
{
    int enemy = 1 - side;
    if (won)
        return -WIN_NEXT;
    if (bits_any(&p->sets[side][ANY_WIN]))
        return WIN_NEXT;
    int their_wins = bits_count(&p->sets[enemy][ANY_WIN]);
    if (their_wins >= 2)
        return -WIN_NEXT;
    Bits mine = winning(p, side);
    if (!their_wins && !p->threes[enemy] && bits_any(&mine))
        return OPEN_FOUR_NEXT; /* they cannot even threaten five: our open four wins */
    int first = p->worth[side], second = p->worth[enemy];
    int more = p->t->weights[5], less = p->t->weights[6];
    if (their_wins) /* blocking their four costs us the move: they keep the initiative */
        return floor_div(first * less - second * more, less);
    return floor_div(first * more - second * less, less);
}

int ordered_moves(const Position *p, int side, int16_t *out, int *threatened)
{
    int enemy = 1 - side;
    const Bits *mine = p->sets[side], *theirs = p->sets[enemy];
    *threatened = 0;
    if (!p->stones) {
        out[0] = (int16_t)p->t->centre;
        return 1;
    }
    if (bits_any(&mine[ANY_WIN]))
        return bits_cells(&mine[ANY_WIN], out);
    if (bits_any(&theirs[ANY_WIN]))
        return bits_cells(&theirs[ANY_WIN], out);
    Bits near = near_cells(p);
    Bits my_winning = winning(p, side), their_winning = winning(p, enemy);
    Bits tiers[10] = {
        my_winning,
        their_winning,
        bits_and(mine[FORK], mine[ANY_FOUR]),
        bits_and(theirs[FORK], theirs[ANY_FOUR]),
        mine[FORK],
        theirs[FORK],
        mine[ANY_FOUR],
        bits_or(mine[ANY_THREE], theirs[ANY_FOUR]),
        theirs[ANY_THREE],
        near,
    };
    int n = 0;
    for (int k = 0; k < 10; k++) {
        Bits cells = bits_and(tiers[k], near);
        n += bits_cells(&cells, out + n);
        near = bits_andnot(near, cells); /* each cell once, in its first tier */
    }
    *threatened = bits_any(&their_winning) && !bits_any(&my_winning);
    return n;
}

Bits defence_cells(Position *p, int attacker)
{
    const Tables *t = p->t;
    Bits threat = winning(p, attacker), around = {0}, defences = {0};
    int16_t cells[MAX_CELLS];
    int n = bits_cells(&threat, cells);
    for (int i = 0; i < n; i++)
        around = bits_or(around, t->star[cells[i]]);
    Bits candidates = bits_or(threat, bits_and(p->sets[attacker][ANY_FOUR], around));
    n = bits_cells(&candidates, cells);
    for (int i = 0; i < n; i++) {
        place(p, cells[i], 1 - attacker);
        Bits after = winning(p, attacker);
        int stopped = !bits_any(&after) && !bits_any(&p->sets[attacker][ANY_WIN]);
        lift(p, cells[i], 1 - attacker);
        if (stopped)
            bits_set(&defences, cells[i]);
    }
    return defences;
}

int answers(Position *p, int side, Bits *out)
{
    int enemy = 1 - side;
    Bits theirs = winning(p, enemy), mine = winning(p, side);
    if (!bits_any(&theirs) || bits_any(&p->sets[enemy][ANY_WIN]))
        return 0;
    if (bits_any(&p->sets[side][ANY_WIN]) || bits_any(&mine))
        return 0;
    *out = bits_or(p->sets[side][ANY_FOUR], defence_cells(p, enemy));
    return 1;
}

int search_moves(Position *p, int side, int16_t *out)
{
    int threatened, n = ordered_moves(p, side, out, &threatened);
    Bits allowed;
    if (!threatened || n < 2 || !answers(p, side, &allowed))
        return n;
    int kept = 0;
    for (int i = 0; i < n; i++)
        if (bits_has(&allowed, out[i]))
            out[kept++] = out[i];
    return kept ? kept : n;
}
