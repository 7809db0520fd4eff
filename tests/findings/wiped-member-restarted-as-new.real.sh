#!/bin/bash
# Real etcd 3.4.23: a member whose data dir was wiped is started again with
# the same flags, `--initial-cluster-state new` included, so it keeps its old
# member ID and cluster ID (both derive from the flags) but has lost its raft
# log, term and vote. Companion of `wiped-member-restarted-as-new.sh` (the
# simulation's finding); the output of one run is `...real.txt`.
#
#   A. a follower is wiped and restarted while the leader keeps leading
#   B. the leader is wiped and restarted
#   C. the finding's sequence: n1 and n3 commit a put (n2 never ran), n1 is
#      wiped, n3 crashes, then n1 (wiped) and n2 (empty) start and elect a
#      leader among themselves before n3 comes back
#   D. as A, but the wiped follower is started with `--initial-cluster-state
#      existing` (the other flags the same)
#   E. as B (the leader wiped), started with `--initial-cluster-state existing`
#
# Loopback only (127.0.0.71-73); every etcd is stopped by its PID.
# Usage: bash tests/findings/wiped-member-restarted-as-new.real.sh [a b c d e] > out.txt 2>&1
# (the logs stay in $ROOT/<scenario>/n*.log)
set -u
export ETCDCTL_API=3
ROOT=${ROOT:-/var/tmp/etcd-findings/wiped-member}
# more flags for every etcd, e.g. EXTRA='--logger=zap --log-outputs=stderr'
EXTRA=${EXTRA:-}
IP=(none 127.0.0.71 127.0.0.72 127.0.0.73)
CLUSTER=n1=http://127.0.0.71:2380,n2=http://127.0.0.72:2380,n3=http://127.0.0.73:2380
declare -A PID
D=

stamp() { date -u '+%H:%M:%S.%3N'; }
note() { echo; echo "### $*  t=$(stamp)"; }

# start <n> [state]: the same flags every time; the state is `new` unless given
start() {
  local n=$1 ip=${IP[$1]} state=${2:-new}
  echo "\$ etcd --name n$n --data-dir n$n.etcd ... --initial-cluster-state $state   # t=$(stamp)"
  etcd --name "n$n" --data-dir "$D/n$n.etcd" \
    --initial-advertise-peer-urls "http://$ip:2380" --listen-peer-urls "http://$ip:2380" \
    --advertise-client-urls "http://$ip:2379" --listen-client-urls "http://$ip:2379" \
    --initial-cluster "$CLUSTER" --initial-cluster-state "$state" $EXTRA >>"$D/n$n.log" 2>&1 &
  PID[$n]=$!
}

# kill <n> <signal>: by PID; reports the exit status
stop() {
  local n=$1 sig=$2 pid=${PID[$1]:-}
  [ -z "$pid" ] && return 0
  kill -s "$sig" "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  echo "[n$n (pid $pid) stopped with SIG$sig, exit status $?  t=$(stamp)]"
  unset "PID[$n]"
}

# status of n: alive, or its exit status if it ended by itself
alive() {
  local n=$1 pid=${PID[$1]:-}
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
    echo "[n$n (pid $pid) is running]"
  elif [ -n "$pid" ]; then
    wait "$pid" 2>/dev/null
    echo "[n$n (pid $pid) EXITED by itself with status $?]"
    unset "PID[$n]"
  fi
}

stop_all() { for n in "${!PID[@]}"; do stop "$n" TERM; done; }
trap stop_all EXIT

ctl() {
  local n=$1; shift
  echo "\$ etcdctl --endpoints=http://${IP[$n]}:2379 $*"
  timeout 10 etcdctl --endpoints="http://${IP[$n]}:2379" --command-timeout=3s "$@" 2>&1 |
    grep -v '"msg":"retrying of unary invoker failed"'
  echo "[exit ${PIPESTATUS[0]}]"
}

wait_healthy() {
  local n=$1 i
  for i in $(seq 1 50); do
    etcdctl --endpoints="http://${IP[$n]}:2379" --command-timeout=1s endpoint health >/dev/null 2>&1 && return 0
    sleep 0.2
  done
  echo "[n$n not healthy after 10s]"
}

# the member that leads, as n's endpoint status says
leader_of() {
  local n=$1 json
  json=$(etcdctl --endpoints="http://${IP[$n]}:2379" --command-timeout=2s endpoint status -w json 2>/dev/null)
  python3 -c 'import json,sys; s=json.loads(sys.argv[1])[0]; print(format(s["Status"]["leader"], "x"))' "$json"
}

member_no() {
  local id=$1 n
  for n in 1 2 3; do
    [ "$(etcdctl --endpoints="http://${IP[$n]}:2379" --command-timeout=2s endpoint status -w json 2>/dev/null |
      python3 -c 'import json,sys; print(format(json.load(sys.stdin)[0]["Status"]["header"]["member_id"], "x"))' 2>/dev/null)" = "$id" ] && echo "$n" && return
  done
}

