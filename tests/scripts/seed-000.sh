# Seed 000 ("etcd Server Addition/Deletion"), pasted with its docker commands.
# Added: the machines, `sleep`s to reach the document's clock times, and the
# resets between sections, which the document ran as separate clusters.
machine add node01 192.168.0.61
machine add node02 192.168.0.62
machine add node03 192.168.0.63

## 2. Single etcd Server Configuration
(Node01)$ export NODE01=192.168.0.61
(Node01)$ export REGISTRY=gcr.io/etcd-development/etcd

(Node01)$ docker run -d \
  --net=host \
  --name etcd ${REGISTRY}:v3.4.0 \
  /usr/local/bin/etcd \
  --data-dir=/etcd-data --name node01 \
  --initial-advertise-peer-urls http://${NODE01}:2380 --listen-peer-urls http://0.0.0.0:2380 \
  --advertise-client-urls http://${NODE01}:2379 --listen-client-urls http://0.0.0.0:2379 \
  --initial-cluster node01=http://${NODE01}:2380

## 3. Server Addition: the add happens at 16:27:23, as in the document's log
$ sleep 86
(Node01)$ docker exec -it etcd sh
(etcd Container)$ etcdctl member add node02 --peer-urls=http://192.168.0.62:2380
(etcd Container)$ etcdctl member list -w table

# node02 starts at 16:28:50; until then node01 has no quorum
$ sleep 86.5
(Node02)$ export NODE01=192.168.0.61
(Node02)$ export NODE02=192.168.0.62
(Node02)$ export REGISTRY=gcr.io/etcd-development/etcd

(Node02)$ docker run -d \
  --net=host \
  --name etcd ${REGISTRY}:v3.4.0 \
  /usr/local/bin/etcd \
  --data-dir=/etcd-data --name node02 \
  --initial-advertise-peer-urls http://${NODE02}:2380 --listen-peer-urls http://0.0.0.0:2380 \
  --advertise-client-urls http://${NODE02}:2379 --listen-client-urls http://0.0.0.0:2379 \
  --initial-cluster node01=http://${NODE01}:2380,node02=http://${NODE02}:2380 \
  --initial-cluster-state existing
$ sleep 10
(Node01)$ docker logs -f etcd

## 4.1 Leader Server Deletion
(Node02)$ docker exec -it etcd sh
(etcd Container)$ etcdctl endpoint status --cluster -w table
(etcd Container)$ etcdctl member remove 4eee438bb97e1153
$ sleep 5
(Node02)$ docker logs -f etcd
(etcd Container)$ etcdctl member list

## 4.2 Follower Server Deletion: a fresh two-member cluster led by node01
(Node02)$ docker stop etcd
(Node02)$ docker rm etcd
(Node02)$ rm -rf /etcd-data
(Node01)$ docker rm etcd
(Node01)$ rm -rf /etcd-data
(Node01)$ docker run -d \
  --net=host \
  --name etcd ${REGISTRY}:v3.4.0 \
  /usr/local/bin/etcd \
  --data-dir=/etcd-data --name node01 \
  --initial-advertise-peer-urls http://${NODE01}:2380 --listen-peer-urls http://0.0.0.0:2380 \
  --advertise-client-urls http://${NODE01}:2379 --listen-client-urls http://0.0.0.0:2379 \
  --initial-cluster node01=http://${NODE01}:2380
$ sleep 3
(Node01)$ etcdctl member add node02 --peer-urls=http://192.168.0.62:2380
(Node02)$ docker run -d \
  --net=host \
  --name etcd ${REGISTRY}:v3.4.0 \
  /usr/local/bin/etcd \
  --data-dir=/etcd-data --name node02 \
  --initial-advertise-peer-urls http://${NODE02}:2380 --listen-peer-urls http://0.0.0.0:2380 \
  --advertise-client-urls http://${NODE02}:2379 --listen-client-urls http://0.0.0.0:2379 \
  --initial-cluster node01=http://${NODE01}:2380,node02=http://${NODE02}:2380 \
  --initial-cluster-state existing
$ sleep 10
(Node01)$ docker exec -it etcd sh
(etcd Container)$ etcdctl endpoint status --cluster -w table
(etcd Container)$ etcdctl member list
# node02's ID comes from the add's time stamp; the line above shows it
(etcd Container)$ etcdctl member remove 9885d7fd2cdc9cfb
$ sleep 2
(Node01)$ docker logs -f etcd

## 5. Server Addition Using Learner Feature: node02 rejoins, then node03 as a learner
(Node02)$ docker rm etcd
(Node02)$ rm -rf /etcd-data
(Node01)$ etcdctl member add node02 --peer-urls=http://192.168.0.62:2380
(Node02)$ docker run -d \
  --net=host \
  --name etcd ${REGISTRY}:v3.4.0 \
  /usr/local/bin/etcd \
  --data-dir=/etcd-data --name node02 \
  --initial-advertise-peer-urls http://${NODE02}:2380 --listen-peer-urls http://0.0.0.0:2380 \
  --advertise-client-urls http://${NODE02}:2379 --listen-client-urls http://0.0.0.0:2379 \
  --initial-cluster node01=http://${NODE01}:2380,node02=http://${NODE02}:2380 \
  --initial-cluster-state existing
$ sleep 10
(Node01)$ docker exec -it etcd sh
(etcd Container)$ etcdctl member add node03 --learner --peer-urls=http://192.168.0.63:2380
# node03 starts some 20 s after the add: the document's log shows node01's
# probes refused from about 13:41:04 until node03 connects at 13:41:25
$ sleep 20

(Node03)$ export NODE01=192.168.0.61
(Node03)$ export NODE02=192.168.0.62
(Node03)$ export NODE03=192.168.0.63
(Node03)$ export REGISTRY=gcr.io/etcd-development/etcd

(Node03)$ docker run -d \
  --net=host \
  --name etcd ${REGISTRY}:v3.4.0 \
  /usr/local/bin/etcd \
  --data-dir=/etcd-data --name node03 \
  --initial-advertise-peer-urls http://${NODE03}:2380 --listen-peer-urls http://0.0.0.0:2380 \
  --advertise-client-urls http://${NODE03}:2379 --listen-client-urls http://0.0.0.0:2379 \
  --initial-cluster node01=http://${NODE01}:2380,node02=http://${NODE02}:2380,node03=http://${NODE03}:2380 \
  --initial-cluster-state existing
$ sleep 5

(Node01)$ docker exec -it etcd sh
(etcd Container)$ etcdctl endpoint status --cluster -w table
(etcd Container)$ etcdctl member promote 907178cd988e15f3
(etcd Container)$ etcdctl endpoint status --cluster -w table
(Node01)$ docker logs -f etcd
