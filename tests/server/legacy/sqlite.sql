BEGIN TRANSACTION;
CREATE TABLE accounts (
	id INTEGER NOT NULL, 
	name VARCHAR NOT NULL, 
	token_hash VARCHAR NOT NULL, 
	created_at DATETIME NOT NULL, 
	revoked BOOLEAN NOT NULL, 
	PRIMARY KEY (id), 
	UNIQUE (name)
);
INSERT INTO "accounts" VALUES(1,'ada','argon2-hash-of-ada','2026-06-01 09:30:00.000000',0);
INSERT INTO "accounts" VALUES(2,'bob','argon2-hash-of-bob','2026-06-01 09:30:01.000000',0);
INSERT INTO "accounts" VALUES(3,'eve','argon2-hash-of-eve','2026-06-01 09:30:02.000000',1);
CREATE TABLE chat (
	room VARCHAR NOT NULL, 
	seq INTEGER NOT NULL, 
	author VARCHAR NOT NULL, 
	text TEXT NOT NULL, 
	at DATETIME NOT NULL, 
	PRIMARY KEY (room, seq)
);
INSERT INTO "chat" VALUES('finished1',1,'ada','good luck','2026-06-01 09:30:07.000000');
INSERT INTO "chat" VALUES('lobby',1,'ada','good luck','2026-06-01 09:30:04.000000');
INSERT INTO "chat" VALUES('finished1',2,'bob','thanks, é ü 🙂','2026-06-01 09:30:08.000000');
INSERT INTO "chat" VALUES('lobby',2,'bob','thanks, é ü 🙂','2026-06-01 09:30:05.000000');
CREATE TABLE games (
	id VARCHAR(16) NOT NULL, 
	game VARCHAR NOT NULL, 
	options JSON NOT NULL, 
	time_control JSON NOT NULL, 
	p0_name VARCHAR, 
	p0_kind VARCHAR(8), 
	p0_account INTEGER, 
	p1_name VARCHAR, 
	p1_kind VARCHAR(8), 
	p1_account INTEGER, 
	rated BOOLEAN NOT NULL, 
	pool VARCHAR, 
	status VARCHAR(8) NOT NULL, 
	winner SMALLINT, 
	reason VARCHAR, 
	line JSON, 
	clock0_ms INTEGER, 
	clock1_ms INTEGER, 
	to_move SMALLINT NOT NULL, 
	clock_at DATETIME, 
	plies INTEGER NOT NULL, 
	last_seq INTEGER NOT NULL, 
	created_at DATETIME NOT NULL, 
	started_at DATETIME, 
	finished_at DATETIME, 
	PRIMARY KEY (id), 
	CONSTRAINT ck_games_status CHECK (status IN ('waiting', 'running', 'finished', 'aborted')), 
	FOREIGN KEY(p0_account) REFERENCES accounts (id), 
	FOREIGN KEY(p1_account) REFERENCES accounts (id)
);
INSERT INTO "games" VALUES('finished1','network','{"rules": "cs61b"}','{"kind": "untimed"}','ada','human',NULL,'bob','human',NULL,0,NULL,'finished',0,'resignation','[]',NULL,NULL,1,'2026-06-01 09:30:12.000000',3,9,'2026-06-01 09:30:05.000000','2026-06-01 09:30:05.000000','2026-06-01 09:30:30.000000');
INSERT INTO "games" VALUES('running1','connect5','{"size": 9}','{"kind": "fischer", "initial_ms": 300000, "increment_ms": 2000}','ada','human',NULL,'bob','human',NULL,0,NULL,'running',NULL,NULL,NULL,297000,298500,0,'2026-06-01 09:30:13.000000',4,5,'2026-06-01 09:30:40.000000','2026-06-01 09:30:40.000000',NULL);
INSERT INTO "games" VALUES('waiting1','crusher','{"n": 3}','{"kind": "untimed"}','bob','human',NULL,NULL,NULL,NULL,0,NULL,'waiting',NULL,NULL,NULL,NULL,NULL,0,NULL,0,0,'2026-06-01 09:30:50.000000',NULL,NULL);
INSERT INTO "games" VALUES('aborted1','loa','{"size": 6}','{"kind": "untimed"}','ada','human',NULL,'bob','human',NULL,0,NULL,'aborted',NULL,'abandoned','[]',NULL,NULL,0,'2026-06-01 09:31:00.000000',0,3,'2026-06-01 09:31:00.000000','2026-06-01 09:31:00.000000','2026-06-01 09:31:01.000000');
INSERT INTO "games" VALUES('rated1','connect5','{"size": 9}','{"kind": "untimed"}','ada','bot',1,'ai:3','ai',NULL,1,'c5-9','finished',0,'five','["e5", "e4"]',NULL,NULL,1,'2026-06-01 09:30:12.000000',3,6,'2026-06-01 09:31:10.000000','2026-06-01 09:31:10.000000','2026-06-01 09:31:20.000000');
CREATE TABLE ladder_history (
	id INTEGER NOT NULL, 
	game_id VARCHAR(16) NOT NULL, 
	pool VARCHAR NOT NULL, 
	name VARCHAR NOT NULL, 
	side SMALLINT NOT NULL, 
	opponent VARCHAR NOT NULL, 
	score FLOAT NOT NULL, 
	mu_before FLOAT NOT NULL, 
	sigma_before FLOAT NOT NULL, 
	mu_after FLOAT NOT NULL, 
	sigma_after FLOAT NOT NULL, 
	at DATETIME NOT NULL, 
	PRIMARY KEY (id), 
	CONSTRAINT uq_ladder_history_game_name UNIQUE (game_id, name), 
	FOREIGN KEY(game_id) REFERENCES games (id)
);
INSERT INTO "ladder_history" VALUES(1,'rated1','c5-9','ada',0,'ai:3',1.0,25.0,8.333,27.6,7.9,'2026-06-01 09:31:21.000000');
INSERT INTO "ladder_history" VALUES(2,'rated1','c5-9','ai:3',1,'ada',0.0,20.0,3.0,19.7,2.99,'2026-06-01 09:31:21.000000');
CREATE TABLE ladder_members (
	pool VARCHAR NOT NULL, 
	name VARCHAR NOT NULL, 
	account_id INTEGER, 
	member BOOLEAN NOT NULL, 
	joined_at DATETIME NOT NULL, 
	left_at DATETIME, 
	last_seen_at DATETIME, 
	PRIMARY KEY (pool, name), 
	FOREIGN KEY(account_id) REFERENCES accounts (id)
);
INSERT INTO "ladder_members" VALUES('c5-9','ada',1,1,'2026-06-01 09:31:05.000000',NULL,'2026-06-01 09:31:05.000000');
CREATE TABLE ladder_queue (
	id INTEGER NOT NULL, 
	pool VARCHAR NOT NULL, 
	name VARCHAR NOT NULL, 
	event VARCHAR(16) NOT NULL, 
	game_id VARCHAR(16), 
	wait_ms INTEGER, 
	at DATETIME NOT NULL, 
	PRIMARY KEY (id)
);
INSERT INTO "ladder_queue" VALUES(1,'c5-9','ada','join',NULL,NULL,'2026-06-01 09:31:06.000000');
INSERT INTO "ladder_queue" VALUES(2,'c5-9','ada','paired','rated1',3900,'2026-06-01 09:31:10.000000');
CREATE TABLE ladder_ratings (
	pool VARCHAR NOT NULL, 
	name VARCHAR NOT NULL, 
	kind VARCHAR(8) NOT NULL, 
	account_id INTEGER, 
	mu FLOAT NOT NULL, 
	sigma FLOAT NOT NULL, 
	wins INTEGER NOT NULL, 
	draws INTEGER NOT NULL, 
	losses INTEGER NOT NULL, 
	first_side INTEGER NOT NULL, 
	last_played_at DATETIME, 
	PRIMARY KEY (pool, name), 
	FOREIGN KEY(account_id) REFERENCES accounts (id)
);
INSERT INTO "ladder_ratings" VALUES('c5-9','ada','bot',1,27.6,7.9,1,0,0,1,'2026-06-01 09:31:21.000000');
INSERT INTO "ladder_ratings" VALUES('c5-9','ai:3','ai',NULL,19.7,2.99,0,0,1,-1,'2026-06-01 09:31:21.000000');
CREATE TABLE moves (
	game_id VARCHAR(16) NOT NULL, 
	ply INTEGER NOT NULL, 
	move VARCHAR NOT NULL, 
	side SMALLINT NOT NULL, 
	think_ms INTEGER NOT NULL, 
	clock0_ms INTEGER, 
	clock1_ms INTEGER, 
	to_move SMALLINT NOT NULL, 
	seq INTEGER NOT NULL, 
	at DATETIME NOT NULL, 
	PRIMARY KEY (game_id, ply), 
	FOREIGN KEY(game_id) REFERENCES games (id) ON DELETE CASCADE
);
INSERT INTO "moves" VALUES('finished1',0,'a1',0,700,NULL,NULL,1,2,'2026-06-01 09:30:10.000000');
INSERT INTO "moves" VALUES('finished1',1,'b2',1,701,NULL,NULL,0,3,'2026-06-01 09:30:11.000000');
INSERT INTO "moves" VALUES('finished1',2,'c3',0,702,NULL,NULL,1,4,'2026-06-01 09:30:12.000000');
INSERT INTO "moves" VALUES('running1',0,'e5',0,700,297000,298500,1,2,'2026-06-01 09:30:10.000000');
INSERT INTO "moves" VALUES('running1',1,'e6',1,701,297000,298500,0,3,'2026-06-01 09:30:11.000000');
INSERT INTO "moves" VALUES('running1',2,'d4',0,702,297000,298500,1,4,'2026-06-01 09:30:12.000000');
INSERT INTO "moves" VALUES('running1',3,'f6',1,703,297000,298500,0,5,'2026-06-01 09:30:13.000000');
INSERT INTO "moves" VALUES('rated1',0,'e5',0,700,NULL,NULL,1,2,'2026-06-01 09:30:10.000000');
INSERT INTO "moves" VALUES('rated1',1,'a1',1,701,NULL,NULL,0,3,'2026-06-01 09:30:11.000000');
INSERT INTO "moves" VALUES('rated1',2,'e4',0,702,NULL,NULL,1,4,'2026-06-01 09:30:12.000000');
CREATE INDEX ix_ladder_queue_pool_at ON ladder_queue (pool, at);
CREATE INDEX ix_games_game_status_finished ON games (game, status, finished_at);
CREATE INDEX ix_games_p0_name ON games (p0_name);
CREATE INDEX ix_games_p1_name ON games (p1_name);
CREATE INDEX ix_games_status_finished ON games (status, finished_at);
CREATE INDEX ix_ladder_history_pool_at ON ladder_history (pool, at);
COMMIT;
