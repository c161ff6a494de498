/* The Python face of the core: one type, Core, with a method per question.
 *
 * Every method takes the board as bytes, one a cell in cell order (0 empty, 1 for side
 * 0's stone, 2 for side 1's), rebuilds the position from it and answers; the tables
 * (threat solver, proof search, alpha-beta) stay in the Core from call to call, as the
 * Python game keeps its solver, prover and searcher. Times are seconds from the call;
 * the long searches run without the GIL. See gamut_engine/games/connect5_core.py.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <math.h>
#include <string.h>

#include "c5.h"
#include "c5_search.h"

#define SEARCH_TABLE_BITS 21 /* 2M entries of 16 bytes */
#define SOLVER_TABLE_BITS 19

/* Run a long search without the GIL, the core marked busy meanwhile. */
#define WITHOUT_GIL(self, statement) \
    do {                             \
        (self)->busy = 1;            \
        Py_BEGIN_ALLOW_THREADS;      \
        statement;                   \
        Py_END_ALLOW_THREADS;        \
        (self)->busy = 0;            \
    } while (0)

typedef struct {
    PyObject_HEAD
    Tables tables;
    Position position;
    Solver solver;
    Proof proof;
    Search search;
    int busy;
} Core;

static void core_dealloc(Core *self)
{
    table_free(&self->solver.table);
    proof_free(&self->proof);
    search_free(&self->search);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int core_init(Core *self, PyObject *args, PyObject *kwargs)
{
    static char *names[] = {"size", "zobrist", "weights", "max_plies", "node_limit", NULL};
    int size, max_plies, node_limit, weights[7];
    Py_buffer zobrist;
    PyObject *weight_items;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "iy*Oii", names, &size, &zobrist,
                                     &weight_items, &max_plies, &node_limit))
        return -1;
    int cells = size * size, ok = size >= 5 && size <= MAX_SIZE && node_limit > 0;
    ok = ok && zobrist.len == (Py_ssize_t)sizeof(uint64_t) * (2 * cells + 1);
    PyObject *seq = ok ? PySequence_Fast(weight_items, "weights must be a sequence") : NULL;
    ok = seq && PySequence_Fast_GET_SIZE(seq) == 7;
    for (int i = 0; ok && i < 7; i++) {
        weights[i] = (int)PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        ok = !PyErr_Occurred();
    }
    Py_XDECREF(seq);
    if (!ok) {
        PyBuffer_Release(&zobrist);
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "a board of 5 to 19, 2n²+1 keys, 7 weights");
        return -1;
    }
    tables_init(&self->tables, size, (const uint64_t *)zobrist.buf, weights);
    PyBuffer_Release(&zobrist);
    position_init(&self->position, &self->tables);
    self->solver = (Solver){.p = &self->position};
    if (table_init(&self->solver.table, SOLVER_TABLE_BITS) ||
        proof_init(&self->proof, &self->solver, node_limit) ||
        search_init(&self->search, &self->position, SEARCH_TABLE_BITS)) {
        PyErr_NoMemory();
        return -1;
    }
    self->search.max_plies = max_plies;
    self->search.solver = &self->solver;
    return 0;
}

/* Load ``board`` into the position; 0 with a Python error set if it is no board. */
static int load(Core *self, Py_buffer *board)
{
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "the core is already searching");
        return 0;
    }
    if (board->len != self->tables.cells || position_load(&self->position, board->buf)) {
        PyErr_SetString(PyExc_ValueError, "a board is one byte a cell: 0, 1 or 2");
        return 0;
    }
    return 1;
}

/* ``load``, then release ``board``: for the methods that only read it while loading. */
static int take(Core *self, Py_buffer *board)
{
    int ok = load(self, board);
    PyBuffer_Release(board);
    return ok;
}

/* The deadline ``seconds`` from now on the monotonic clock (a NaN counts as no time). */
static double deadline_after(double seconds)
{
    if (isnan(seconds))
        return 0.0;
    return isinf(seconds) ? INFINITY : c5_now() + seconds;
}

static PyObject *cell_list(const int16_t *cells, int n)
{
    PyObject *list = PyList_New(n);
    for (int i = 0; list && i < n; i++)
        PyList_SET_ITEM(list, i, PyLong_FromLong(cells[i]));
    return list;
}

