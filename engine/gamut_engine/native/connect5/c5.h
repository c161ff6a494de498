/* Connect Five's compiled core: shared types and the functions of each part.
 *
 * The core mirrors the Python engine (gamut_engine/games/connect5_*.py), which stays
 * the reference: the same line patterns, evaluation, move order, threat-space and
 * proof-number searches and alpha-beta, so that the differential tests can ask both
 * the same questions and require the same answers. Cells are numbered as in Python
 * (row by row from the top-left), and every set of cells is a bitset in that order,
 * so iterating one gives cells in the order Python's cells_of gives them.
 *
 * One position is kept and changed in place: place() and lift() put a stone on and
 * take it off again, recomputing the four lines through its cell. Every search rebuilds
 * the position from the board Python hands over, so a search cut short by its deadline
 * (a longjmp out of any depth) leaves nothing to undo.
 */
#ifndef GAMUT_C5_H
#define GAMUT_C5_H

#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>

#if defined(__x86_64__) && defined(__GNUC__)
/* Counting a word's bits is the commonest operation here: use the instruction every
 * x86-64 processor since 2008 has, rather than a call into the compiler's library. */
#pragma GCC target("popcnt")
#endif

#define MAX_SIZE 19
#define MAX_CELLS (MAX_SIZE * MAX_SIZE)
#define MAX_LINES (2 * MAX_SIZE - 1) /* lines of one direction: the diagonals are most */
#define WORDS 6                      /* 64-bit words of a cell set: 384 >= 361 */
#define NONE (-1)

enum { WIN, FOUR, OPEN4, THREE, KINDS };                    /* masks per side and line */
/* A line keeps one more mask than a cell's flags show: the cells that make an open three
 * (a stone there leaves a cell that makes an open four), read by evaluate_combined. */
enum { FLEX3 = KINDS, LINE_MASKS };
enum { ANY_WIN, ANY_FOUR, ANY_OPEN4, ANY_THREE, DOUBLE_FOUR, FORK, SETS };
enum { VCF, VCT };

typedef struct {
    uint64_t w[WORDS];
} Bits;

/* The tables of one board size, made once per core. */
typedef struct {
    int size, cells, centre;
    int line_count[4];
    int16_t line_id[4][MAX_CELLS];  /* the line through a cell, per direction */
    int8_t line_pos[4][MAX_CELLS];  /* the cell's place along that line */
    int8_t line_len[4][MAX_LINES];
    int16_t line_cell[4][MAX_LINES][MAX_SIZE];
    Bits star[MAX_CELLS];   /* cells within four along the cell's four lines, itself too */
    Bits board;                    /* every cell */
    Bits shiftable[4];             /* cells that may step 1 and 2 columns right, 1 and 2 left */
    uint64_t zobrist[2][MAX_CELLS];
    uint64_t side_key;
    int weights[7]; /* a four, an open-four cell, windows of three, two and one stones,
                       then the initiative's share as numerator and denominator */
} Tables;

#define MAX_UNDO 400         /* stones placed on top of a loaded position, at most */
#define MAX_CHANGES (8 * 32) /* cells whose flags one stone changes, at most (4 lines, 2 sides) */

/* What lift() needs to put back exactly what place() changed, without recomputing it. */
typedef struct {
    int32_t worth[2], threes[2], open_threes[2];
    uint32_t line_masks[4][2][LINE_MASKS];
    int32_t line_worth[4][2], line_threes[4][2];
    int changes;
    uint16_t cell[MAX_CHANGES], flags[MAX_CHANGES]; /* cell + MAX_CELLS * side, old flags */
} Undo;

/* The position, with both sides' patterns kept up to date line by line. */
typedef struct {
    const Tables *t;
    uint8_t stone[MAX_CELLS]; /* 0 empty, 1 side 0, 2 side 1 */
    uint32_t line_stones[2][4][MAX_LINES];
    uint32_t line_masks[2][4][MAX_LINES][LINE_MASKS];
    int32_t line_worth[2][4][MAX_LINES];
    int32_t line_threes[2][4][MAX_LINES];
    uint16_t flags[2][MAX_CELLS]; /* bit 4 * direction + kind */
    Bits sets[2][SETS];           /* cells of each kind over all directions */
    Bits occupied;
    int32_t worth[2], threes[2];
    int32_t open_threes[2]; /* cells that make an open three, counted once a line */
    uint64_t stones_key; /* Zobrist key of the stones alone */
    int stones;
    int undone;          /* entries of the undo stack in use */
    int loading;         /* placing a loaded board's stones: nothing to undo */
    Undo undo[MAX_UNDO]; /* last, so that a new position clears only what comes before */
} Position;

/* Clock and deadline, and where to jump when the deadline passes. */
typedef struct {
    double deadline; /* seconds on the monotonic clock; INFINITY for none */
    jmp_buf *escape;
    uint32_t ticks;  /* nodes counted since the search began: the clock is read every 256 */
} Clock;

#define TICK_MASK 255u /* read the clock at the first node and every 256th after it */

double c5_now(void);
void clock_check(const Clock *clock);

/* Count a node; now and then, jump out if the deadline has passed. Reading the clock
 * costs as much as a node, so it is read at a search's first node, then every 256th:
 * a quarter of a millisecond late at most, at a million nodes a second. */
static inline void tick(Clock *clock)
{
    if (!(clock->ticks++ & TICK_MASK))
        clock_check(clock);
}

