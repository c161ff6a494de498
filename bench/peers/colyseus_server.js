// A Colyseus 0.15 server for Connect Five: a room of two that checks each move (the
// player's turn, the ply, an empty cell) and the win through the last stone, and
// broadcasts it; it stores nothing. Listens on a free loopback port and prints
// "connect to ws://127.0.0.1:PORT".
const http = require('http');
const { Server, Room } = require('colyseus');
const { WebSocketTransport } = require('@colyseus/ws-transport');
const { CELLS, makesFive } = require('./connect5');

class ConnectFiveRoom extends Room {
  onCreate() {
    this.maxClients = 2;
    this.cells = Array(CELLS).fill(null);
    this.ply = 0;
    this.ready = 0;
    this.onMessage('move', (client, { cell, ply }) => this.move(client, cell, ply));
    // A client says it is ready once it listens to the room's messages.
    this.onMessage('ready', () => {
      this.ready += 1;
      if (this.ready === 2) this.broadcast('start', { ply: 0 });
    });
  }

  onJoin() {
    if (this.clients.length === 2) this.lock();
  }

  move(client, cell, ply) {
    const side = this.clients.indexOf(client) === this.ply % 2 ? String(this.ply % 2) : null;
    if (side === null || ply !== this.ply || !Number.isInteger(cell) || cell < 0 || cell >= CELLS) return;
    if (this.cells[cell] !== null) return;
    this.cells[cell] = side;
    this.ply += 1;
    const over = makesFive(this.cells, cell) || this.ply === CELLS;
    this.broadcast('moved', { cell, ply: this.ply - 1, over });
  }
}

const server = http.createServer();
const game = new Server({ transport: new WebSocketTransport({ server }) });
game.define('c5', ConnectFiveRoom);
server.listen(0, '127.0.0.1', () => {
  console.log(`connect to ws://127.0.0.1:${server.address().port}`);
});
process.on('SIGTERM', () => process.exit(0));
