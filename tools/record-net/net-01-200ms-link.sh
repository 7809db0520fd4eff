#!/bin/bash
# Scenario net-01: 3 voters, etcd 3.4.23 defaults; a 200 ms one-way delay in BOTH directions on the link between the
# leader and one follower (RTT +400 ms on that link), other links plain, for ~30 s; then the delay is cleared.
# Records: cluster before, endpoint status --cluster, puts and gets from each member's host (with their wall time),
# terms while delayed (elections?), the leader's and followers' log lines, the proxy's settings.
TRANSCRIPT=${TRANSCRIPT:-$(cd "$(dirname "$0")/../.." && pwd)/tests/reference-run-b/net-01-200ms-link.txt}
source "$(dirname "$0")/net-lib.sh"
: >"$TRANSCRIPT"
D=$WORK/n01; rm -rf "$D"; mkdir -p "$D"
log "# Scenario net-01: a 200 ms link between the leader and one follower (both ways), ~30 s, then cleared. etcd 3.4.23 defaults (heartbeat 100 ms, election 1000 ms, pre-vote off, strict-reconfig-check on)."
log "# Network: every PEER byte goes through tools/netproxy.py (userspace TCP proxy, Python asyncio; no tc/netem). Hosts: node0N = 127.0.0.N (client :2379, real peer listener :2380),"
log "#   advertised peer URL http://node0N.peer:2380; node0A resolves node0B.peer to 127.1.A.B (its own /etc/hosts, bind-mounted in a private mount namespace), where the proxy listens for"
log "#   'A dials B' and forwards to 127.0.0.B:2380. On such a connection, request bytes are link A->B and response bytes are link B->A (rafthttp streams carry B's messages on the"
log "#   response body), each shaped by its own link's settings. Clients (etcdctl) talk to 127.0.0.N:2379 directly, unshaped: 'from node0N's host'."
log "# Shaping here: 'net delay L F 200ms' = link L->F latency 200 ms AND link F->L latency 200 ms (one-way each, no jitter, no loss, no rate limit; RTT L<->F +400 ms);"
log "#   every other link: 0 ms added (the proxy itself adds ~0.1 ms). Proxy in-flight cap 4 MiB per direction. The sim's 'net delay A B 200ms' should be compared with this."
log "# Log excerpt lines carry a 'HH:MM:SS.mmm| ' prefix = time our logger received the line (same clock as t=…); netproxy.log lines likewise."
log "# date: $(date -u '+%Y-%m-%dT%H:%M:%SZ')"
start_proxy "$D" 1 2 3
for n in 1 2 3; do nstart $n "$D" $IC3 new; done
for n in 1 2 3; do wait_healthy $n 30; done
sleep 6
note "cluster before the delay"
run_cmd 10 etcdctl --endpoints=$(EP 1) member list -w table
run_cmd 10 etcdctl --endpoints=$(EP 1) endpoint status --cluster -w table
L=$(leader_node 1); FS=(); for n in 1 2 3; do [ "$n" != "$L" ] && FS+=($n); done; F1=${FS[0]}; F2=${FS[1]}
log "# leader = node0$L; delayed follower = node0$F1; plain follower = node0$F2"
note "puts and gets from each member's host, before"
for n in $L $F1 $F2; do timed_put $n k-before-$n v$n; done
for n in $L $F1 $F2; do timed_get $n k-before-$L; done
terms $L $F1 $F2
note "the leader's prober round-trip metric before the delay (rafthttp probes each peer every 4 s; etcd logs no RTT line, only this histogram)"
rtt_metric $L
declare -A L0; for n in 1 2 3; do L0[$n]=$(lines $D/node0$n.log); done
P0=$(lines $D/netproxy.log)

note "DELAY: node0$L <-> node0$F1 200 ms each way"
TD=$(ts); log "[TDELAY=$TD]"
net delay node0$L node0$F1 200ms
net show
note "during the delay (~30 s): rounds of one put and one linearizable get from each member's host, terms after each round"
END=$(( $(date +%s) + 28 )); r=0
while [ $(date +%s) -lt $END ]; do
  r=$((r+1))
  for n in $L $F1 $F2; do timed_put $n k$r-from-$n r$r; done
  for n in $L $F1 $F2; do timed_get $n k$r-from-$F1; done
  timed_get $F1 k$r-from-$L --consistency=s
  terms $L $F1 $F2
  if [ $r = 2 ]; then
    run_cmd 10 etcdctl --endpoints=$(EP $F1) endpoint status --cluster -w table
    run_cmd 10 etcdctl --endpoints=$(EP $F2) endpoint health --cluster -w table
  fi
  sleep 2
