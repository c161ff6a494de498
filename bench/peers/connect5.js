// Connect Five on a 15 x 15 board as a boardgame.io game, written as its users write one:
// the board in G, one move that places a stone (INVALID_MOVE on a taken cell), and endIf
// checking the lines through the last stone for five in a row.
const { INVALID_MOVE } = require('boardgame.io/core');

const SIZE = 15;
const CELLS = SIZE * SIZE;
const DIRECTIONS = [
  [0, 1],
  [1, 0],
  [1, 1],
  [1, -1],
];

// Whether the stone on `cell` has four more of its side in a row along one line.
function makesFive(cells, cell) {
  const side = cells[cell];
  const row = Math.floor(cell / SIZE);
  const col = cell % SIZE;
  for (const [dr, dc] of DIRECTIONS) {
    let count = 1;
    for (const sign of [1, -1]) {
      let r = row + sign * dr;
      let c = col + sign * dc;
      while (r >= 0 && r < SIZE && c >= 0 && c < SIZE && cells[r * SIZE + c] === side) {
        count += 1;
        r += sign * dr;
        c += sign * dc;
      }
    }
    if (count >= 5) return true;
  }
  return false;
}

const ConnectFive = {
  name: 'connect5',
  minPlayers: 2,
  maxPlayers: 2,
  setup: () => ({ cells: Array(CELLS).fill(null), last: null, ply: 0 }),
  turn: { minMoves: 1, maxMoves: 1 },
  moves: {
    place: ({ G, playerID }, cell) => {
      if (!Number.isInteger(cell) || cell < 0 || cell >= CELLS || G.cells[cell] !== null) {
        return INVALID_MOVE;
      }
      G.cells[cell] = playerID;
      G.last = cell;
      G.ply += 1;
    },
  },
  endIf: ({ G, ctx }) => {
    if (G.last !== null && makesFive(G.cells, G.last)) return { winner: ctx.currentPlayer };
    if (G.ply === CELLS) return { draw: true };
    return undefined;
  },
};

module.exports = { ConnectFive, SIZE, CELLS, makesFive };