fresh() {
  D=$ROOT/$1
  rm -rf "$D"; mkdir -p "$D"
}

show_logs() {
  local n
  for n in "$@"; do
    echo "----- n$n.log: the restart on (lines with raft's term/commit, panics, cluster ID, and the last 12) -----"
    sed -n '/=== wiped ===/,$p' "$D/n$n.log" |
      grep -E 'PANIC|panic|goroutine|tocommit|higher term|out of range|conflict|mismatch|restarting member|starting member|became|elected leader|newRaft|restored|rejected|ignored|Was the raft' | head -40
    echo "..."
    tail -n 12 "$D/n$n.log"
  done
}

every_member() {
  local n
  for n in 1 2 3; do ctl "$n" "$@"; done
}

# ---------------------------------------------------------------- A
# scenario_a <dir> <state>: a follower wiped, restarted with that state
scenario_a() {
  local state=$2
  fresh "$1"
  note "$1. three members; a follower is wiped and restarted (state $state) while the leader keeps leading"
  start 1; start 2; start 3
  wait_healthy 1; wait_healthy 2; wait_healthy 3
  for i in 1 2 3 4 5; do ctl 1 put a$i v$i; done
  local lead f
  lead=$(member_no "$(leader_of 1)")
  f=$(( lead % 3 + 1 ))
  echo "[leader is n$lead; wiping follower n$f]"
  stop "$f" KILL
  rm -rf "$D/n$f.etcd"
  echo "=== wiped ===" >>"$D/n$f.log"
  start "$f" "$state"
  sleep 4
  alive "$f"
  note "$1: puts through the leader, then reads from every member"
  ctl "$lead" put b1 w1
  ctl "$lead" put b2 w2
  sleep 1
  every_member get a1
  every_member get b2
  ctl "$lead" endpoint status --cluster -w table
  ctl "$lead" endpoint hashkv --cluster
  alive "$f"
  show_logs "$f"
  stop_all
}

# ---------------------------------------------------------------- B
# scenario_b <dir> <state>: the leader wiped, restarted with that state
scenario_b() {
  local state=$2
  fresh "$1"
  note "$1. three members; the leader is wiped and restarted (state $state)"
  start 1; start 2; start 3
  wait_healthy 1; wait_healthy 2; wait_healthy 3
  for i in 1 2 3 4 5; do ctl 1 put a$i v$i; done
  local lead
  lead=$(member_no "$(leader_of 1)")
  echo "[leader is n$lead; wiping it]"
  stop "$lead" KILL
  rm -rf "$D/n$lead.etcd"
  echo "=== wiped ===" >>"$D/n$lead.log"
  sleep 3
  start "$lead" "$state"
  sleep 4
  alive "$lead"
  note "$1: puts, then reads from every member"
  local other=$(( lead % 3 + 1 ))
  ctl "$other" put b1 w1
  sleep 1
  every_member get a1
  every_member get b1
  ctl "$other" endpoint status --cluster -w table
  ctl "$other" endpoint hashkv --cluster
  alive "$lead"
  show_logs "$lead"
  stop_all
}

# ---------------------------------------------------------------- C
scenario_c() {
  fresh C
  note "C. the finding's sequence: n1 and n3 commit k6 (n2 has never run)"
  start 1; start 3
  wait_healthy 1; wait_healthy 3
  ctl 3 put k6 v2583
  ctl 3 endpoint status -w table
  note "C: n1 is killed and wiped, n3 crashes"
  stop 1 KILL
  rm -rf "$D/n1.etcd"
  echo "=== wiped ===" >>"$D/n1.log"
  stop 3 KILL
  echo "=== wiped ===" >>"$D/n3.log"
  echo "=== wiped ===" >>"$D/n2.log"
  note "C: n1 (wiped) and n2 (empty) start and elect a leader; then n3 starts"
  start 1; start 2
  wait_healthy 1; wait_healthy 2
  ctl 1 endpoint status --cluster -w table
  start 3
  sleep 4
  alive 1; alive 2; alive 3
  note "C: a put, then reads from every member"
  ctl 1 put x 1
  sleep 1
  every_member get k6
  every_member get x
  ctl 1 endpoint status --cluster -w table
  ctl 1 endpoint hashkv --cluster
  alive 1; alive 2; alive 3
  show_logs 1 2 3
  stop_all
}

echo "# $(etcd --version | head -1), $(date -u '+%Y-%m-%d %H:%M UTC')"
for s in "${@:-a b c d e}"; do
  for one in $s; do
    case $one in
      a) scenario_a A new ;;
      b) scenario_b B new ;;
      c) scenario_c ;;
      d) scenario_a D existing ;;
      e) scenario_b E existing ;;
    esac
  done
done