done
run_cmd 10 etcdctl --endpoints=$(EP $F1) endpoint status --cluster -w table
net show
note "the leader's prober round-trip metric at the end of the delay"
rtt_metric $L
declare -A L1; for n in 1 2 3; do L1[$n]=$(lines $D/node0$n.log); done

note "CLEAR the delay"
TC=$(ts); log "[TCLEAR=$TC  (delay lasted $(delta $TD $TC) s)]"
net clear node0$L node0$F1
sleep 3
for n in $L $F1 $F2; do timed_put $n k-after-$n v$n; done
for n in $L $F1 $F2; do timed_get $n k-after-$F1; done
terms $L $F1 $F2
run_cmd 10 etcdctl --endpoints=$(EP $F1) endpoint status --cluster -w table

note "COUNTS during the delay (log lines between TDELAY and TCLEAR)"
for n in $L $F1 $F2; do
  log "node0$n: became candidate=$(count_between $D/node0$n.log ${L0[$n]} ${L1[$n]} 'became candidate')  became leader=$(count_between $D/node0$n.log ${L0[$n]} ${L1[$n]} 'became leader')  'failed to send out heartbeat'=$(count_between $D/node0$n.log ${L0[$n]} ${L1[$n]} 'failed to send out heartbeat')  'took too long'=$(count_between $D/node0$n.log ${L0[$n]} ${L1[$n]} 'took too long')  prober=$(count_between $D/node0$n.log ${L0[$n]} ${L1[$n]} 'prober')  'buffer is full'=$(count_between $D/node0$n.log ${L0[$n]} ${L1[$n]} 'buffer is full')  'lost the TCP streaming'=$(count_between $D/node0$n.log ${L0[$n]} ${L1[$n]} 'lost the TCP streaming')  W-lines=$(count_between $D/node0$n.log ${L0[$n]} ${L1[$n]} ' W \| ')"
done

for n in $L $F1 $F2; do log "node0$n: $(( ${L1[$n]} - ${L0[$n]} )) log lines in all written during the delay"; done
note "client latency during the delay, per member's host (wall of each etcdctl call; etcdctl start-up ~15 ms included)"
sed -n "/^\[TDELAY=/,/^\[TCLEAR=/p" "$TRANSCRIPT" | awk '/^(put|get) .* from node0[0-9]+.s host: exit=/ { k=$1; if ($0 ~ /consistency=s/) k="get(serializable)"; for(i=1;i<=NF;i++){ if($i ~ /^node0[0-9]+.s$/) h=$i" host"; if($i ~ /^wall=/){w=substr($i,6); sub(/s$/,"",w)} } key=k" from "h; n[key]++; s[key]+=w; if(!(key in mn)||w<mn[key])mn[key]=w; if(w>mx[key])mx[key]=w }
  END { for (k in n) printf "%-32s n=%d  mean=%.3fs  min=%.3fs  max=%.3fs\n", k, n[k], s[k]/n[k], mn[k], mx[k] }' | sort | tee -a "$TRANSCRIPT" >/dev/null
note "LOG EXCERPTS: startup (connections classified by the proxy)"
proxy_startup_excerpt $D/netproxy.log $P0
note "LOG EXCERPTS: delay phase (TDELAY=$TD .. TCLEAR=$TC), leader first"
for n in $L $F1 $F2; do excerpt $D/node0$n.log ${L0[$n]} "$EXRE" 80 ${L1[$n]}; done
note "LOG EXCERPTS: after the clear (from TCLEAR=$TC)"
for n in $L $F1 $F2; do excerpt $D/node0$n.log ${L1[$n]} "$EXRE" 30; done
log "----- netproxy.log from line $((P0+1)) -----"; sed -n "$((P0+1)),\$p" $D/netproxy.log | head -n 40 | tee -a "$TRANSCRIPT" >/dev/null; log "----- end -----"
stop_all
log "# unfiltered logs: $D/node0N.log, $D/netproxy.log"
