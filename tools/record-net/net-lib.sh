# Helpers for the net-* scenarios: real etcd 3.4.23 whose PEER traffic goes through tools/netproxy.py.
# Loopback only. Member node0N: client http://127.0.0.N:2379 (clients talk to it directly, unshaped),
# real peer listener 127.0.0.N:2380, advertised peer URL http://node0N.peer:2380.
# Each member runs in its own mount namespace (unshare -m) with /etc/hosts bind-mounted from
# netproxy's hosts.node0N, where node0M.peer -> 127.1.N.M (the proxy's listener for "N dials M").
# So every directed pair N->M is its own proxied path (see the top of tools/netproxy.py).
# Every process started (proxy, etcd) is tracked by PID and stopped by PID.
# Each log line is prefixed with 'HH:MM:SS.mmm| ' = wall-clock time our logger received it.
export ETCDCTL_API=3
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
OUTDIR=${OUTDIR:-$ROOT/tests/reference-run-b}
PROXY="$ROOT/tools/netproxy.py"
CTL=127.0.0.1:7390
WORK=/tmp/net-work
declare -A PIDS
ts() { date '+%H:%M:%S.%3N'; }
log() { echo "$*" | tee -a "$TRANSCRIPT"; }
note() { log ""; log "### $*"; }
sod() { awk -F'[:.]' '{printf "%.3f\n", $1*3600+$2*60+$3+$4/1000}' <<<"$1"; }
delta() { awk -v a="$(sod "$1")" -v b="$(sod "$2")" 'BEGIN{printf "%+.3f", b-a}'; }
collapse_retries() {
  awk 'function note() { if (n>1) { a=""; if (match(last, /"attempt":[0-9]+/)) a="; last one was " substr(last,RSTART,RLENGTH); printf "[transcript note: %d more identical clientv3 retry warnings collapsed%s]\n", n-1, a } n=0 }
       /retrying of unary invoker failed|"msg":"retrying RecvMsg"/ { n++; if (n==1) print; else last=$0; next }
       { note(); print }
       END { note() }'
}
run_cmd() {
  local to=$1; shift
  local out rc start end
  log "\$ $(printf '%q ' "$@" | sed 's/ $//')"
  start=$(date +%s.%N)
  out=$(timeout "$to" "$@" 2>&1); rc=$?
  end=$(date +%s.%N)
  [ -n "$out" ] && echo "$out" | collapse_retries | tee -a "$TRANSCRIPT"
  log "[exit=$rc  wall=$(awk -v a=$start -v b=$end 'BEGIN{printf "%.3f", b-a}')s  t=$(ts)]"
  LAST_OUT="$out"; LAST_RC=$rc
  return 0
}
EP() { echo "http://127.0.0.$1:2379"; }
stamp() { perl -MTime::HiRes=time -MPOSIX=strftime -ne 'BEGIN{$|=1} my $t=time; printf "%s.%03d| %s", strftime("%H:%M:%S",localtime($t)), int(($t-int($t))*1000), $_'; }
IC3=node01=http://node01.peer:2380,node02=http://node02.peer:2380,node03=http://node03.peer:2380

# start_proxy <dir> <N...>
start_proxy() {
  local D=$1; shift; local a=() n
  for n in "$@"; do a+=(--node node0$n=127.0.0.$n:2380); done
  log "\$ python3 tools/netproxy.py ${a[*]} --control $CTL --hosts-dir $D/hosts   # background 'proxy', log -> netproxy.log  t=$(ts)"
  python3 "$PROXY" "${a[@]}" --control $CTL --hosts-dir "$D/hosts" >>"$D/netproxy.log" 2>&1 &
  PIDS[proxy]=$!
  log "[pid ${PIDS[proxy]}]"
  local i; for i in $(seq 1 50); do [ -f "$D/hosts/hosts.node0$1" ] && break; sleep 0.1; done
}
# net <ctl words...>: change the proxy's settings, recorded like a command
net() { run_cmd 5 python3 "$PROXY" --control $CTL ctl "$@"; }

# nstart <N> <dir> <initial-cluster> <new|existing> [extra etcd flags...]
nstart() {
  local n=$1 D=$2 ic=$3 st=$4; shift 4
  local lf=$D/node0$n.log
  local args=(--name node0$n --data-dir $D/node0$n
    --initial-advertise-peer-urls http://node0$n.peer:2380 --listen-peer-urls http://127.0.0.$n:2380
    --advertise-client-urls http://127.0.0.$n:2379 --listen-client-urls http://127.0.0.$n:2379
    --initial-cluster $ic --initial-cluster-state $st "$@")
  log "\$ unshare -m sh -c 'mount --bind hosts.node0$n /etc/hosts && exec etcd ${args[*]}'   # background 'n$n', log -> $(basename $lf)  t=$(ts)"
  unshare -m sh -c "mount --bind $D/hosts/hosts.node0$n /etc/hosts && exec etcd ${args[*]}" > >(stamp >>"$lf") 2>&1 &
  PIDS[n$n]=$!
  log "[pid ${PIDS[n$n]}]"
  sleep 0.3
  kill -0 "${PIDS[n$n]}" 2>/dev/null || log "[n$n EXITED EARLY; last log line: $(tail -n1 "$lf")]"
}
wait_exit() { local pid=$1 to=${2:-20} i=0; while kill -0 "$pid" 2>/dev/null && [ $i -lt $((to*10)) ]; do sleep 0.1; i=$((i+1)); done; ! kill -0 "$pid" 2>/dev/null; }
stop_node() {
  local name=$1 pid=${PIDS[$1]}
  [ -z "$pid" ] && return 0
  if kill -0 "$pid" 2>/dev/null; then
    log "[stopping $name pid $pid with SIGTERM  t=$(ts)]"
    kill -s TERM "$pid" 2>/dev/null
    if ! wait_exit "$pid" 10; then log "[$name did not exit in 10 s; SIGKILL]"; kill -s KILL "$pid" 2>/dev/null; wait_exit "$pid" 5; fi
  fi
  unset "PIDS[$name]"
}
stop_all() { local n; for n in "${!PIDS[@]}"; do [ "$n" != proxy ] && stop_node "$n"; done; stop_node proxy; }
trap stop_all EXIT

