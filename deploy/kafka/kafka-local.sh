#!/usr/bin/env bash
# Single-node Apache Kafka (KRaft broker+controller) on 127.0.0.1 for development and CI.
# The broker jars come from Maven Central through deploy/kafka/pom.xml; nothing else is downloaded.
#   kafka-local.sh start   fetch jars (once), format storage (once), start, wait until it answers
#   kafka-local.sh stop    stop the broker started by `start`
#   kafka-local.sh status  exit 0 when the broker answers on its port
# Env: KAFKA_HOME (default .kafka-local in the repo), KAFKA_PORT (default 19092), KAFKA_CONTROLLER_PORT (19093).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
home="${KAFKA_HOME:-$root/.kafka-local}"
port="${KAFKA_PORT:-19092}"
cport="${KAFKA_CONTROLLER_PORT:-19093}"
libs="$home/libs"; data="$home/data"; logs="$home/logs"; pidfile="$home/kafka.pid"

answers() { (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; }

fetch() {
  if [ -f "$libs/.complete" ]; then return; fi
  command -v mvn >/dev/null || { echo "kafka-local: maven (mvn) is required to fetch the broker" >&2; exit 1; }
  command -v java >/dev/null || { echo "kafka-local: java 17+ is required to run the broker" >&2; exit 1; }
  mkdir -p "$libs"
  mvn -q -B -f "$here/pom.xml" dependency:copy-dependencies -DincludeScope=runtime -DoutputDirectory="$libs"
  touch "$libs/.complete"
}

configure() {
  mkdir -p "$data" "$logs"
  cat > "$home/server.properties" <<PROPS
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$cport
listeners=PLAINTEXT://127.0.0.1:$port,CONTROLLER://127.0.0.1:$cport
advertised.listeners=PLAINTEXT://127.0.0.1:$port
controller.listener.names=CONTROLLER
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
inter.broker.listener.name=PLAINTEXT
log.dirs=$data
num.partitions=3
offsets.topic.replication.factor=1
offsets.topic.num.partitions=3
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
group.initial.rebalance.delay.ms=0
auto.create.topics.enable=false
log.flush.interval.messages=1
PROPS
}

java_opts() {
  echo -Xms256m -Xmx1g -XX:+UseG1GC -Djava.awt.headless=true \
    -Dkafka.logs.dir="$logs" -Dlog4j2.configurationFile="$here/log4j2.yaml"
}
java_run() { java $(java_opts) -cp "$libs/*" "$@"; }

start() {
  if answers; then echo "kafka-local: already answering on 127.0.0.1:$port"; return; fi
  fetch
  configure
  if [ ! -f "$data/meta.properties" ]; then
    id="$(java_run kafka.tools.StorageTool random-uuid)"
    java_run kafka.tools.StorageTool format -t "$id" -c "$home/server.properties" >/dev/null
  fi
  nohup java $(java_opts) -cp "$libs/*" kafka.Kafka "$home/server.properties" > "$logs/stdout.log" 2>&1 &
  echo $! > "$pidfile"
  for _ in $(seq 1 120); do
    if answers; then echo "kafka-local: broker up on 127.0.0.1:$port"; return; fi
    if ! kill -0 "$(cat "$pidfile")" 2>/dev/null; then
      echo "kafka-local: broker exited; see $logs" >&2; tail -n 40 "$logs/stdout.log" >&2 || true; exit 1
    fi
    sleep 0.5
  done
  echo "kafka-local: broker did not answer within 60 s" >&2; exit 1
}

stop() {
  [ -f "$pidfile" ] || { echo "kafka-local: not started by this script"; return; }
  pid="$(cat "$pidfile")"
  if kill -0 "$pid" 2>/dev/null; then
    kill "$pid"
    for _ in $(seq 1 60); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
    kill -9 "$pid" 2>/dev/null || true
  fi
  rm -f "$pidfile"; echo "kafka-local: stopped"
}

case "${1:-start}" in
  start) start ;;
  stop) stop ;;
  status) answers ;;
  *) echo "usage: $0 start|stop|status" >&2; exit 2 ;;
esac
