#!/bin/bash
# Scenario net-02: 3 voters, etcd 3.4.23 defaults; one member behind 10 % loss (every link to and from it, both ways),
# phase A: a follower (~30 s), cleared; phase B: the leader (~30 s), cleared.
# Records: puts and gets from each member's host with their wall time, terms (elections?), endpoint status, the
# proxy's counters (how many chunks were hit), and the members' log lines.
TRANSCRIPT=${TRANSCRIPT:-$(cd "$(dirname "$0")/../.." && pwd)/tests/reference-run-b/net-02-loss.txt}
PHASE_SECS=${PHASE_SECS:-28}          # length of each loss phase (s)
PHASES=${PHASES:-"A:follower B:leader"} # label:role of each phase, in order
source "$(dirname "$0")/net-lib.sh"
: >"$TRANSCRIPT"
D=$WORK/n02; rm -rf "$D"; mkdir -p "$D"
log "# Scenario net-02: one member behind 10 % loss (all its links, both ways): phase A a follower ~30 s, phase B the leader ~30 s. etcd 3.4.23 defaults (heartbeat 100 ms, election 1000 ms, pre-vote off)."
log "# Network: every PEER byte goes through tools/netproxy.py (userspace TCP proxy, Python asyncio; no tc/netem). Hosts: node0N = 127.0.0.N (client :2379, real peer listener :2380),"
log "#   advertised peer URL http://node0N.peer:2380; node0A resolves node0B.peer to 127.1.A.B (its own /etc/hosts, bind-mounted in a private mount namespace), where the proxy listens for"
log "#   'A dials B' and forwards to 127.0.0.B:2380. Request bytes of such a connection are link A->B, response bytes link B->A, each shaped by its own link. Clients talk to 127.0.0.N:2379 directly."
log "# Shaping here: 'net loss X Y 10%' for each other member Y = links X->Y and Y->X loss 10 % per 1448-byte segment, no added latency, no rate limit."
log "#   LOSS MODEL (TCP never loses bytes): a chunk read from the sender that spans k segments is hit with probability 1-0.9^k; a hit chunk arrives one RTO later,"
log "#   RTO = max(200 ms, 2 x link RTT) = 200 ms here, and the retransmission is lost again with p = 10 % (RTO doubling: 200, 400, 800 ms ...). Later bytes of the same TCP"
log "#   connection wait behind it (head-of-line blocking). Connections are never reset. The sim's 'net loss X Y 10%' should be compared with this."
log "# Log excerpt lines carry a 'HH:MM:SS.mmm| ' prefix = time our logger received the line (same clock as t=…); netproxy.log lines likewise."
log "# phases: $PHASES, ${PHASE_SECS} s each (+ one round in progress)"
log "# date: $(date -u '+%Y-%m-%dT%H:%M:%SZ')"
start_proxy "$D" 1 2 3
for n in 1 2 3; do nstart $n "$D" $IC3 new; done
for n in 1 2 3; do wait_healthy $n 30; done
sleep 6
note "cluster before the loss"
run_cmd 10 etcdctl --endpoints=$(EP 1) endpoint status --cluster -w table
L=$(leader_node 1); FS=(); for n in 1 2 3; do [ "$n" != "$L" ] && FS+=($n); done; F1=${FS[0]}; F2=${FS[1]}
log "# leader = node0$L; followers = node0$F1, node0$F2 (status below is asked from node0$F2's host)"
for n in $L $F1 $F2; do timed_put $n k-before-$n v$n; done
terms $L $F1 $F2

