--
-- PostgreSQL database dump
--

\restrict Ha6Wid4IYPsGuh7fXpJizIztwFMdUGFC4LxumuFW9u50FLPtIyAbrdFIQrefUbO

-- Dumped from database version 15.20 (Debian 15.20-0+deb12u1)
-- Dumped by pg_dump version 15.20 (Debian 15.20-0+deb12u1)

SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SELECT pg_catalog.set_config('search_path', '', false);
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;

--
-- Name: gamut_legacy; Type: SCHEMA; Schema: -; Owner: -
--

CREATE SCHEMA gamut_legacy;


SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: accounts; Type: TABLE; Schema: gamut_legacy; Owner: -
--

CREATE TABLE gamut_legacy.accounts (
    id integer NOT NULL,
    name character varying NOT NULL,
    token_hash character varying NOT NULL,
    created_at timestamp with time zone NOT NULL,
    revoked boolean NOT NULL
);


--
-- Name: accounts_id_seq; Type: SEQUENCE; Schema: gamut_legacy; Owner: -
--

CREATE SEQUENCE gamut_legacy.accounts_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: accounts_id_seq; Type: SEQUENCE OWNED BY; Schema: gamut_legacy; Owner: -
--

ALTER SEQUENCE gamut_legacy.accounts_id_seq OWNED BY gamut_legacy.accounts.id;


--
-- Name: chat; Type: TABLE; Schema: gamut_legacy; Owner: -
--

CREATE TABLE gamut_legacy.chat (
    room character varying NOT NULL,
    seq integer NOT NULL,
    author character varying NOT NULL,
    text text NOT NULL,
    at timestamp with time zone NOT NULL
);


--
-- Name: games; Type: TABLE; Schema: gamut_legacy; Owner: -
--

CREATE TABLE gamut_legacy.games (
    id character varying(16) NOT NULL,
    game character varying NOT NULL,
    options jsonb NOT NULL,
    time_control jsonb NOT NULL,
    p0_name character varying,
    p0_kind character varying(8),
    p0_account integer,
    p1_name character varying,
    p1_kind character varying(8),
    p1_account integer,
    rated boolean NOT NULL,
    pool character varying,
    status character varying(8) NOT NULL,
    winner smallint,
    reason character varying,
    line jsonb,
    clock0_ms integer,
    clock1_ms integer,
    to_move smallint NOT NULL,
    clock_at timestamp with time zone,
    plies integer NOT NULL,
    last_seq integer NOT NULL,
    created_at timestamp with time zone NOT NULL,
    started_at timestamp with time zone,
    finished_at timestamp with time zone,
    CONSTRAINT ck_games_status CHECK (((status)::text = ANY ((ARRAY['waiting'::character varying, 'running'::character varying, 'finished'::character varying, 'aborted'::character varying])::text[])))
);


--
-- Name: ladder_history; Type: TABLE; Schema: gamut_legacy; Owner: -
--

CREATE TABLE gamut_legacy.ladder_history (
    id integer NOT NULL,
    game_id character varying(16) NOT NULL,
    pool character varying NOT NULL,
    name character varying NOT NULL,
    side smallint NOT NULL,
    opponent character varying NOT NULL,
    score double precision NOT NULL,
    mu_before double precision NOT NULL,
    sigma_before double precision NOT NULL,
    mu_after double precision NOT NULL,
    sigma_after double precision NOT NULL,
    at timestamp with time zone NOT NULL
);


--
-- Name: ladder_history_id_seq; Type: SEQUENCE; Schema: gamut_legacy; Owner: -
--

CREATE SEQUENCE gamut_legacy.ladder_history_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: ladder_history_id_seq; Type: SEQUENCE OWNED BY; Schema: gamut_legacy; Owner: -
--

ALTER SEQUENCE gamut_legacy.ladder_history_id_seq OWNED BY gamut_legacy.ladder_history.id;


--
-- Name: ladder_members; Type: TABLE; Schema: gamut_legacy; Owner: -
--

CREATE TABLE gamut_legacy.ladder_members (
    pool character varying NOT NULL,
    name character varying NOT NULL,
    account_id integer,
    member boolean NOT NULL,
    joined_at timestamp with time zone NOT NULL,
    left_at timestamp with time zone,
    last_seen_at timestamp with time zone
);


--
-- Name: ladder_queue; Type: TABLE; Schema: gamut_legacy; Owner: -
--

