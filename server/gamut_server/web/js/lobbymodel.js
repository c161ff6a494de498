// The lobby as this client knows it: a lobby_snapshot with every later change applied.

export class LobbyModel {
  /** The lobby as ``snapshot`` describes it. */
  constructor(snapshot) {
    this.seeks = new Map(snapshot.seeks.map((seek) => [seek.seek_id, seek]));
    this.rooms = new Map(snapshot.rooms.map((room) => [room.room_id, room]));
    this.present = new Map((snapshot.present ?? []).map((player) => [player.name, player]));
    this.online = snapshot.online;
    this.chat = [...snapshot.chat];
  }

  /** Apply a lobby message; returns whether it changed anything. */
  apply(message) {
    switch (message.type) {
      case "seek_created":
        this.seeks.set(message.seek.seek_id, message.seek);
        return true;
      case "seek_removed":
        return this.seeks.delete(message.seek_id);
      case "room_updated":
        this.rooms.set(message.room.room_id, message.room);
        return true;
      case "room_removed":
        return this.rooms.delete(message.room_id);
      case "presence":
        if (message.left) this.present.delete(message.player.name);
        else this.present.set(message.player.name, message.player);
        this.online = message.online;
        return true;
      case "chat_line":
        if (message.room_id !== undefined) return false;
        this.chat.push({ author: message.author, text: message.text });
        return true;
      default:
        return false;
    }
  }
}