/* A list of cells from Python, each checked to be an empty cell of the board. */
static int read_moves(Core *self, PyObject *items, int16_t *out)
{
    PyObject *seq = PySequence_Fast(items, "moves must be a sequence");
    if (!seq)
        return -1;
    int n = (int)PySequence_Fast_GET_SIZE(seq);
    for (int i = 0; i < n && n <= MAX_CELLS; i++) {
        long cell = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if (cell < 0 || cell >= self->tables.cells || self->position.stone[cell]) {
            n = -1;
            break;
        }
        out[i] = (int16_t)cell;
    }
    Py_DECREF(seq);
    if (n < 0 || n > MAX_CELLS) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "every move must be an empty cell of the board");
        return -1;
    }
    return n;
}

static PyObject *core_patterns(Core *self, PyObject *args)
{
    Py_buffer board;
    if (!PyArg_ParseTuple(args, "y*", &board) || !take(self, &board))
        return NULL;
    Position *p = &self->position;
    Py_ssize_t half = (Py_ssize_t)sizeof(uint16_t) * self->tables.cells;
    PyObject *flags = PyBytes_FromStringAndSize(NULL, 2 * half);
    if (!flags)
        return NULL;
    memcpy(PyBytes_AS_STRING(flags), p->flags[0], (size_t)half);
    memcpy(PyBytes_AS_STRING(flags) + half, p->flags[1], (size_t)half);
    return Py_BuildValue("N(iiii)", flags, p->worth[0], p->threes[0], p->worth[1], p->threes[1]);
}

/* The reference evaluation, or with ``combined`` the timed search's (evaluate_combined). */
static PyObject *core_evaluate(Core *self, PyObject *args)
{
    Py_buffer board;
    int turn, combined = 0;
    if (!PyArg_ParseTuple(args, "y*p|p", &board, &turn, &combined) || !take(self, &board))
        return NULL;
    int won = has_five(&self->position, 1 - turn);
    Position *p = &self->position;
    return PyLong_FromLong(combined ? evaluate_combined(p, turn, won) : evaluate(p, turn, won));
}

static PyObject *core_search_moves(Core *self, PyObject *args)
{
    Py_buffer board;
    int turn;
    int16_t moves[MAX_CELLS];
    if (!PyArg_ParseTuple(args, "y*p", &board, &turn) || !take(self, &board))
        return NULL;
    return cell_list(moves, search_moves(&self->position, turn, moves));
}

static PyObject *core_solve(Core *self, PyObject *args)
{
    Py_buffer board;
    int side, depth, kind;
    double seconds;
    if (!PyArg_ParseTuple(args, "y*piid", &board, &side, &depth, &kind, &seconds) ||
        !take(self, &board))
        return NULL;
    int move = solver_solve(&self->solver, side, depth, kind ? VCT : VCF, deadline_after(seconds));
    return Py_BuildValue("iO", move, self->solver.timed_out ? Py_True : Py_False);
}

/* Python's ProofSearch.winning_move: a VCF within 20 stones, a VCT within 11, then 15;
 * the depth-first deepening when the proof search's table fills. */
static int proven_win(Core *self, Py_buffer *board, int turn, double deadline, int *plies)
{
    static const int SEARCHES[3][2] = {{VCF, 20}, {VCT, 11}, {VCT, 15}};
    for (int k = 0; k < 3; k++) {
        int stones, move = proof_prove(&self->proof, turn, SEARCHES[k][1], SEARCHES[k][0],
                                       deadline, &stones);
        if (move != NONE) {
            *plies = 2 * stones - 1;
            return move;
        }
        if (self->proof.timed_out)
            return NONE;
        position_load(&self->position, board->buf); /* a stop leaves it mid-search */
        if (self->proof.full)
            return solver_winning_move(&self->solver, turn, deadline, plies);
    }
    return NONE;
}

static PyObject *core_winning_move(Core *self, PyObject *args)
{
    Py_buffer board;
    int turn, proof, plies = 0, move;
    double seconds;
    if (!PyArg_ParseTuple(args, "y*pdp", &board, &turn, &seconds, &proof))
        return NULL;
    if (!load(self, &board)) {
        PyBuffer_Release(&board);
        return NULL;
    }
    double deadline = deadline_after(seconds);
    WITHOUT_GIL(self, move = proof ? proven_win(self, &board, turn, deadline, &plies)
                                   : solver_winning_move(&self->solver, turn, deadline, &plies));
    PyBuffer_Release(&board);
    if (move == NONE)
        Py_RETURN_NONE;
    return Py_BuildValue("ii", move, plies);
}