CREATE TABLE gamut_legacy.ladder_queue (
    id integer NOT NULL,
    pool character varying NOT NULL,
    name character varying NOT NULL,
    event character varying(16) NOT NULL,
    game_id character varying(16),
    wait_ms integer,
    at timestamp with time zone NOT NULL
);


--
-- Name: ladder_queue_id_seq; Type: SEQUENCE; Schema: gamut_legacy; Owner: -
--

CREATE SEQUENCE gamut_legacy.ladder_queue_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: ladder_queue_id_seq; Type: SEQUENCE OWNED BY; Schema: gamut_legacy; Owner: -
--

ALTER SEQUENCE gamut_legacy.ladder_queue_id_seq OWNED BY gamut_legacy.ladder_queue.id;


--
-- Name: ladder_ratings; Type: TABLE; Schema: gamut_legacy; Owner: -
--

CREATE TABLE gamut_legacy.ladder_ratings (
    pool character varying NOT NULL,
    name character varying NOT NULL,
    kind character varying(8) NOT NULL,
    account_id integer,
    mu double precision NOT NULL,
    sigma double precision NOT NULL,
    wins integer NOT NULL,
    draws integer NOT NULL,
    losses integer NOT NULL,
    first_side integer NOT NULL,
    last_played_at timestamp with time zone
);


--
-- Name: moves; Type: TABLE; Schema: gamut_legacy; Owner: -
--

CREATE TABLE gamut_legacy.moves (
    game_id character varying(16) NOT NULL,
    ply integer NOT NULL,
    move character varying NOT NULL,
    side smallint NOT NULL,
    think_ms integer NOT NULL,
    clock0_ms integer,
    clock1_ms integer,
    to_move smallint NOT NULL,
    seq integer NOT NULL,
    at timestamp with time zone NOT NULL
);


--
-- Name: accounts id; Type: DEFAULT; Schema: gamut_legacy; Owner: -
--

ALTER TABLE ONLY gamut_legacy.accounts ALTER COLUMN id SET DEFAULT nextval('gamut_legacy.accounts_id_seq'::regclass);


--
-- Name: ladder_history id; Type: DEFAULT; Schema: gamut_legacy; Owner: -
--

ALTER TABLE ONLY gamut_legacy.ladder_history ALTER COLUMN id SET DEFAULT nextval('gamut_legacy.ladder_history_id_seq'::regclass);


--
-- Name: ladder_queue id; Type: DEFAULT; Schema: gamut_legacy; Owner: -
--

ALTER TABLE ONLY gamut_legacy.ladder_queue ALTER COLUMN id SET DEFAULT nextval('gamut_legacy.ladder_queue_id_seq'::regclass);


--
-- Data for Name: accounts; Type: TABLE DATA; Schema: gamut_legacy; Owner: -
--

INSERT INTO gamut_legacy.accounts VALUES (1, 'ada', 'argon2-hash-of-ada', '2026-06-01 09:30:00+00', false);
INSERT INTO gamut_legacy.accounts VALUES (2, 'bob', 'argon2-hash-of-bob', '2026-06-01 09:30:01+00', false);
INSERT INTO gamut_legacy.accounts VALUES (3, 'eve', 'argon2-hash-of-eve', '2026-06-01 09:30:02+00', true);


--
-- Data for Name: chat; Type: TABLE DATA; Schema: gamut_legacy; Owner: -
--

INSERT INTO gamut_legacy.chat VALUES ('finished1', 1, 'ada', 'good luck', '2026-06-01 09:30:07+00');
INSERT INTO gamut_legacy.chat VALUES ('lobby', 1, 'ada', 'good luck', '2026-06-01 09:30:04+00');
INSERT INTO gamut_legacy.chat VALUES ('finished1', 2, 'bob', 'thanks, é ü 🙂', '2026-06-01 09:30:08+00');
INSERT INTO gamut_legacy.chat VALUES ('lobby', 2, 'bob', 'thanks, é ü 🙂', '2026-06-01 09:30:05+00');


--
-- Data for Name: games; Type: TABLE DATA; Schema: gamut_legacy; Owner: -
--

