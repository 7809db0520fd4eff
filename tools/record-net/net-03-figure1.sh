#!/bin/bash
# Scenario net-03 (seed 001's Figure 1): 3 voters, etcd 3.4.23 defaults, a realistic data set made the way an
# operator would (`etcdctl check datascale --load=s`: 10,000 keys of 1 KiB written by 50 clients, then deleted,
# so the raft log holds ~10 MB the new member must receive), the leader's NIC limited to RATE (default 10mbit,
# queue limit 4 MB, backpressure), then a 4th member is added: MODE=voter (plain `member add`) or
# MODE=learner (`member add --learner`, then `member promote` tried every ~3 s until etcd accepts it).
# Records: terms/leaders each second (elections?), puts from the leader's host with their wall time,
# the new member's raft index catching up, promote refusals, the members' log lines.
MODE=${MODE:-voter}; RATE=${RATE:-10mbit}
TRANSCRIPT=${TRANSCRIPT:-$(cd "$(dirname "$0")/../.." && pwd)/tests/reference-run-b/net-03-figure1-$MODE.txt}
source "$(dirname "$0")/net-lib.sh"
: >"$TRANSCRIPT"
D=$WORK/n03-$MODE; rm -rf "$D"; mkdir -p "$D"
log "# Scenario net-03 ($MODE): seed 001's Figure 1. 3 voters, etcd 3.4.23 defaults; data by 'etcdctl check datascale --load=s';"
log "#   the leader's NIC limited to $RATE (queue limit 4 MB, backpressure), then a 4th member added as a $MODE."
log "# Network: every PEER byte goes through tools/netproxy.py (see net-01's header for the topology). Clients talk to 127.0.0.N:2379 directly."
log "# Log excerpt lines carry a 'HH:MM:SS.mmm| ' prefix = time our logger received the line (same clock as t=…)."
log "# date: $(date -u '+%Y-%m-%dT%H:%M:%SZ')"
IC4=$IC3,node04=http://node04.peer:2380
start_proxy "$D" 1 2 3 4
for n in 1 2 3; do nstart $n "$D" $IC3 new; done
for n in 1 2 3; do wait_healthy $n 30; done
sleep 3
note "the data set, as an operator makes it"
run_cmd 300 etcdctl --endpoints=$(EP 1),$(EP 2),$(EP 3) check datascale --load=s
sleep 2
run_cmd 10 etcdctl --endpoints=$(EP 1) endpoint status --cluster -w table
L=$(leader_node 1); FS=(); for n in 1 2 3; do [ "$n" != "$L" ] && FS+=($n); done
log "# leader = node0$L; followers = node0${FS[0]}, node0${FS[1]}"
terms 1 2 3
declare -A L0; for n in 1 2 3 4; do touch $D/node0$n.log; L0[$n]=$(lines $D/node0$n.log); done

note "LIMIT the leader's NIC"
net rate node0$L $RATE limit 4mb
net show
note "ADD node04 as a $MODE and start it"
TA=$(ts); log "[TADD=$TA]"
if [ "$MODE" = learner ]; then
  run_cmd 10 etcdctl --endpoints=$(EP $L) member add node04 --peer-urls=http://node04.peer:2380 --learner
else
  run_cmd 10 etcdctl --endpoints=$(EP $L) member add node04 --peer-urls=http://node04.peer:2380
fi
NEWID=$(echo "$LAST_OUT" | sed -nE 's/^Member ([0-9a-f]+) added.*/\1/p')
nstart 4 "$D" $IC4 existing
note "each second for ~40 s: a put from the leader's host, then every member's term/leader/index"
END=$(( $(date +%s) + 40 )); r=0; PROMOTED=""
while [ $(date +%s) -lt $END ]; do
  r=$((r+1))
  timed_put $L fig-$r v$r
  terms 1 2 3 4
  if [ "$MODE" = learner ] && [ -z "$PROMOTED" ] && [ $((r % 3)) = 0 ]; then
    run_cmd 10 etcdctl --endpoints=$(EP $L) member promote $NEWID
    [ "$LAST_RC" = 0 ] && PROMOTED=$(ts) && log "[TPROMOTED=$PROMOTED]"
  fi
  sleep 1
done
net show
declare -A L1; for n in 1 2 3 4; do L1[$n]=$(lines $D/node0$n.log); done
note "CLEAR the leader's NIC"
net rate node0$L off
sleep 5
if [ "$MODE" = learner ] && [ -z "$PROMOTED" ]; then
  run_cmd 10 etcdctl --endpoints=$(EP $L) member promote $NEWID
fi
run_cmd 10 etcdctl --endpoints=$(EP 1) member list -w table
run_cmd 10 etcdctl --endpoints=$(EP 1) endpoint status --cluster -w table

note "COUNTS while the NIC was limited (log lines between TADD and the clear)"
for n in 1 2 3 4; do
  log "node0$n: became candidate=$(count_between $D/node0$n.log ${L0[$n]} ${L1[$n]} 'became candidate')  became leader=$(count_between $D/node0$n.log ${L0[$n]} ${L1[$n]} 'became leader')  'failed to send out heartbeat'=$(count_between $D/node0$n.log ${L0[$n]} ${L1[$n]} 'failed to send out heartbeat')  'took too long'=$(count_between $D/node0$n.log ${L0[$n]} ${L1[$n]} 'took too long')  'buffer is full'=$(count_between $D/node0$n.log ${L0[$n]} ${L1[$n]} 'buffer is full')  'lost the TCP streaming'=$(count_between $D/node0$n.log ${L0[$n]} ${L1[$n]} 'lost the TCP streaming')  snapshot=$(count_between $D/node0$n.log ${L0[$n]} ${L1[$n]} 'snapshot')  W-lines=$(count_between $D/node0$n.log ${L0[$n]} ${L1[$n]} ' W \| ')"
done
note "put latency from the leader's host while limited"
awk '/^put fig-[0-9]+ from/ { for(i=1;i<=NF;i++) if($i ~ /^wall=/){w=substr($i,6); sub(/s$/,"",w)}; if ($0 ~ /exit=0/) ok++; else bad++; n++; s+=w; if(w>mx)mx=w }
  END { printf "puts=%d ok=%d failed=%d mean=%.3fs max=%.3fs\n", n, ok, bad, s/n, mx }' "$TRANSCRIPT" | tee -a "$TRANSCRIPT" >/dev/null
for n in 1 2 3 4; do
  excerpt $D/node0$n.log ${L0[$n]} "$EXRE" 60 ${L1[$n]}
done