# phase <label> <leader|follower>: the current leader, or a current follower, behind 10 % loss for ~30 s
phase() {
  local label=$1 role=$2 X Y r END n
  local LL=$(leader_node 1)
  if [ "$role" = leader ]; then X=$LL; else for n in 1 2 3; do [ "$n" != "$LL" ] && { X=$n; break; }; done; fi
  declare -gA P0; for n in 1 2 3; do P0[$n]=$(lines $D/node0$n.log); done
  note "PHASE $label: node0$X (the $role; leader now node0$LL) behind 10 % loss (all its links, both ways)"
  local T0=$(ts); log "[T_LOSS_$label=$T0]"
  for Y in 1 2 3; do [ "$Y" != "$X" ] && net loss node0$X node0$Y 10%; done
  END=$(( $(date +%s) + PHASE_SECS )); r=0
  while [ $(date +%s) -lt $END ]; do
    r=$((r+1))
    for n in 1 2 3; do timed_put $n $label-k$r-from-$n r$r; done
    for n in 1 2 3; do timed_get $n $label-k$r-from-$X; done
    terms 1 2 3
    [ $r = 3 ] && run_cmd 10 etcdctl --endpoints=$(EP $F2) endpoint status --cluster -w table
    sleep 1
  done
  run_cmd 10 etcdctl --endpoints=$(EP $F2) endpoint status --cluster -w table
  net show
  declare -gA P1; for n in 1 2 3; do P1[$n]=$(lines $D/node0$n.log); done
  local T1=$(ts); log "[T_CLEAR_$label=$T1  (loss lasted $(delta $T0 $T1) s)]"
  net clear node0$X
  sleep 3
  for n in 1 2 3; do timed_put $n $label-after-$n v$n; done
  terms 1 2 3
  run_cmd 10 etcdctl --endpoints=$(EP $F2) endpoint status --cluster -w table
  declare -gA P2; for n in 1 2 3; do P2[$n]=$(lines $D/node0$n.log); done
  note "PHASE $label COUNTS (log lines from T_LOSS_$label to ~3.5 s after T_CLEAR_$label: bytes the proxy already held back are still delivered late after the clear)"
  for n in 1 2 3; do
    log "node0$n: lines=$(( ${P2[$n]} - ${P0[$n]} ))  became candidate=$(count_between $D/node0$n.log ${P0[$n]} ${P2[$n]} 'became candidate')  became leader=$(count_between $D/node0$n.log ${P0[$n]} ${P2[$n]} 'became leader')  'failed to send out heartbeat'=$(count_between $D/node0$n.log ${P0[$n]} ${P2[$n]} 'failed to send out heartbeat')  'took too long'=$(count_between $D/node0$n.log ${P0[$n]} ${P2[$n]} 'took too long')  prober=$(count_between $D/node0$n.log ${P0[$n]} ${P2[$n]} 'prober')  'buffer is full'=$(count_between $D/node0$n.log ${P0[$n]} ${P2[$n]} 'buffer is full')  'lost the TCP streaming'=$(count_between $D/node0$n.log ${P0[$n]} ${P2[$n]} 'lost the TCP streaming')  W-lines=$(count_between $D/node0$n.log ${P0[$n]} ${P2[$n]} ' W \| ')"
  done
  note "PHASE $label client latency per member's host (wall of each etcdctl call; etcdctl start-up ~15 ms included)"
  sed -n "/^\\[T_LOSS_$label=/,/^\\[T_CLEAR_$label=/p" "$TRANSCRIPT" | awk '/^(put|get) .* from node0[0-9]+.s host: exit=/ { k=$1; for(i=1;i<=NF;i++){ if($i ~ /^node0[0-9]+.s$/) h=$i" host"; if($i ~ /^wall=/){w=substr($i,6); sub(/s$/,"",w)} if($i ~ /^exit=/) e=$i } key=k" from "h; n[key]++; s[key]+=w; if(e!="exit=0") bad[key]++; if(!(key in mn)||w<mn[key])mn[key]=w; if(w>mx[key])mx[key]=w }
    END { for (k in n) printf "%-24s n=%d failed=%d  mean=%.3fs  min=%.3fs  max=%.3fs\n", k, n[k], bad[k], s[k]/n[k], mn[k], mx[k] }' | sort | tee -a "$TRANSCRIPT" >/dev/null
  note "PHASE $label LOG EXCERPTS (T_LOSS_$label=$T0 .. T_CLEAR_$label=$T1 + 3 s after the clear)"
  for n in $X $(for m in 1 2 3; do [ $m != $X ] && echo $m; done); do excerpt $D/node0$n.log ${P0[$n]} "$EXRE" 70 ${P2[$n]}; done
}
for ph in $PHASES; do phase ${ph%%:*} ${ph#*:}; done
note "after both phases"
run_cmd 10 etcdctl --endpoints=$(EP 1) endpoint status --cluster -w table
run_cmd 10 etcdctl --endpoints=$(EP 1) get --prefix ${PHASES%%:*}-k1 --keys-only
stop_all
log "# unfiltered logs: $D/node0N.log, $D/netproxy.log"
