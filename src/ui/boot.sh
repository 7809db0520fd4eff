# The page opens on this: three machines and a static three-member etcd cluster.
machine add node01 192.168.0.61
machine add node02 192.168.0.62
machine add node03 192.168.0.63
node01$ etcd --name node01 --initial-advertise-peer-urls http://192.168.0.61:2380 --listen-peer-urls http://0.0.0.0:2380 --advertise-client-urls http://192.168.0.61:2379 --listen-client-urls http://0.0.0.0:2379 --initial-cluster node01=http://192.168.0.61:2380,node02=http://192.168.0.62:2380,node03=http://192.168.0.63:2380
node02$ etcd --name node02 --initial-advertise-peer-urls http://192.168.0.62:2380 --listen-peer-urls http://0.0.0.0:2380 --advertise-client-urls http://192.168.0.62:2379 --listen-client-urls http://0.0.0.0:2379 --initial-cluster node01=http://192.168.0.61:2380,node02=http://192.168.0.62:2380,node03=http://192.168.0.63:2380
node03$ etcd --name node03 --initial-advertise-peer-urls http://192.168.0.63:2380 --listen-peer-urls http://0.0.0.0:2380 --advertise-client-urls http://192.168.0.63:2379 --listen-client-urls http://0.0.0.0:2379 --initial-cluster node01=http://192.168.0.61:2380,node02=http://192.168.0.62:2380,node03=http://192.168.0.63:2380
node01$ sleep 3