INSERT INTO gamut_legacy.games VALUES ('finished1', 'network', '{"rules": "cs61b"}', '{"kind": "untimed"}', 'ada', 'human', NULL, 'bob', 'human', NULL, false, NULL, 'finished', 0, 'resignation', '[]', NULL, NULL, 1, '2026-06-01 09:30:12+00', 3, 9, '2026-06-01 09:30:05+00', '2026-06-01 09:30:05+00', '2026-06-01 09:30:30+00');
INSERT INTO gamut_legacy.games VALUES ('running1', 'connect5', '{"size": 9}', '{"kind": "fischer", "initial_ms": 300000, "increment_ms": 2000}', 'ada', 'human', NULL, 'bob', 'human', NULL, false, NULL, 'running', NULL, NULL, NULL, 297000, 298500, 0, '2026-06-01 09:30:13+00', 4, 5, '2026-06-01 09:30:40+00', '2026-06-01 09:30:40+00', NULL);
INSERT INTO gamut_legacy.games VALUES ('waiting1', 'crusher', '{"n": 3}', '{"kind": "untimed"}', 'bob', 'human', NULL, NULL, NULL, NULL, false, NULL, 'waiting', NULL, NULL, NULL, NULL, NULL, 0, NULL, 0, 0, '2026-06-01 09:30:50+00', NULL, NULL);
INSERT INTO gamut_legacy.games VALUES ('aborted1', 'loa', '{"size": 6}', '{"kind": "untimed"}', 'ada', 'human', NULL, 'bob', 'human', NULL, false, NULL, 'aborted', NULL, 'abandoned', '[]', NULL, NULL, 0, '2026-06-01 09:31:00+00', 0, 3, '2026-06-01 09:31:00+00', '2026-06-01 09:31:00+00', '2026-06-01 09:31:01+00');
INSERT INTO gamut_legacy.games VALUES ('rated1', 'connect5', '{"size": 9}', '{"kind": "untimed"}', 'ada', 'bot', 1, 'ai:3', 'ai', NULL, true, 'c5-9', 'finished', 0, 'five', '["e5", "e4"]', NULL, NULL, 1, '2026-06-01 09:30:12+00', 3, 6, '2026-06-01 09:31:10+00', '2026-06-01 09:31:10+00', '2026-06-01 09:31:20+00');


--
-- Data for Name: ladder_history; Type: TABLE DATA; Schema: gamut_legacy; Owner: -
--

INSERT INTO gamut_legacy.ladder_history VALUES (1, 'rated1', 'c5-9', 'ada', 0, 'ai:3', 1, 25, 8.333, 27.6, 7.9, '2026-06-01 09:31:21+00');
INSERT INTO gamut_legacy.ladder_history VALUES (2, 'rated1', 'c5-9', 'ai:3', 1, 'ada', 0, 20, 3, 19.7, 2.99, '2026-06-01 09:31:21+00');


--
-- Data for Name: ladder_members; Type: TABLE DATA; Schema: gamut_legacy; Owner: -
--

INSERT INTO gamut_legacy.ladder_members VALUES ('c5-9', 'ada', 1, true, '2026-06-01 09:31:05+00', NULL, '2026-06-01 09:31:05+00');


--
-- Data for Name: ladder_queue; Type: TABLE DATA; Schema: gamut_legacy; Owner: -
--

INSERT INTO gamut_legacy.ladder_queue VALUES (1, 'c5-9', 'ada', 'join', NULL, NULL, '2026-06-01 09:31:06+00');
INSERT INTO gamut_legacy.ladder_queue VALUES (2, 'c5-9', 'ada', 'paired', 'rated1', 3900, '2026-06-01 09:31:10+00');


--
-- Data for Name: ladder_ratings; Type: TABLE DATA; Schema: gamut_legacy; Owner: -
--

INSERT INTO gamut_legacy.ladder_ratings VALUES ('c5-9', 'ada', 'bot', 1, 27.6, 7.9, 1, 0, 0, 1, '2026-06-01 09:31:21+00');
INSERT INTO gamut_legacy.ladder_ratings VALUES ('c5-9', 'ai:3', 'ai', NULL, 19.7, 2.99, 0, 0, 1, -1, '2026-06-01 09:31:21+00');


--
-- Data for Name: moves; Type: TABLE DATA; Schema: gamut_legacy; Owner: -
--