/* A clock for a search starting now with this deadline and escape. */
static inline void clock_start(Clock *clock, double deadline, jmp_buf *escape)
{
    clock->deadline = deadline;
    clock->escape = escape;
    clock->ticks = 0;
}

/* Cell sets. */
static inline void bits_set(Bits *b, int c) { b->w[c >> 6] |= 1ULL << (c & 63); }
static inline void bits_clear(Bits *b, int c) { b->w[c >> 6] &= ~(1ULL << (c & 63)); }
static inline int bits_has(const Bits *b, int c) { return (b->w[c >> 6] >> (c & 63)) & 1; }

static inline int bits_any(const Bits *b)
{
    uint64_t any = 0;
    for (int i = 0; i < WORDS; i++)
        any |= b->w[i];
    return any != 0;
}

static inline int bits_count(const Bits *b)
{
    int n = 0;
    for (int i = 0; i < WORDS; i++)
        n += __builtin_popcountll(b->w[i]);
    return n;
}

static inline int bits_first(const Bits *b)
{
    for (int i = 0; i < WORDS; i++)
        if (b->w[i])
            return 64 * i + __builtin_ctzll(b->w[i]);
    return NONE;
}

/* The cells of a set in order; returns how many. */
static inline int bits_cells(const Bits *b, int16_t *out)
{
    int n = 0;
    for (int i = 0; i < WORDS; i++)
        for (uint64_t w = b->w[i]; w; w &= w - 1)
            out[n++] = (int16_t)(64 * i + __builtin_ctzll(w));
    return n;
}

static inline Bits bits_and(Bits a, Bits b)
{
    for (int i = 0; i < WORDS; i++)
        a.w[i] &= b.w[i];
    return a;
}

static inline Bits bits_or(Bits a, Bits b)
{
    for (int i = 0; i < WORDS; i++)
        a.w[i] |= b.w[i];
    return a;
}

static inline Bits bits_andnot(Bits a, Bits b)
{
    for (int i = 0; i < WORDS; i++)
        a.w[i] &= ~b.w[i];
    return a;
}

/* The board and its patterns (c5_board.c). */
void tables_init(Tables *t, int size, const uint64_t *zobrist, const int *weights);
void position_init(Position *p, const Tables *t);
int position_load(Position *p, const uint8_t *board); /* -1 if a cell holds no side */
int place(Position *p, int cell, int side);            /* returns whether it made five */
void lift(Position *p, int cell, int side);
int has_five(const Position *p, int side);
Bits winning(const Position *p, int side); /* open-four cells and double fours */
Bits near_cells(const Position *p); /* empty cells within two king steps of a stone */
int evaluate(const Position *p, int side, int won);
int evaluate_combined(const Position *p, int side, int won); /* c5_eval.c: timed searches' */
int ordered_moves(const Position *p, int side, int16_t *out, int *threatened);
Bits defence_cells(Position *p, int attacker);
int answers(Position *p, int side, Bits *out);
int search_moves(Position *p, int side, int16_t *out);

/* A table from 64-bit keys to 32-bit values, open addressing; key 0 marks a free slot.
 * A key and its value share a slot, so a look-up reads one cache line, not two. */
typedef struct {
    uint64_t key;
    int32_t value;
} Slot;

typedef struct {
    Slot *slots;
    uint32_t mask, count;
} IntTable;

void *big_alloc(size_t bytes); /* zeroed, on huge pages where the system has them */
void big_free(void *block, size_t bytes);
int table_init(IntTable *t, int bits);
void table_free(IntTable *t);
void table_clear(IntTable *t);
int table_get(const IntTable *t, uint64_t key, int32_t *value);
void table_put(IntTable *t, uint64_t key, int32_t value);

/* The depth-first VCF and VCT searches (c5_threats.c, after connect5_threats.py). */
typedef struct {
    Position *p;
    IntTable table;  /* stones, kind and attacker: winning move, or -depth searched in vain */
    int cut;         /* whether the search so far left a threat unplayed for lack of depth */
    int timed_out;
    long nodes;
    Clock clock;
} Solver;

#define SOLVER_TABLE_LIMIT (1 << 18)
#define COUNTER_VCF_DEPTH 5
#define DEFENCE_DEPTH 7
#define NO_WIN (1 << 20)

int solver_attack(Solver *s, int side, int depth, int kind);
int solver_solve(Solver *s, int side, int depth, int kind, double deadline);
int solver_winning_move(Solver *s, int side, double deadline, int *plies);
int solver_move_wins(Solver *s, int side, int move, int stones, double deadline, int *result);

/* The proof-number search (c5_proof.c, after connect5_proof.py). */
typedef struct {
    int64_t pn, dn;
    int32_t children; /* first child's place in the pool, or NONE for a settled leaf */
    int16_t count, forcing, stones;
} Node;

typedef struct {
    Solver *solver;
    IntTable index; /* node key to the node's place */
    Node *nodes;
    int node_count, node_limit;
    int16_t *pool;
    int pool_used, pool_limit;
    IntTable wins; /* a proven attacker node to its winning move and stones (16 bits each) */
    long visited;
    int timed_out, full;
    Clock clock;
} Proof;

int proof_init(Proof *f, Solver *s, int node_limit);
void proof_free(Proof *f);
int proof_prove(Proof *f, int side, int depth, int kind, double deadline, int *stones);
#define GUARD_ENOUGH 5 /* safe moves enough to choose among */
int proof_guards(Proof *f, const uint8_t *board, int turn, int16_t *moves, int n, int stones,
                 double deadline);

#endif
