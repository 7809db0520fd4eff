machine add node01 192.168.0.61
node01$ etcd --name node01 --initial-advertise-peer-urls http://192.168.0.61:2380 \
  --listen-peer-urls http://0.0.0.0:2380 --advertise-client-urls http://192.168.0.61:2379 \
  --listen-client-urls http://0.0.0.0:2379 --initial-cluster node01=http://192.168.0.61:2380
$ sleep 2
# a put, then the member list
$ etcdctl put foo bar
$ etcdctl member list
$ etcdctl member promote 4eee438bb97e1153
$ echo $?
