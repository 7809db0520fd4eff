#!/bin/bash
# Scenario 00: what etcd 3.5.1's binaries print about themselves: versions,
# --help, and a flag 3.5 removed or renamed (for the command table).
HERE=$(cd "$(dirname "$0")" && pwd)
source "$HERE/etcd35.sh"
REC=${REFERENCE_RECORD:-$HERE/../../../shared/reference/record}
TRANSCRIPT=${OUTDIR:?set OUTDIR (record.sh does)}/00-versions-and-help.txt
source "$REC/lib.sh"
: >"$TRANSCRIPT"
export PATH=$ETCD35_BIN:$PATH
log "# Scenario 00: versions and help of etcd, etcdctl and etcdutl 3.5.1"
log "# date: $(date -u '+%Y-%m-%dT%H:%M:%SZ')"
run_cmd 5 etcd --version
run_cmd 5 etcdctl version
run_cmd 5 etcdutl version
run_cmd 5 etcd --help
run_cmd 5 etcdctl --help
run_cmd 5 etcdutl --help
run_cmd 5 etcdctl snapshot restore --help
run_cmd 5 etcdutl snapshot restore --help
note "flags 3.4.23 has and 3.5.1 does not"
D=$GOLD_ROOT/s00; rm -rf "$D"; mkdir -p "$D"
run_cmd 10 etcd --name node01 --data-dir $D/node01 --logger=capnslog
run_cmd 10 etcd --name node01 --data-dir $D/node01 --log-package-levels=etcdserver=DEBUG
run_cmd 10 etcd --name node01 --data-dir $D/node01 --debug
