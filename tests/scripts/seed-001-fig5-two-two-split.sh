# Seed 001, figure 5: four voters split 2-2; neither side has a quorum of 3 (09-partitions-03 A).
machine add node01 10.200.0.1
machine add node02 10.200.0.2
machine add node03 10.200.0.3
machine add node04 10.200.0.4
node01$ etcd --name node01 --initial-advertise-peer-urls http://10.200.0.1:2380 --listen-peer-urls http://10.200.0.1:2380 --advertise-client-urls http://10.200.0.1:2379 --listen-client-urls http://10.200.0.1:2379 --initial-cluster node01=http://10.200.0.1:2380,node02=http://10.200.0.2:2380,node03=http://10.200.0.3:2380
node02$ etcd --name node02 --initial-advertise-peer-urls http://10.200.0.2:2380 --listen-peer-urls http://10.200.0.2:2380 --advertise-client-urls http://10.200.0.2:2379 --listen-client-urls http://10.200.0.2:2379 --initial-cluster node01=http://10.200.0.1:2380,node02=http://10.200.0.2:2380,node03=http://10.200.0.3:2380
node03$ etcd --name node03 --initial-advertise-peer-urls http://10.200.0.3:2380 --listen-peer-urls http://10.200.0.3:2380 --advertise-client-urls http://10.200.0.3:2379 --listen-client-urls http://10.200.0.3:2379 --initial-cluster node01=http://10.200.0.1:2380,node02=http://10.200.0.2:2380,node03=http://10.200.0.3:2380
$ sleep 3
node01$ etcdctl --endpoints=http://10.200.0.1:2379 put foo before-cut
$ sleep 3
node01$ etcdctl --endpoints=http://10.200.0.1:2379 member add node04 --peer-urls=http://10.200.0.4:2380
node04$ etcd --name node04 --initial-advertise-peer-urls http://10.200.0.4:2380 --listen-peer-urls http://10.200.0.4:2380 --advertise-client-urls http://10.200.0.4:2379 --listen-client-urls http://10.200.0.4:2379 --initial-cluster node01=http://10.200.0.1:2380,node02=http://10.200.0.2:2380,node03=http://10.200.0.3:2380,node04=http://10.200.0.4:2380 --initial-cluster-state existing
$ sleep 6
$ net partition node01 node02 | node03 node04
$ sleep 6
node01$ etcdctl --endpoints=http://10.200.0.1:2379 put foo side-a
node03$ etcdctl --endpoints=http://10.200.0.3:2379 put foo side-b
node03$ etcdctl --endpoints=http://10.200.0.3:2379 endpoint status -w table
