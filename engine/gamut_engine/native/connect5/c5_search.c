/* Alpha-beta below the root: a port of search/nodes.py for Connect Five's positions.
 *
 * Fail-soft negamax with principal variation search, mate-distance pruning, a
 * transposition table, killers and history; without a depth limit ("timed") also late
 * move reductions, the re-search when every reduced move lost and the extension of
 * forced replies, exactly as the Python search does them. The deepening loop, the
 * choice of a safe partial result and the threat phase stay in Python
 * (search/alphabeta.py), which calls search_root once per depth.
 */
#include "c5_search.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define WIN 1000000
#define INF (WIN + 1)
#define WIN_BOUND (WIN - 1000)
#define EVAL_LIMIT (WIN_BOUND - 1)
#define REDUCTION_DEPTH 3
#define REDUCTION_START 3
#define DEEP_REDUCTION_DEPTH 4
#define DEEP_REDUCTION_START 6
#define HORIZON_VCF_DEPTH 8 /* attacking stones of the VCF looked for at the horizon */
#define QUIET_FLOOR 2       /* quiet moves kept at a node below the root of a timed search */

enum { EXACT, LOWER, UPPER };

int search_init(Search *s, Position *p, int table_bits)
{
    memset(s, 0, sizeof(*s));
    s->p = p;
    s->table_mask = (1u << table_bits) - 1;
    s->table = big_alloc(((size_t)s->table_mask + 1) * sizeof(Entry));
    return s->table ? 0 : -1;
}

void search_free(Search *s) { big_free(s->table, ((size_t)s->table_mask + 1) * sizeof(Entry)); }

void search_clear(Search *s) { memset(s->table, 0, ((size_t)s->table_mask + 1) * sizeof(Entry)); }

void search_new_run(Search *s)
{
    memset(s->history, 0, sizeof(s->history));
    for (int ply = 0; ply < MAX_PLY; ply++)
        s->killers[ply][0] = s->killers[ply][1] = NONE;
}

static int to_table(int score, int ply)
{
    return score > WIN_BOUND ? score + ply : score < -WIN_BOUND ? score - ply : score;
}

static int from_table(int score, int ply)
{
    return score > WIN_BOUND ? score - ply : score < -WIN_BOUND ? score + ply : score;
}

static void count_node(Search *s)
{
    s->stats.nodes++;
    if (s->node_limit && s->stats.nodes >= s->node_limit)
        longjmp(*s->clock.escape, 1);
    tick(&s->clock);
}

/* The horizon's score: the reference evaluation at fixed depths, the threats'
 * combinations as well in a timed search. */
static int leaf(Search *s, int side, int ply)
{
    int value = s->threats ? evaluate_combined(s->p, side, 0) : evaluate(s->p, side, 0);
    value = value > EVAL_LIMIT ? EVAL_LIMIT : value < -EVAL_LIMIT ? -EVAL_LIMIT : value;
    s->stats.evals[ply & 1]++;
    return value;
}

/* The game's order, stably re-sorted by history, then the killers and the table move first:
 * the table's move, the first killer and the second, where present, then the rest. History
 * is never negative, so the stable sort is the moves with some history, sorted (few,
 * usually), then those with none in the game's order. */
static void order(Search *s, int16_t *moves, int n, int tt_move, int ply)
{
    int16_t sorted[MAX_CELLS], rest[MAX_CELLS];
    int firsts[3] = {tt_move, s->killers[ply][0], s->killers[ply][1]}, front = 0, scored = 0;
    int present[3] = {0, 0, 0}, unscored = 0;
    for (int i = 0; i < n; i++) {
        int move = moves[i], first = 0;
        for (int k = 0; k < 3; k++)
            if (move == firsts[k] && !first) {
                present[k] = first = 1;
            }
        if (first)
            continue;
        if (!s->history[move]) {
            rest[unscored++] = (int16_t)move;
            continue;
        }
        int j = scored++;
        for (; j > 0 && s->history[sorted[j - 1]] < s->history[move]; j--)
            sorted[j] = sorted[j - 1];
        sorted[j] = (int16_t)move;
    }
    for (int k = 0; k < 3; k++)
        if (present[k])
            moves[front++] = (int16_t)firsts[k];
    memcpy(moves + front, sorted, sizeof(int16_t) * (size_t)scored);
    memcpy(moves + front + scored, rest, sizeof(int16_t) * (size_t)unscored);
}