wait_healthy() {
  local n=$1 to=${2:-20} i=0
  while [ $i -lt $((to*5)) ]; do
    timeout 2 etcdctl --endpoints=$(EP $n) --command-timeout=1s endpoint health >/dev/null 2>&1 && return 0
    sleep 0.2; i=$((i+1))
  done
  log "[wait_healthy node0$n: timed out after ${to}s]"; return 1
}
leader_node() { timeout 8 etcdctl --endpoints=$(EP $1) endpoint status --cluster 2>/dev/null | awk -F', ' '$5=="true"{print $1}' | sed -E 's#http://127.0.0.([0-9]+):2379#\1#' | head -n1; }
lines() { wc -l <"$1"; }
terms() {
  local n s=""
  for n in "$@"; do
    s+="node0$n:$(timeout 3 etcdctl --endpoints=$(EP $n) --command-timeout=1s endpoint status -w json 2>/dev/null | grep -oE '"raftTerm":[0-9]+|"leader":[0-9]+|"raftIndex":[0-9]+' | tr '\n' ' ') | "
  done
  log "[$(ts)] $s"
}
EXRE='raft20|rafthttp|etcdserver|membership|W \||E \||C \||N \||took too long|heartbeat|prober'
excerpt() {
  local lf=$1 from=$2 re=${3:-$EXRE} max=${4:-80} to=${5:-\$}
  log "----- log excerpt: $(basename "$lf") lines $((from+1))-$to (prefix = receive time) -----"
  sed -n "$((from+1)),${to}p" "$lf" | grep -E "$re" \
    | grep -vE 'started streaming with peer|stopped streaming with peer|closed the TCP streaming|rafthttp: started HTTP pipelining|stopped HTTP pipelining|started peer|stopped peer|added peer|removed peer|started remote peer|stopped remote peer' \
    > "$lf.tmp"
  local tot=$(wc -l <"$lf.tmp")
  head -n "$max" "$lf.tmp" | tee -a "$TRANSCRIPT" >/dev/null
  [ "$tot" -gt "$max" ] && log "[transcript note: $((tot-max)) more matching lines not shown]"
  rm -f "$lf.tmp"
  log "----- end excerpt -----"
}
first_after() { sed -n "$(($2+1)),\$p" "$1" | grep -E "$3" | head -n1; }
count_between() { sed -n "$(($2+1)),$3p" "$1" | grep -cE "$4"; }
# timed_put <N> <key> <value>: one put from node0N's host, one line: host, wall, exit, output
timed_put() {
  local n=$1 s e out rc; s=$(date +%s.%N)
  out=$(timeout 15 etcdctl --endpoints=$(EP $n) put "$2" "$3" 2>&1); rc=$?; e=$(date +%s.%N)
  log "put $2 from node0$n's host: exit=$rc wall=$(awk -v a=$s -v b=$e 'BEGIN{printf "%.3f", b-a}')s t=$(ts): $(echo "$out" | grep -v 'retrying of unary' | head -n1)"
}
timed_get() {
  local n=$1 s e out rc; shift; s=$(date +%s.%N)
  out=$(timeout 15 etcdctl --endpoints=$(EP $n) get "$@" --print-value-only 2>&1); rc=$?; e=$(date +%s.%N)
  log "get $* from node0$n's host: exit=$rc wall=$(awk -v a=$s -v b=$e 'BEGIN{printf "%.3f", b-a}')s t=$(ts): $(echo "$out" | grep -v 'retrying of unary' | head -n1)"
}
# rtt_metric <N>: node0N's etcd_network_peer_round_trip_time_seconds sum and count per peer (prober RTT histogram)
rtt_metric() { run_cmd 5 sh -c "curl -s $(EP $1)/metrics | grep -E '^etcd_network_peer_round_trip_time_seconds_(sum|count)'"; }
# proxy_startup_excerpt <netproxy.log> <to line>: listeners, the first connection classified for each pair, refused count
proxy_startup_excerpt() {
  log "----- netproxy.log lines 1-$2: listeners, first classified connection of each directed pair -----"
  sed -n "1,${2}p" "$1" | grep -E 'listen|control on' | tee -a "$TRANSCRIPT" >/dev/null
  sed -n "1,${2}p" "$1" | grep -E 'conn #[0-9]+ [^ ]+ from' | grep -v 'Connect call failed' | awk '!seen[$4]++' | tee -a "$TRANSCRIPT" >/dev/null
  log "[transcript note: $(sed -n "1,${2}p" "$1" | grep -c 'Connect call failed') connections refused while members were still starting (upstream not listening yet), not shown]"
  log "----- end -----"
}
