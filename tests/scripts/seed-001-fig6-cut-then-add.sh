# Seed 001, figure 6: a follower is cut, then a voter is added: 2 of 4 active (09-partitions-03 B1/B2).
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
$ net isolate node03
$ sleep 3
# 3 s after the cut rafthttp has not noticed yet: the strict check lets the add through
node01$ etcdctl --endpoints=http://10.200.0.1:2379 member add node04 --peer-urls=http://10.200.0.4:2380
$ sleep 3
node01$ etcdctl --endpoints=http://10.200.0.1:2379 put foo after-add
node01$ etcdctl --endpoints=http://10.200.0.1:2379 endpoint status -w table
# once the cut is noticed, the next add is refused at once
node01$ etcdctl --endpoints=http://10.200.0.1:2379 member add node05 --learner --peer-urls=http://10.200.0.5:2380
