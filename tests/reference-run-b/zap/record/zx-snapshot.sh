#!/bin/bash
# zx: snapshot sent to a new member (leader log compacted), then restarts that recover from a snapshot file.
TRANSCRIPT=/tmp/zq/transcripts/zx-snapshot.txt
source "$(dirname "$0")/lib.sh"
D=$GOLD_ROOT/zx-snapshot; rm -rf "$D"; mkdir -p "$D"; : >"$TRANSCRIPT"
E1=http://127.0.0.1:2379; E2=http://127.0.0.2:2379; P1=http://127.0.0.1:2380; P2=http://127.0.0.2:2380
N1="--name node01 --data-dir $D/node01 --initial-advertise-peer-urls $P1 --listen-peer-urls $P1 --advertise-client-urls $E1 --listen-client-urls $E1 --initial-cluster node01=$P1 --snapshot-count=1000"
start_etcd n1 $D/node01.log $N1
wait_healthy $E1 20
log "# 6500 puts over the HTTP gateway  t=$(date '+%H:%M:%S.%3N')"
python3 - <<'PY'
import http.client,json,base64
c=http.client.HTTPConnection('127.0.0.1',2379)
for i in range(6500):
    body=json.dumps({'key':base64.b64encode(b'k%05d'%i).decode(),'value':base64.b64encode(b'v').decode()})
    c.request('POST','/v3/kv/put',body,{'Content-Type':'application/json'}); r=c.getresponse(); r.read()
PY
log "# puts done  t=$(date '+%H:%M:%S.%3N')"
run_cmd 10 etcdctl --endpoints=$E1 endpoint status -w table
run_cmd 10 etcdctl --endpoints=$E1 member add node02 --peer-urls=$P2
N2="--name node02 --data-dir $D/node02 --initial-advertise-peer-urls $P2 --listen-peer-urls $P2 --advertise-client-urls $E2 --listen-client-urls $E2 --initial-cluster node01=$P1,node02=$P2 --initial-cluster-state existing --snapshot-count=1000"
start_etcd n2 $D/node02.log $N2
wait_healthy $E2 30
sleep 2
run_cmd 10 etcdctl --endpoints=$E1 endpoint status --cluster -w table
note "restart node02 (has a received snapshot on disk)"
stop_etcd n2
start_etcd n2 $D/node02.log $N2
wait_healthy $E2 30
sleep 1
note "restart node01 (has its own snapshots)"
stop_etcd n1
sleep 1
start_etcd n1 $D/node01.log $N1
wait_healthy $E1 30
sleep 2
run_cmd 10 etcdctl --endpoints=$E1 endpoint status --cluster -w table
stop_all