static PyObject *core_prove(Core *self, PyObject *args)
{
    Py_buffer board;
    int side, depth, kind, stones = 0;
    double seconds;
    if (!PyArg_ParseTuple(args, "y*piid", &board, &side, &depth, &kind, &seconds) ||
        !take(self, &board))
        return NULL;
    int move = proof_prove(&self->proof, side, depth, kind ? VCT : VCF, deadline_after(seconds),
                           &stones);
    const char *status = self->proof.timed_out ? "timed out" : self->proof.full ? "full" : "done";
    if (move == NONE)
        return Py_BuildValue("Os", Py_None, status);
    return Py_BuildValue("(ii)s", move, stones, status);
}

static PyObject *core_move_wins(Core *self, PyObject *args)
{
    Py_buffer board;
    int turn, move, stones, wins = 0, status;
    double seconds;
    if (!PyArg_ParseTuple(args, "y*piid", &board, &turn, &move, &stones, &seconds) ||
        !take(self, &board))
        return NULL;
    if (move < 0 || move >= self->tables.cells || self->position.stone[move]) {
        PyErr_SetString(PyExc_ValueError, "the move must be an empty cell of the board");
        return NULL;
    }
    double deadline = deadline_after(seconds);
    WITHOUT_GIL(self, status = solver_move_wins(&self->solver, turn, move, stones, deadline, &wins));
    if (status)
        Py_RETURN_NONE;
    return PyBool_FromLong(wins);
}

/* ThreatSolver.defences: the moves after which the opponent has no VCT of 7 stones. */
static int defend_moves(Core *self, int turn, int16_t *moves, int n, double deadline)
{
    Solver *s = &self->solver;
    int enemy = 1 - turn, kept = 0;
    int16_t keep[MAX_CELLS];
    if (solver_solve(s, enemy, DEFENCE_DEPTH, VCT, deadline) == NONE)
        return n;
    for (int i = 0; i < n; i++) {
        place(&self->position, moves[i], turn);
        int refuted = solver_solve(s, enemy, DEFENCE_DEPTH, VCT, deadline) == NONE;
        if (s->timed_out) {
            /* Moves the deadline left unchecked are kept, after the checked ones. */
            memmove(moves + kept, moves + i, sizeof(int16_t) * (size_t)(n - i));
            memcpy(moves, keep, sizeof(int16_t) * (size_t)kept);
            return kept + n - i;
        }
        lift(&self->position, moves[i], turn);
        if (refuted)
            keep[kept++] = moves[i];
    }
    if (!kept)
        return n;
    memcpy(moves, keep, sizeof(int16_t) * (size_t)kept);
    return kept;
}

static PyObject *core_defences(Core *self, PyObject *args)
{
    Py_buffer board;
    int turn, n;
    double seconds;
    PyObject *items;
    int16_t moves[MAX_CELLS];
    if (!PyArg_ParseTuple(args, "y*pOd", &board, &turn, &items, &seconds) ||
        !take(self, &board) || (n = read_moves(self, items, moves)) < 0)
        return NULL;
    double deadline = deadline_after(seconds);
    WITHOUT_GIL(self, n = defend_moves(self, turn, moves, n, deadline));
    return cell_list(moves, n);
}

/* Proof-number defences: see proof_guards. */
static PyObject *core_guards(Core *self, PyObject *args)
{
    Py_buffer board;
    int turn, n, stones;
    double seconds;
    PyObject *items;
    int16_t moves[MAX_CELLS];
    uint8_t cells[MAX_CELLS];
    if (!PyArg_ParseTuple(args, "y*pOid", &board, &turn, &items, &stones, &seconds))
        return NULL;
    if (board.len == self->tables.cells)
        memcpy(cells, board.buf, (size_t)board.len);
    if (!take(self, &board) || (n = read_moves(self, items, moves)) < 0)
        return NULL;
    double deadline = deadline_after(seconds);
    WITHOUT_GIL(self, n = proof_guards(&self->proof, cells, turn, moves, n, stones, deadline));
    return cell_list(moves, n);
}

static PyObject *stats_tuple(const Stats *s)
{
    return Py_BuildValue("(llllllli)", s->nodes, s->evals[0], s->evals[1], s->cutoffs[0],
                         s->cutoffs[1], s->tt_hits, s->tt_cutoffs, s->max_ply);
}

