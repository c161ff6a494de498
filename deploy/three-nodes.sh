#!/usr/bin/env bash
# Three Gamut nodes on 127.0.0.1:8081, 8082 and 8083, sharing the local PostgreSQL and
# Redis, to try the cluster on one machine (with deploy/nginx.conf or deploy/haproxy.cfg
# in front, or by connecting to a node directly). Ctrl-C or SIGTERM stops all three.
#
#   deploy/three-nodes.sh            # from the source tree, after `make .venv/.installed-stamp`
#
# Settings (environment):
#   GAMUT         the gamut command              (default: .venv/bin/gamut beside this folder)
#   GAMUT_PG      the PostgreSQL server, as a URL of any database on it
#                                                (default: postgresql://postgres@127.0.0.1:5432/postgres)
#   GAMUT_DBNAME  the database the nodes share, made if missing (default: gamut)
#   GAMUT_REDIS   the Redis                       (default: redis://127.0.0.1:6379)
#   GAMUT_CLUSTER the cluster's name, the prefix of its Redis keys (default: gamut)
#   GAMUT_LOGS    where each node's log goes      (default: ./three-nodes-logs)
#   GAMUT_PORTS   the nodes' ports                (default: "8081 8082 8083")
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
gamut=${GAMUT:-$here/.venv/bin/gamut}
server=${GAMUT_PG:-postgresql://postgres@127.0.0.1:5432/postgres}
dbname=${GAMUT_DBNAME:-gamut}
redis=${GAMUT_REDIS:-redis://127.0.0.1:6379}
cluster=${GAMUT_CLUSTER:-gamut}
logs=${GAMUT_LOGS:-./three-nodes-logs}
read -r -a ports <<< "${GAMUT_PORTS:-8081 8082 8083}"
db=${server%/*}/$dbname
# Every setting goes on the command lines below; the server's own variables of the same
# names would otherwise be read as well, by gamut db too.
unset GAMUT_REDIS GAMUT_NODE GAMUT_CLUSTER

if ! psql "$server" -tAc "SELECT 1 FROM pg_database WHERE datname = '$dbname'" | grep -q 1; then
    psql "$server" -qc "CREATE DATABASE \"$dbname\""
    echo "made the database $dbname"
fi
# Once, before any node starts: the nodes themselves are started with --no-migrate.
"$gamut" db upgrade --db "$db"

mkdir -p "$logs"
pids=()
stop() {
    trap - INT TERM EXIT
    if ((${#pids[@]})); then
        kill -TERM "${pids[@]}" 2>/dev/null || true
        wait "${pids[@]}" 2>/dev/null || true
    fi
}
trap 'stop; exit 130' INT TERM
trap stop EXIT

for index in "${!ports[@]}"; do
    node=node$((index + 1))
    port=${ports[$index]}
    command=("$gamut" serve --host 127.0.0.1 --port "$port" --db "$db" --no-migrate
        --redis "$redis" --node "$node" --cluster "$cluster" --trusted-proxy 127.0.0.1)
    "${command[@]}" >> "$logs/$node.log" 2>&1 &
    pids+=($!)
    echo "$node: pid $!, http://127.0.0.1:$port/ (log: $logs/$node.log)"
    echo "  to start it again: ${command[*]@Q} >> $logs/$node.log 2>&1 &"
done

for port in "${ports[@]}"; do
    for _ in $(seq 100); do
        curl -fsS "http://127.0.0.1:$port/health" > /dev/null 2>&1 && break
        sleep 0.1
    done
    curl -fsS "http://127.0.0.1:$port/health" || { echo "no answer on port $port"; exit 1; }
    echo
done
echo "three nodes up, cluster $cluster, database $db; Ctrl-C stops them"
# A node that stops (or is killed) is left stopped: start it again by hand, with the
# same command line (see its log's first lines), to see it rejoin.
wait