INSERT INTO gamut_legacy.moves VALUES ('finished1', 0, 'a1', 0, 700, NULL, NULL, 1, 2, '2026-06-01 09:30:10+00');
INSERT INTO gamut_legacy.moves VALUES ('finished1', 1, 'b2', 1, 701, NULL, NULL, 0, 3, '2026-06-01 09:30:11+00');
INSERT INTO gamut_legacy.moves VALUES ('finished1', 2, 'c3', 0, 702, NULL, NULL, 1, 4, '2026-06-01 09:30:12+00');
INSERT INTO gamut_legacy.moves VALUES ('running1', 0, 'e5', 0, 700, 297000, 298500, 1, 2, '2026-06-01 09:30:10+00');
INSERT INTO gamut_legacy.moves VALUES ('running1', 1, 'e6', 1, 701, 297000, 298500, 0, 3, '2026-06-01 09:30:11+00');
INSERT INTO gamut_legacy.moves VALUES ('running1', 2, 'd4', 0, 702, 297000, 298500, 1, 4, '2026-06-01 09:30:12+00');
INSERT INTO gamut_legacy.moves VALUES ('running1', 3, 'f6', 1, 703, 297000, 298500, 0, 5, '2026-06-01 09:30:13+00');
INSERT INTO gamut_legacy.moves VALUES ('rated1', 0, 'e5', 0, 700, NULL, NULL, 1, 2, '2026-06-01 09:30:10+00');
INSERT INTO gamut_legacy.moves VALUES ('rated1', 1, 'a1', 1, 701, NULL, NULL, 0, 3, '2026-06-01 09:30:11+00');
INSERT INTO gamut_legacy.moves VALUES ('rated1', 2, 'e4', 0, 702, NULL, NULL, 1, 4, '2026-06-01 09:30:12+00');


--
-- Name: accounts_id_seq; Type: SEQUENCE SET; Schema: gamut_legacy; Owner: -
--

SELECT pg_catalog.setval('gamut_legacy.accounts_id_seq', 3, true);


--
-- Name: ladder_history_id_seq; Type: SEQUENCE SET; Schema: gamut_legacy; Owner: -
--

SELECT pg_catalog.setval('gamut_legacy.ladder_history_id_seq', 2, true);


--
-- Name: ladder_queue_id_seq; Type: SEQUENCE SET; Schema: gamut_legacy; Owner: -
--

SELECT pg_catalog.setval('gamut_legacy.ladder_queue_id_seq', 2, true);


--
-- Name: accounts accounts_name_key; Type: CONSTRAINT; Schema: gamut_legacy; Owner: -
--

ALTER TABLE ONLY gamut_legacy.accounts
    ADD CONSTRAINT accounts_name_key UNIQUE (name);


--
-- Name: accounts accounts_pkey; Type: CONSTRAINT; Schema: gamut_legacy; Owner: -
--

ALTER TABLE ONLY gamut_legacy.accounts
    ADD CONSTRAINT accounts_pkey PRIMARY KEY (id);


--
-- Name: chat chat_pkey; Type: CONSTRAINT; Schema: gamut_legacy; Owner: -
--

ALTER TABLE ONLY gamut_legacy.chat
    ADD CONSTRAINT chat_pkey PRIMARY KEY (room, seq);


--
-- Name: games games_pkey; Type: CONSTRAINT; Schema: gamut_legacy; Owner: -
--

ALTER TABLE ONLY gamut_legacy.games
    ADD CONSTRAINT games_pkey PRIMARY KEY (id);


--
-- Name: ladder_history ladder_history_pkey; Type: CONSTRAINT; Schema: gamut_legacy; Owner: -
--

ALTER TABLE ONLY gamut_legacy.ladder_history
    ADD CONSTRAINT ladder_history_pkey PRIMARY KEY (id);


--
-- Name: ladder_members ladder_members_pkey; Type: CONSTRAINT; Schema: gamut_legacy; Owner: -
--

ALTER TABLE ONLY gamut_legacy.ladder_members
    ADD CONSTRAINT ladder_members_pkey PRIMARY KEY (pool, name);


--
-- Name: ladder_queue ladder_queue_pkey; Type: CONSTRAINT; Schema: gamut_legacy; Owner: -
--

ALTER TABLE ONLY gamut_legacy.ladder_queue
    ADD CONSTRAINT ladder_queue_pkey PRIMARY KEY (id);


--
-- Name: ladder_ratings ladder_ratings_pkey; Type: CONSTRAINT; Schema: gamut_legacy; Owner: -
--

ALTER TABLE ONLY gamut_legacy.ladder_ratings
    ADD CONSTRAINT ladder_ratings_pkey PRIMARY KEY (pool, name);