static void cutoff(Search *s, int move, int depth, int ply)
{
    s->stats.cutoffs[ply & 1]++;
    if (s->killers[ply][0] != move) {
        s->killers[ply][1] = s->killers[ply][0];
        s->killers[ply][0] = (int16_t)move;
    }
    s->history[move] += depth * depth;
}

static int negamax(Search *s, int depth, int ply, int alpha, int beta);

/* Below the root of a timed search, the quiet moves (cells in no window of two or more
 * stones of either side) seldom matter and come last anyway: keep only the first
 * QUIET_FLOOR of them, the loud ones all, in their order. Returns how many are kept. */
static int drop_quiet(const Position *p, int side, int16_t *moves, int n)
{
    const Bits *mine = p->sets[side], *theirs = p->sets[1 - side];
    Bits loud = bits_or(bits_or(mine[ANY_THREE], mine[ANY_FOUR]),
                        bits_or(theirs[ANY_THREE], theirs[ANY_FOUR]));
    loud = bits_or(loud, bits_or(winning(p, side), winning(p, 1 - side)));
    int kept = 0, quiet = 0;
    for (int i = 0; i < n; i++) {
        if (bits_has(&loud, moves[i]))
            moves[kept++] = moves[i];
        else if (quiet++ < QUIET_FLOOR)
            moves[kept++] = moves[i];
    }
    return kept;
}

/* At the horizon of a timed search, a win the evaluation would only score: a five to make
 * (1 ply), or a VCF, fours to the end, when the other side has no five to make first.
 * The plies it takes at most, or 0. */
static int horizon_win(Search *s, int side)
{
    Position *p = s->p;
    if (bits_any(&p->sets[side][ANY_WIN]))
        return 1;
    if (!bits_any(&p->sets[side][ANY_FOUR]) || bits_any(&p->sets[1 - side][ANY_WIN]))
        return 0;
    s->solver->clock = s->clock;
    int outer = s->solver->cut;
    int move = solver_attack(s->solver, side, HORIZON_VCF_DEPTH, VCF);
    s->solver->cut = outer;
    s->clock.ticks = s->solver->clock.ticks; /* one count, so the clock is read as seldom */
    return move == NONE ? 0 : 2 * HORIZON_VCF_DEPTH - 1;
}

static void set_pv(Search *s, int ply, int move)
{
    int child = ply + 1, length = s->pv_length[child];
    s->pv[ply][0] = (int16_t)move;
    memcpy(s->pv[ply] + 1, s->pv[child], sizeof(int16_t) * (size_t)length);
    s->pv_length[ply] = length + 1;
}

static int child_value(Search *s, int move, int depth, int ply, int alpha, int beta)
{
    int side = s->root_side ^ (ply & 1);
    s->won[ply + 1] = place(s->p, move, side);
    int value = -negamax(s, depth, ply + 1, -beta, -alpha);
    lift(s->p, move, side);
    return value;
}

static int expand(Search *s, uint64_t key, int depth, int ply, int alpha, int beta,
                  const int16_t *moves, int n, int reduce)
{
    int original_alpha = alpha, best = -INF, best_move = NONE, child_depth = depth - 1;
    int late = reduce ? REDUCTION_START : n;
    int later = reduce && depth >= DEEP_REDUCTION_DEPTH ? DEEP_REDUCTION_START : n;
    for (int i = 0; i < n; i++) {
        int move = moves[i], value;
        if (!i) {
            value = child_value(s, move, child_depth, ply, alpha, beta);
        } else {
            value = alpha + 1;
            if (i >= late) {
                int shallower = i >= later ? child_depth - 2 : child_depth - 1;
                value = child_value(s, move, shallower, ply, alpha, alpha + 1);
            }
            if (value > alpha)
                value = child_value(s, move, child_depth, ply, alpha, alpha + 1);
            if (alpha < value && value < beta)
                value = child_value(s, move, child_depth, ply, alpha, beta);
        }
        if (value > best) {
            best = value;
            best_move = move;
            if (value > alpha) {
                alpha = value;
                set_pv(s, ply, move);
                if (value >= beta) {
                    cutoff(s, move, depth, ply);
                    break;
                }
            }
        }
    }
    int flag = best >= beta ? LOWER : best > original_alpha ? EXACT : UPPER;
    if (flag == UPPER)
        best_move = moves[0];
    Entry *entry = &s->table[key & s->table_mask];
    *entry = (Entry){key, (int16_t)depth, (int8_t)flag, (int16_t)best_move, to_table(best, ply)};
    return best;
}