static PyObject *core_search(Core *self, PyObject *args, PyObject *kwargs)
{
    static char *names[] = {"board", "turn", "depth", "moves", "exact", "seconds", "nodes",
                            "new_run", NULL};
    Py_buffer board;
    int turn, depth, exact, new_run, n, complete;
    long nodes;
    double seconds;
    PyObject *items;
    int16_t moves[MAX_CELLS];
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "y*piOpdlp", names, &board, &turn, &depth,
                                     &items, &exact, &seconds, &nodes, &new_run) ||
        !take(self, &board) || (n = read_moves(self, items, moves)) < 0)
        return NULL;
    if (!n || depth < 1 || depth > 64) {
        PyErr_SetString(PyExc_ValueError, "a search needs moves and a depth of 1 to 64");
        return NULL;
    }
    Search *s = &self->search;
    if (new_run)
        search_new_run(s);
    s->root_side = turn;
    s->exact = exact;
    s->node_limit = nodes;
    s->stats = (Stats){0};
    double deadline = deadline_after(seconds);
    WITHOUT_GIL(self, complete = search_root(s, depth, moves, n, deadline));
    PyObject *pv = cell_list(s->best_pv, s->searched ? s->best_pv_length : 0);
    return Py_BuildValue("OiiiNN", complete ? Py_True : Py_False, s->searched, s->best_move,
                         s->best_score, pv, stats_tuple(&s->stats));
}

static PyObject *core_clear(Core *self, PyObject *unused)
{
    (void)unused;
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "the core is already searching");
        return NULL;
    }
    search_clear(&self->search);
    Py_RETURN_NONE;
}

static PyObject *core_nodes(Core *self, PyObject *unused)
{
    (void)unused;
    return Py_BuildValue("ll", self->solver.nodes, self->proof.visited);
}

static PyMethodDef core_methods[] = {
    {"patterns", (PyCFunction)core_patterns, METH_VARARGS,
     "patterns(board) -> (flags, (worth0, threes0, worth1, threes1))"},
    {"evaluate", (PyCFunction)core_evaluate, METH_VARARGS,
     "evaluate(board, turn, combined=False) -> int: the reference or the timed search's"},
    {"search_moves", (PyCFunction)core_search_moves, METH_VARARGS,
     "search_moves(board, turn) -> list of cells"},
    {"solve", (PyCFunction)core_solve, METH_VARARGS,
     "solve(board, side, depth, kind, seconds) -> (move or -1, timed_out)"},
    {"winning_move", (PyCFunction)core_winning_move, METH_VARARGS,
     "winning_move(board, turn, seconds, proof) -> (move, plies) or None"},
    {"prove", (PyCFunction)core_prove, METH_VARARGS,
     "prove(board, side, depth, kind, seconds) -> ((move, stones) or None, status)"},
    {"move_wins", (PyCFunction)core_move_wins, METH_VARARGS,
     "move_wins(board, turn, move, stones, seconds) -> bool, or None past the deadline"},
    {"defences", (PyCFunction)core_defences, METH_VARARGS,
     "defences(board, turn, moves, seconds) -> list of cells"},
    {"guards", (PyCFunction)core_guards, METH_VARARGS,
     "guards(board, turn, moves, stones, seconds) -> the moves that leave the opponent no "
     "VCT of that many stones"},
    {"search", (PyCFunction)(void (*)(void))core_search, METH_VARARGS | METH_KEYWORDS,
     "search(board, turn, depth, moves, exact, seconds, nodes, new_run) -> "
     "(complete, searched, move, score, pv, stats)"},
    {"clear", (PyCFunction)core_clear, METH_NOARGS, "forget the positions searched"},
    {"nodes", (PyCFunction)core_nodes, METH_NOARGS, "(threat nodes, proof nodes) so far"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject CoreType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "gamut_engine.games._connect5_core.Core",
    .tp_basicsize = sizeof(Core),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Connect Five's compiled search for one board size.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)core_init,
    .tp_dealloc = (destructor)core_dealloc,
    .tp_methods = core_methods,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_connect5_core",
    .m_doc = "Connect Five's compiled search.",
    .m_size = -1,
};

PyMODINIT_FUNC PyInit__connect5_core(void)
{
    if (PyType_Ready(&CoreType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m)
        return NULL;
    Py_INCREF(&CoreType);
    if (PyModule_AddObject(m, "Core", (PyObject *)&CoreType) < 0) {
        Py_DECREF(&CoreType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
