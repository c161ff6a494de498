// A boardgame.io 0.50 server for Connect Five, in memory or with its FlatFile storage.
// Usage: node bgio_server.js [--flatfile DIR]; listens on a free loopback port and prints
// "connect to http://127.0.0.1:PORT".
const { Server, FlatFile } = require('boardgame.io/server');
const { ConnectFive } = require('./connect5');

const flat = process.argv.indexOf('--flatfile');
const db = flat > 0 ? new FlatFile({ dir: process.argv[flat + 1], logging: false }) : undefined;
if (db) {
  // node-persist 3.1 queues writes and makes them once a second, and reads what is on
  // disk meanwhile: a client that connects before its new match is written never gets
  // it. Without the queue each write is made when asked, as FlatFile expects.
  db.connect = () => db.games.init({ dir: db.dir, logging: false, writeQueue: false });
}
const server = Server({ games: [ConnectFive], db, origins: [/^http:\/\/127\.0\.0\.1(:\d+)?$/] });

// The Socket.IO transport made app.listen its own; keep it to the loopback address.
const listen = server.app.listen.bind(server.app);
server.app.listen = (port, callback) => listen(port, '127.0.0.1', callback);

async function main() {
  const { appServer } = await server.run(0);
  console.log(`connect to http://127.0.0.1:${appServer.address().port}`);
}

process.on('SIGTERM', () => process.exit(0));
main();