static int negamax(Search *s, int depth, int ply, int alpha, int beta)
{
    Position *p = s->p;
    const Tables *t = p->t;
    int side = s->root_side ^ (ply & 1);
    count_node(s);
    if (ply > s->stats.max_ply)
        s->stats.max_ply = ply;
    s->pv_length[ply] = 0;
    if (s->won[ply])
        return ply - WIN; /* the side to move has lost */
    if (p->stones >= t->cells || p->stones >= s->max_plies)
        return 0;
    if (s->threats && (depth <= 0 || ply >= MAX_PLY - 2)) {
        int won = horizon_win(s, side);
        if (won)
            return WIN - ply - won; /* at most that many plies away: a bound, taken as the value */
    }
    if (depth <= 0 || ply >= MAX_PLY - 2)
        return leaf(s, side, ply);
    /* Mate-distance pruning: no value here beats a win or loss at the next ply. */
    if (alpha >= WIN - ply - 1)
        return WIN - ply - 1;
    if (beta <= ply + 1 - WIN)
        return ply + 1 - WIN;
    uint64_t key = p->stones_key ^ (side ? t->side_key : 0);
    Entry *entry = &s->table[key & s->table_mask];
    int tt_move = NONE;
    if (entry->key == key) {
        s->stats.tt_hits++;
        tt_move = entry->move;
        if (entry->depth == depth || (entry->depth > depth && !s->exact)) {
            int value = from_table(entry->score, ply);
            if (entry->flag == EXACT || (entry->flag == LOWER ? value >= beta : value <= alpha)) {
                s->stats.tt_cutoffs++;
                return value;
            }
        }
    }
    int16_t moves[MAX_CELLS];
    int n = search_moves(p, side, moves);
    if (!n)
        return leaf(s, side, ply);
    if (n == 1 && !s->exact && ply < s->extension_limit)
        depth++; /* a forced reply costs a move, not a ply */
    if (n > QUIET_FLOOR && s->threats)
        n = drop_quiet(p, side, moves, n);
    if (n > 1)
        order(s, moves, n, tt_move, ply);
    int reduce = !s->exact && depth >= REDUCTION_DEPTH;
    int value = expand(s, key, depth, ply, alpha, beta, moves, n, reduce);
    if (reduce && value < -WIN_BOUND) /* every move lost, some seen short: look again */
        value = expand(s, key, depth, ply, alpha, beta, moves, n, 0);
    return value;
}

int search_root(Search *s, int depth, const int16_t *moves, int n, double deadline)
{
    jmp_buf escape;
    clock_start(&s->clock, deadline, &escape);
    s->extension_limit = 2 * depth;
    s->searched = 0;
    s->won[0] = 0;
    s->threats = !s->exact && !isinf(deadline);
    if (setjmp(escape))
        return 0;
    s->stats.nodes++;
    int alpha = -INF;
    for (int i = 0; i < n; i++) {
        int move = moves[i], value;
        if (!i) {
            value = child_value(s, move, depth - 1, 0, -INF, INF);
        } else {
            value = child_value(s, move, depth - 1, 0, alpha, alpha + 1);
            if (value > alpha)
                value = child_value(s, move, depth - 1, 0, alpha, INF);
        }
        if (!i || value > alpha) {
            alpha = value;
            s->best_move = move;
            s->best_score = value;
            set_pv(s, 0, move);
            memcpy(s->best_pv, s->pv[0], sizeof(int16_t) * (size_t)s->pv_length[0]);
            s->best_pv_length = s->pv_length[0];
        }
        s->searched = i + 1;
    }
    return 1;
}
