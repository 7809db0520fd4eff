# issue 20: three days where a replay allows one (the off-by-one replayed 72 h)
machine add n1
n1$ etcd --name n1
sleep 24h
sleep 24h
sleep 24h
