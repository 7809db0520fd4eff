# issue 20: 100 one-member clusters, then a simulated day: 172 s to first paint
machine add c0
c0$ etcd --name c0
machine add c1
c1$ etcd --name c1
machine add c2
c2$ etcd --name c2
machine add c3
c3$ etcd --name c3
machine add c4
c4$ etcd --name c4
machine add c5
c5$ etcd --name c5
machine add c6
c6$ etcd --name c6
machine add c7
c7$ etcd --name c7
machine add c8
c8$ etcd --name c8
machine add c9
c9$ etcd --name c9
machine add c10
c10$ etcd --name c10
machine add c11
c11$ etcd --name c11
machine add c12
c12$ etcd --name c12
machine add c13
c13$ etcd --name c13
machine add c14
c14$ etcd --name c14
machine add c15
c15$ etcd --name c15
machine add c16
c16$ etcd --name c16
machine add c17
c17$ etcd --name c17
machine add c18
c18$ etcd --name c18
machine add c19
c19$ etcd --name c19
machine add c20
c20$ etcd --name c20
machine add c21
c21$ etcd --name c21
machine add c22
c22$ etcd --name c22
machine add c23
c23$ etcd --name c23
machine add c24
c24$ etcd --name c24
machine add c25
c25$ etcd --name c25
machine add c26
c26$ etcd --name c26
machine add c27
c27$ etcd --name c27
machine add c28
c28$ etcd --name c28
machine add c29
c29$ etcd --name c29
machine add c30
c30$ etcd --name c30
machine add c31
c31$ etcd --name c31
machine add c32
c32$ etcd --name c32
machine add c33
c33$ etcd --name c33
machine add c34
c34$ etcd --name c34
machine add c35
c35$ etcd --name c35
machine add c36
c36$ etcd --name c36
machine add c37
c37$ etcd --name c37
machine add c38
c38$ etcd --name c38
machine add c39
c39$ etcd --name c39
machine add c40
c40$ etcd --name c40
machine add c41
c41$ etcd --name c41
machine add c42
c42$ etcd --name c42
machine add c43
c43$ etcd --name c43
machine add c44
c44$ etcd --name c44
machine add c45
c45$ etcd --name c45
machine add c46
c46$ etcd --name c46
machine add c47
c47$ etcd --name c47
machine add c48
c48$ etcd --name c48
machine add c49
c49$ etcd --name c49
machine add c50
c50$ etcd --name c50
machine add c51
c51$ etcd --name c51
machine add c52
c52$ etcd --name c52
machine add c53
c53$ etcd --name c53
machine add c54
c54$ etcd --name c54
machine add c55
c55$ etcd --name c55
machine add c56
c56$ etcd --name c56
machine add c57
c57$ etcd --name c57
machine add c58
c58$ etcd --name c58
machine add c59
c59$ etcd --name c59
machine add c60
c60$ etcd --name c60
machine add c61
c61$ etcd --name c61
machine add c62
c62$ etcd --name c62
machine add c63
c63$ etcd --name c63
machine add c64
c64$ etcd --name c64
machine add c65
c65$ etcd --name c65
machine add c66
c66$ etcd --name c66
machine add c67
c67$ etcd --name c67
machine add c68
c68$ etcd --name c68
machine add c69
c69$ etcd --name c69
machine add c70
c70$ etcd --name c70
machine add c71
c71$ etcd --name c71
machine add c72
c72$ etcd --name c72
machine add c73
c73$ etcd --name c73
machine add c74
c74$ etcd --name c74
machine add c75
c75$ etcd --name c75
machine add c76
c76$ etcd --name c76
machine add c77
c77$ etcd --name c77
machine add c78
c78$ etcd --name c78
machine add c79
c79$ etcd --name c79
machine add c80
c80$ etcd --name c80
machine add c81
c81$ etcd --name c81
machine add c82
c82$ etcd --name c82
machine add c83
c83$ etcd --name c83
machine add c84
c84$ etcd --name c84
machine add c85
c85$ etcd --name c85
machine add c86
c86$ etcd --name c86
machine add c87
c87$ etcd --name c87
machine add c88
c88$ etcd --name c88
machine add c89
c89$ etcd --name c89
machine add c90
c90$ etcd --name c90
machine add c91
c91$ etcd --name c91
machine add c92
c92$ etcd --name c92
machine add c93
c93$ etcd --name c93
machine add c94
c94$ etcd --name c94
machine add c95
c95$ etcd --name c95
machine add c96
c96$ etcd --name c96
machine add c97
c97$ etcd --name c97
machine add c98
c98$ etcd --name c98
machine add c99
c99$ etcd --name c99
sleep 24h
