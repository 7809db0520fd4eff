# etcd --logger=zap (seed 004 runs it so): the same events as JSON lines.
# Three members, a fourth added but never started (the probers report it),
# then one member stopped and one killed.
machine add zc1 127.0.0.21
machine add zc2 127.0.0.22
machine add zc3 127.0.0.23
zc1$ etcd --logger=zap --log-outputs=stderr --name zc1 --data-dir zc1 --listen-peer-urls http://127.0.0.21:22380 --initial-advertise-peer-urls http://127.0.0.21:22380 --listen-client-urls http://127.0.0.21:22379 --advertise-client-urls http://127.0.0.21:22379 --initial-cluster zc1=http://127.0.0.21:22380,zc2=http://127.0.0.22:22380,zc3=http://127.0.0.23:22380
zc2$ etcd --logger=zap --log-outputs=stderr --name zc2 --data-dir zc2 --listen-peer-urls http://127.0.0.22:22380 --initial-advertise-peer-urls http://127.0.0.22:22380 --listen-client-urls http://127.0.0.22:22379 --advertise-client-urls http://127.0.0.22:22379 --initial-cluster zc1=http://127.0.0.21:22380,zc2=http://127.0.0.22:22380,zc3=http://127.0.0.23:22380
zc3$ etcd --logger=zap --log-outputs=stderr --name zc3 --data-dir zc3 --listen-peer-urls http://127.0.0.23:22380 --initial-advertise-peer-urls http://127.0.0.23:22380 --listen-client-urls http://127.0.0.23:22379 --advertise-client-urls http://127.0.0.23:22379 --initial-cluster zc1=http://127.0.0.21:22380,zc2=http://127.0.0.22:22380,zc3=http://127.0.0.23:22380
$ sleep 3
zc1$ etcdctl --endpoints=http://127.0.0.21:22379 member add zc4 --peer-urls=http://127.0.0.24:22380
$ sleep 6
zc1$ etcdctl --endpoints=http://127.0.0.21:22379 member add zc5 --peer-urls=http://127.0.0.25:22380
$ sleep 6
zc3$ kill etcd
zc3$ wait
$ sleep 6
zc2$ kill -9 etcd
$ sleep 2
zc1$ kill etcd
zc1$ wait
