// Load clients for bgio_server.js: pairs of boardgame.io clients playing random legal
// Connect Five moves, each as soon as it is its turn, game after game.
// Usage: node bgio_load.js --url http://127.0.0.1:PORT --games N [--seed S]
const { Client } = require('boardgame.io/client');
const { SocketIO } = require('boardgame.io/multiplayer');
const { ConnectFive } = require('./connect5');
const { options, Tally, serveWindow, inChunks } = require('./common');
const { generator } = require('./random');

const args = options({ games: 10, seed: 1 });
const tally = new Tally();
const clients = new Set();
let seated = 0;
let allSeated;
const ready = new Promise((resolve) => (allSeated = resolve));

async function post(path, body) {
  const response = await fetch(`${args.url}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
  return response.json();
}

// A new match and both players' credentials.
async function newMatch() {
  const { matchID } = await post('/games/connect5/create', { numPlayers: 2 });
  // One after the other: FlatFile storage loses one of two joins made at once.
  const credentials = [];
  for (const playerID of ['0', '1']) {
    const seat = await post(`/games/connect5/${matchID}/join`, { playerID, playerName: `p${playerID}` });
    credentials.push(seat.playerCredentials);
  }
  return { matchID, credentials };
}

// Play one side of a match until it ends; resolves then.
function playSide(match, playerID, random, first) {
  return new Promise((resolve) => {
    const client = Client({
      game: ConnectFive,
      multiplayer: SocketIO({ server: args.url }),
      matchID: match.matchID,
      playerID,
      credentials: match.credentials[Number(playerID)],
      debug: false,
    });
    clients.add(client);
    let seen = -1;
    let answered = -1;
    client.subscribe((state) => {
      if (state === null || !state.isConnected) return;
      const { G, ctx } = state;
      if (seen < 0 && first && ++seated === 2 * args.games) allSeated();
      if (G.ply > seen) {
        if (G.ply > 0 && G.cells[G.last] !== playerID) tally.arrived(`${match.matchID}:${G.ply - 1}`);
        seen = G.ply;
      }
      if (ctx.gameover) {
        client.stop();
        clients.delete(client);
        resolve();
        return;
      }
      // The client plays a move on its own copy at once, without ending the turn (the
      // server does): move once per turn.
      if (ctx.currentPlayer === playerID && answered < ctx.turn) {
        answered = ctx.turn;
        const empty = [];
        G.cells.forEach((owner, cell) => owner === null && empty.push(cell));
        tally.sent(`${match.matchID}:${G.ply}`);
        client.moves.place(empty[Math.floor(random() * empty.length)]);
      }
    });
    client.start();
  });
}

async function pair(match, n) {
  const random = generator(args.seed * 100003 + n);
  for (let first = true; ; first = false) {
    await Promise.all([playSide(match, '0', random, first), playSide(match, '1', random, first)]);
    match = await newMatch();
  }
}

async function main() {
  const matches = await inChunks([...Array(args.games).keys()], 100, () => newMatch());
  matches.forEach((match, n) => pair(match, n).catch(() => (tally.errors += 1)));
}

serveWindow(ready, tally, () => clients.forEach((client) => client.stop()));
main();
