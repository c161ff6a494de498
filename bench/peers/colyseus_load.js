// Load clients for colyseus_server.js: pairs of Colyseus clients playing random legal
// Connect Five moves, each as soon as it is its turn, game after game.
// Usage: node colyseus_load.js --url ws://127.0.0.1:PORT --games N [--seed S]
const { Client } = require('colyseus.js');
const { CELLS } = require('./connect5');
const { options, Tally, serveWindow, inChunks } = require('./common');
const { generator } = require('./random');

const args = options({ games: 10, seed: 1 });
const tally = new Tally();
const rooms = new Set();
let seated = 0;
let allSeated;
const ready = new Promise((resolve) => (allSeated = resolve));

// Play one side of a room until the game ends; resolves then.
function playSide(room, side, random, first) {
  return new Promise((resolve) => {
    const cells = Array(CELLS).fill(null);
    const move = (ply) => {
      const empty = [];
      cells.forEach((owner, cell) => owner === null && empty.push(cell));
      tally.sent(`${room.roomId}:${ply}`);
      room.send('move', { cell: empty[Math.floor(random() * empty.length)], ply });
    };
    room.onMessage('start', () => {
      if (first && ++seated === 2 * args.games) allSeated();
      if (side === 0) move(0);
    });
    room.onMessage('moved', ({ cell, ply, over }) => {
      cells[cell] = ply % 2;
      if (ply % 2 !== side) tally.arrived(`${room.roomId}:${ply}`);
      if (over) {
        rooms.delete(room);
        room.leave().then(resolve, resolve);
      } else if ((ply + 1) % 2 === side) {
        move(ply + 1);
      }
    });
    room.send('ready');
  });
}

// A new room with both players in it.
async function newRoom(client) {
  const host = await client.create('c5');
  const guest = await client.joinById(host.roomId);
  rooms.add(host).add(guest);
  return [host, guest];
}

async function pair(client, n, room) {
  const random = generator(args.seed * 100003 + n);
  for (let first = true; ; first = false) {
    const [host, guest] = room;
    await Promise.all([playSide(host, 0, random, first), playSide(guest, 1, random, first)]);
    room = await newRoom(client);
  }
}

async function main() {
  const client = new Client(args.url);
  // The first rooms a hundred at a time: a thousand matchmaking requests at once are
  // refused.
  const firstRooms = await inChunks([...Array(args.games).keys()], 100, () => newRoom(client));
  firstRooms.forEach((room, n) =>
    pair(client, n, room).catch((error) => {
      tally.errors += 1;
      console.error(String(error));
    })
  );
}

serveWindow(ready, tally, () => rooms.forEach((room) => room.leave()));
main();