--
-- Name: moves moves_pkey; Type: CONSTRAINT; Schema: gamut_legacy; Owner: -
--

ALTER TABLE ONLY gamut_legacy.moves
    ADD CONSTRAINT moves_pkey PRIMARY KEY (game_id, ply);


--
-- Name: ladder_history uq_ladder_history_game_name; Type: CONSTRAINT; Schema: gamut_legacy; Owner: -
--

ALTER TABLE ONLY gamut_legacy.ladder_history
    ADD CONSTRAINT uq_ladder_history_game_name UNIQUE (game_id, name);


--
-- Name: ix_games_game_status_finished; Type: INDEX; Schema: gamut_legacy; Owner: -
--

CREATE INDEX ix_games_game_status_finished ON gamut_legacy.games USING btree (game, status, finished_at);


--
-- Name: ix_games_p0_name; Type: INDEX; Schema: gamut_legacy; Owner: -
--

CREATE INDEX ix_games_p0_name ON gamut_legacy.games USING btree (p0_name);


--
-- Name: ix_games_p1_name; Type: INDEX; Schema: gamut_legacy; Owner: -
--

CREATE INDEX ix_games_p1_name ON gamut_legacy.games USING btree (p1_name);


--
-- Name: ix_games_status_finished; Type: INDEX; Schema: gamut_legacy; Owner: -
--

CREATE INDEX ix_games_status_finished ON gamut_legacy.games USING btree (status, finished_at);


--
-- Name: ix_ladder_history_pool_at; Type: INDEX; Schema: gamut_legacy; Owner: -
--

CREATE INDEX ix_ladder_history_pool_at ON gamut_legacy.ladder_history USING btree (pool, at);


--
-- Name: ix_ladder_queue_pool_at; Type: INDEX; Schema: gamut_legacy; Owner: -
--

CREATE INDEX ix_ladder_queue_pool_at ON gamut_legacy.ladder_queue USING btree (pool, at);


--
-- Name: games games_p0_account_fkey; Type: FK CONSTRAINT; Schema: gamut_legacy; Owner: -
--

ALTER TABLE ONLY gamut_legacy.games
    ADD CONSTRAINT games_p0_account_fkey FOREIGN KEY (p0_account) REFERENCES gamut_legacy.accounts(id);


--
-- Name: games games_p1_account_fkey; Type: FK CONSTRAINT; Schema: gamut_legacy; Owner: -
--

ALTER TABLE ONLY gamut_legacy.games
    ADD CONSTRAINT games_p1_account_fkey FOREIGN KEY (p1_account) REFERENCES gamut_legacy.accounts(id);


--
-- Name: ladder_history ladder_history_game_id_fkey; Type: FK CONSTRAINT; Schema: gamut_legacy; Owner: -
--

ALTER TABLE ONLY gamut_legacy.ladder_history
    ADD CONSTRAINT ladder_history_game_id_fkey FOREIGN KEY (game_id) REFERENCES gamut_legacy.games(id);


--
-- Name: ladder_members ladder_members_account_id_fkey; Type: FK CONSTRAINT; Schema: gamut_legacy; Owner: -
--

ALTER TABLE ONLY gamut_legacy.ladder_members
    ADD CONSTRAINT ladder_members_account_id_fkey FOREIGN KEY (account_id) REFERENCES gamut_legacy.accounts(id);


--
-- Name: ladder_ratings ladder_ratings_account_id_fkey; Type: FK CONSTRAINT; Schema: gamut_legacy; Owner: -
--

ALTER TABLE ONLY gamut_legacy.ladder_ratings
    ADD CONSTRAINT ladder_ratings_account_id_fkey FOREIGN KEY (account_id) REFERENCES gamut_legacy.accounts(id);


--
-- Name: moves moves_game_id_fkey; Type: FK CONSTRAINT; Schema: gamut_legacy; Owner: -
--

ALTER TABLE ONLY gamut_legacy.moves
    ADD CONSTRAINT moves_game_id_fkey FOREIGN KEY (game_id) REFERENCES gamut_legacy.games(id) ON DELETE CASCADE;


--
-- PostgreSQL database dump complete
--

\unrestrict Ha6Wid4IYPsGuh7fXpJizIztwFMdUGFC4LxumuFW9u50FLPtIyAbrdFIQrefUbO

