/* The timed search's evaluation: the reference one plus the threats' combinations.
 *
 * evaluate() (c5_board.c) is Python's evaluation, kept so that the differential tests
 * can hold the two engines to the same answers; it sums each side's windows and threat
 * cells one by one. Strong gomoku engines score what the cells add up to instead: a
 * cell that makes a four and a three at once, or two threes, is a threat the other side
 * cannot meet with one stone, and who is to move decides whose threat comes first.
 * evaluate_combined() adds that to the reference's score, only in a timed search
 * (which already leaves the reference's path: its horizon looks for VCFs and it drops
 * quiet moves), so fixed-depth searches stay Python's.
 *
 * Each empty cell is classed, per side, by the patterns a stone there would make over
 * its four lines (the sets kept by place(), and the open threes the line scan marks):
 * an open four or two fours (a win unless the other side has fours to play first), a
 * four with an open three (four-three), two open threes (three-three). The side to move plays its best class next;
 * the other side's classes are threats it must meet, and two of them, or one it cannot
 * meet by a four of its own, are more than a stone can stop.
 */
#include "c5.h"

/* The weights, in the reference's units (a four 1500, an open-four cell 900). */
#define COMBO_DECIDED 20000 /* the reference's score of an open four that wins outright */
#define COMBO_FOUR_THREE 1500
#define COMBO_THREE_THREE 5000
#define COMBO_OPEN_FOUR 500
#define COMBO_THREAT_OPEN_FOUR 300
#define COMBO_THREAT_FOUR_THREE 1000
#define COMBO_THREAT_THREE_THREE 800
#define COMBO_DOUBLE_THREAT 3000
#define COMBO_OPEN_TWO_MINE 60   /* a cell that makes an open three, the side to move's */
#define COMBO_OPEN_TWO_THEIRS 50 /* and the other side's */

/* Cells of each class, for one side. */
typedef struct {
    int open4, four_three, three_three;
} Combos;

/* Whether a stone of ``side`` on ``cell`` makes an open three along direction ``d``. */
static int flex3(const Position *p, int side, int cell, int d)
{
    const Tables *t = p->t;
    return (p->line_masks[side][d][t->line_id[d][cell]][FLEX3] >> t->line_pos[d][cell]) & 1;
}

static Combos combos_of(const Position *p, int side)
{
    const Bits *s = p->sets[side];
    Bits open4 = bits_or(s[ANY_OPEN4], s[DOUBLE_FOUR]);
    Bits forks = bits_andnot(s[FORK], open4); /* two lines with a four or a three each */
    Combos combos = {bits_count(&open4), 0, 0};
    int16_t cells[MAX_CELLS];
    int n = bits_cells(&forks, cells);
    for (int i = 0; i < n; i++) {
        int cell = cells[i], fours = 0, threes = 0;
        unsigned flags = p->flags[side][cell];
        for (int d = 0; d < 4; d++, flags >>= 4) {
            if (flags & (1u << FOUR))
                fours++;
            else if (flex3(p, side, cell, d))
                threes++;
        }
        combos.four_three += fours && threes;
        combos.three_three += !fours && threes >= 2;
    }
    return combos;
}

/* What the side to move gains from the combinations it may play now (its fours and
 * open fours mostly found by the horizon's VCF already: here, what that misses). */
static int attack(const Combos *mine, int they_can_four)
{
    int value = 0;
    if (mine->four_three)
        value += they_can_four ? COMBO_FOUR_THREE / 2 : COMBO_FOUR_THREE;
    if (mine->three_three)
        value += they_can_four ? COMBO_THREE_THREE / 2 : COMBO_THREE_THREE;
    if (mine->open4)
        value += COMBO_OPEN_FOUR;
    return value;
}

/* What the side to move loses to the combinations the other side threatens: each must
 * be met, and only one can be met by a stone that is not a four. An open three has two
 * cells that make it an open four, so two such cells count as one threat. */
static int defence(const Combos *theirs, int we_can_four)
{
    int threats = (theirs->open4 + 1) / 2 + (theirs->four_three > 0) + (theirs->three_three > 0);
    int value = 0;
    if (theirs->open4)
        value += COMBO_THREAT_OPEN_FOUR;
    if (theirs->four_three)
        value += COMBO_THREAT_FOUR_THREE;
    if (theirs->three_three)
        value += COMBO_THREAT_THREE_THREE;
    if (threats >= 2)
        value += we_can_four ? COMBO_DOUBLE_THREAT / 2 : COMBO_DOUBLE_THREAT;
    return value;
}

int evaluate_combined(const Position *p, int side, int won)
{
    int base = evaluate(p, side, won), enemy = 1 - side;
    if (won || base >= COMBO_DECIDED || base <= -COMBO_DECIDED)
        return base; /* a five, or an open four nothing can answer */
    if (bits_any(&p->sets[enemy][ANY_WIN]))
        return base; /* the four must be blocked first: no combination of ours comes first */
    Combos mine = combos_of(p, side), theirs = combos_of(p, enemy);
    int we_can_four = p->threes[side] > 0, they_can_four = p->threes[enemy] > 0;
    int shape = COMBO_OPEN_TWO_MINE * p->open_threes[side] -
                COMBO_OPEN_TWO_THEIRS * p->open_threes[enemy];
    return base + shape + attack(&mine, they_can_four) - defence(&theirs, we_can_four);
}
